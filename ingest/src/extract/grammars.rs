//! The static table of supported languages: grammar, query file, extractor
//! and comment syntax (as in Helix's `languages.toml`); their names and file
//! extensions come from `vibe_common::files::languages`, which the gateway reads too.
//! Everything else about a language lives in its query file under
//! `ingest/queries/`; the extraction engine itself names no language.

use std::ops::Deref;

use tree_sitter::Language as Grammar;
use vibe_common::files::languages::{self as names, LanguageName};

/// One supported language.
pub struct Language {
    /// Its name, id and file extensions, from the one table the gateway
    /// reads too (`vibe_common::files::languages`); `lang.name`, `lang.id` and
    /// `lang.extensions` read them through `Deref`.
    pub names: &'static LanguageName,
    /// The tree-sitter grammar.
    pub grammar: fn() -> Grammar,
    /// The tags-style query that drives extraction.
    pub query: &'static str,
    /// Which extractor runs the query.
    pub extractor: Extractor,
    /// Line comment prefixes, a longer one before any it starts with (`///`
    /// before `//`). Matched ignoring ASCII case; one ending in a letter or a
    /// digit only before a space or the end of the line (`rem`).
    pub comment_tokens: &'static [&'static str],
    /// Block comment delimiters, and docstring quotes, a longer start first.
    pub block_comment_tokens: &'static [BlockComment],
    /// Markup removed from comment text, beyond the comment markers.
    pub doc_markup: &'static [DocMarkup],
}

impl Deref for Language {
    type Target = LanguageName;

    fn deref(&self) -> &LanguageName {
        self.names
    }
}

/// The extractor of a language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extractor {
    /// The generic engine (`engine.rs`), driven by the query's captures.
    Queries,
    /// Markdown's own extractor (`markdown.rs`): headings, front matter, links.
    Markdown,
}

/// The start and end of a block comment (or of a docstring).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockComment {
    pub start: &'static str,
    pub end: &'static str,
}

/// Documentation markup that carries no text of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocMarkup {
    /// A `*` leading a block comment's lines (` * text`, Javadoc style).
    StarLeaders,
    /// XML documentation tags (`<summary>`, `<param name="a">`, as in C#):
    /// removed, keeping their text and `name`/`cref` values.
    XmlTags,
}

const fn block(start: &'static str, end: &'static str) -> BlockComment {
    BlockComment { start, end }
}

/// `///` and `//` line comments, `/** */` and `/* */` block comments.
const C_LINE: &[&str] = &["///", "//"];
const C_BLOCK: &[BlockComment] = &[block("/**", "*/"), block("/*", "*/")];

macro_rules! query {
    ($id:literal) => {
        include_str!(concat!("../../queries/", $id, ".scm"))
    };
}

/// All languages, sorted by id.
pub static LANGUAGES: &[Language] = &[
    Language {
        names: &names::ARKTS,
        grammar: || tree_sitter_arkts::LANGUAGE.into(),
        query: query!("arkts"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::BASH,
        grammar: || tree_sitter_bash::LANGUAGE.into(),
        query: query!("bash"),
        extractor: Extractor::Queries,
        comment_tokens: &["#"],
        block_comment_tokens: &[],
        doc_markup: &[],
    },
    Language {
        names: &names::BATCH,
        grammar: || tree_sitter_batch::LANGUAGE.into(),
        query: query!("batch"),
        extractor: Extractor::Queries,
        comment_tokens: &["::", "@rem", "rem"],
        block_comment_tokens: &[],
        doc_markup: &[],
    },
    Language {
        names: &names::C,
        grammar: || tree_sitter_c::LANGUAGE.into(),
        query: query!("c"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::CPP,
        grammar: || tree_sitter_cpp::LANGUAGE.into(),
        query: query!("cpp"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::CSHARP,
        grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
        query: query!("csharp"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders, DocMarkup::XmlTags],
    },
    Language {
        names: &names::DART,
        grammar: || tree_sitter_dart::LANGUAGE.into(),
        query: query!("dart"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::ELIXIR,
        grammar: || tree_sitter_elixir::LANGUAGE.into(),
        query: query!("elixir"),
        extractor: Extractor::Queries,
        comment_tokens: &["#"],
        // `@doc` strings: their attribute and quotes are markers.
        block_comment_tokens: &[
            block("@moduledoc \"\"\"", "\"\"\""),
            block("@typedoc \"\"\"", "\"\"\""),
            block("@doc \"\"\"", "\"\"\""),
            block("@moduledoc ~S\"\"\"", "\"\"\""),
            block("@doc ~S\"\"\"", "\"\"\""),
            block("@moduledoc \"", "\""),
            block("@typedoc \"", "\""),
            block("@doc \"", "\""),
            block("\"\"\"", "\"\"\""),
        ],
        doc_markup: &[],
    },
    Language {
        names: &names::GO,
        grammar: || tree_sitter_go::LANGUAGE.into(),
        query: query!("go"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::HASKELL,
        grammar: || tree_sitter_haskell::LANGUAGE.into(),
        query: query!("haskell"),
        extractor: Extractor::Queries,
        // Haddock: `-- |` before a definition, `-- ^` after one.
        comment_tokens: &["-- |", "-- ^", "--"],
        block_comment_tokens: &[block("{-|", "-}"), block("{-", "-}")],
        doc_markup: &[],
    },
    Language {
        names: &names::JAVA,
        grammar: || tree_sitter_java::LANGUAGE.into(),
        query: query!("java"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::JAVASCRIPT,
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        query: query!("javascript"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::KOTLIN,
        grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
        query: query!("kotlin"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::LUA,
        grammar: || tree_sitter_lua::LANGUAGE.into(),
        query: query!("lua"),
        extractor: Extractor::Queries,
        comment_tokens: &["---", "--"],
        block_comment_tokens: &[block("--[[", "]]"), block("--[==[", "]==]"), block("--[=[", "]=]")],
        doc_markup: &[],
    },
    Language {
        names: &names::MARKDOWN,
        grammar: || tree_sitter_md::LANGUAGE.into(),
        query: query!("markdown"),
        extractor: Extractor::Markdown,
        comment_tokens: &[],
        block_comment_tokens: &[],
        doc_markup: &[],
    },
    Language {
        names: &names::PHP,
        grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
        query: query!("php"),
        extractor: Extractor::Queries,
        comment_tokens: &["//", "#"],
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::PYTHON,
        grammar: || tree_sitter_python::LANGUAGE.into(),
        query: query!("python"),
        extractor: Extractor::Queries,
        comment_tokens: &["#:", "#"],
        block_comment_tokens: &[
            block("r\"\"\"", "\"\"\""),
            block("\"\"\"", "\"\"\""),
            block("'''", "'''"),
            block("\"", "\""),
            block("'", "'"),
        ],
        doc_markup: &[],
    },
    Language {
        names: &names::RUBY,
        grammar: || tree_sitter_ruby::LANGUAGE.into(),
        query: query!("ruby"),
        extractor: Extractor::Queries,
        comment_tokens: &["#"],
        block_comment_tokens: &[block("=begin", "=end")],
        doc_markup: &[],
    },
    Language {
        names: &names::RUST,
        grammar: || tree_sitter_rust::LANGUAGE.into(),
        query: query!("rust"),
        extractor: Extractor::Queries,
        comment_tokens: &["///", "//!", "//"],
        block_comment_tokens: &[block("/**", "*/"), block("/*!", "*/"), block("/*", "*/")],
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::SCALA,
        grammar: || tree_sitter_scala::LANGUAGE.into(),
        query: query!("scala"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::SWIFT,
        grammar: || tree_sitter_swift::LANGUAGE.into(),
        query: query!("swift"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::TSX,
        grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
        query: query!("tsx"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::TYPESCRIPT,
        grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        query: query!("typescript"),
        extractor: Extractor::Queries,
        comment_tokens: C_LINE,
        block_comment_tokens: C_BLOCK,
        doc_markup: &[DocMarkup::StarLeaders],
    },
    Language {
        names: &names::ZIG,
        grammar: || tree_sitter_zig::LANGUAGE.into(),
        query: query!("zig"),
        extractor: Extractor::Queries,
        comment_tokens: &["///", "//!", "//"],
        block_comment_tokens: &[],
        doc_markup: &[],
    },
];

/// Query parts that are no language of their own, each inherited by
/// several languages (`; inherits: ecmascript`: what JavaScript and
/// TypeScript share, as nvim-treesitter's `ecma`).
const SHARED_PARTS: &[(&str, &str)] = &[("ecmascript", include_str!("../../queries/ecmascript.scm"))];

/// The full query text of a language: its own file, preceded by the files it
/// names in `; inherits: <id>[, <id>]` lines (as in Helix's runtime queries):
/// another language's query, or a shared part ([`SHARED_PARTS`]). An
/// unknown id is an error.
///
/// `VIBE_QUERY_DIR` (for query authors) reads `<dir>/<id>.scm` from disk
/// instead of the embedded file, so a query can be tried without a rebuild.
pub fn query_source(lang: &Language) -> Result<String, String> {
    with_inherited(lang.id, lang.query)
}

/// The query file `id` (embedded as `embedded`), preceded by what it inherits.
fn with_inherited(id: &str, embedded: &str) -> Result<String, String> {
    let own = match std::env::var_os("VIBE_QUERY_DIR") {
        Some(dir) => {
            let path = std::path::Path::new(&dir).join(format!("{id}.scm"));
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => embedded.to_string(),
    };
    let mut out = String::new();
    for line in own.lines() {
        if let Some(ids) = line.trim().strip_prefix("; inherits:") {
            for id in ids.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let base = match (by_id(id), SHARED_PARTS.iter().find(|(part, _)| *part == id)) {
                    (Some(lang), _) => query_source(lang)?,
                    (None, Some((part, text))) => with_inherited(part, text)?,
                    (None, None) => return Err(format!("inherits unknown language {id:?}")),
                };
                out.push_str(&base);
                out.push('\n');
            }
        }
    }
    out.push_str(&own);
    Ok(out)
}

/// The language of a file, by its extension.
pub fn for_path(path: &std::path::Path) -> Option<&'static Language> {
    let names = names::by_extension(path.extension()?.to_str()?)?;
    by_id(names.id)
}

/// The language of a file whose text is read: its extension's
/// ([`for_path`]), except for a C header (`.h`) that holds syntax only C++
/// has (a `namespace` or `template <`, a `class` with a body or bases, an
/// access label `public:`, `using namespace`, an `#include` of a standard
/// header without extension, `<vector>`), which is C++. The rule looks at the
/// header alone, not at the files beside it: C++ libraries keep their `.h`
/// headers apart from their sources (`include/fmt/core.h`).
pub fn refine(lang: &'static Language, path: &std::path::Path, text: &str) -> &'static Language {
    let header = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("h"));
    if lang.id != names::C.id || !header || !cpp_syntax(text) {
        return lang;
    }
    by_id(names::CPP.id).unwrap_or(lang)
}

/// Whether a header's text holds a line that only C++ writes.
fn cpp_syntax(text: &str) -> bool {
    static CPP_LINE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(concat!(
            r"(?m)^[ \t]*(?:",
            r"namespace(?:[ \t]+[A-Za-z_][\w:]*)?[ \t]*\{",
            r"|template[ \t]*<",
            r"|class[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t]*(?:\{|:[^:])",
            r"|struct[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t]*:[ \t]*(?:public|protected|private|virtual)\b",
            r"|(?:public|protected|private)[ \t]*:",
            r"|using[ \t]+namespace\b",
            r"|#[ \t]*include[ \t]*<[a-z_]+>",
            r")"
        ))
        .expect("a valid pattern")
    });
    CPP_LINE.is_match(text)
}

/// A language by its id.
pub fn by_id(id: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.h` is C unless it holds a line only C++ writes.
    #[test]
    fn a_header_is_c_unless_it_holds_cpp_syntax() {
        let c = by_id("c").unwrap();
        let id = |path: &str, text: &str| refine(c, std::path::Path::new(path), text).id;
        let c_header = "#ifndef A_H\n#define A_H\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\
                        struct point { int x; };\n/* class Foo { in a comment */\nint f(int class_);\n#endif\n";
        assert_eq!(id("a.h", c_header), "c");
        for cpp in [
            "namespace fmt {\n}\n",
            "namespace {\nint x;\n}\n",
            "template <typename T>\nT f(T);\n",
            "class Widget {\n};\n",
            "class Widget final : public Base {};\n",
            "struct Node : public Base {};\n",
            "  public:\n",
            "using namespace std;\n",
            "#include <vector>\n",
        ] {
            assert_eq!(id("a.h", cpp), "cpp", "{cpp:?}");
            assert_eq!(id("a.H", cpp), "cpp", "{cpp:?}");
        }
        // Only a header is looked at: a `.c` file stays C.
        assert_eq!(id("a.c", "namespace x {\n}\n"), "c");
        let py = by_id("python").unwrap();
        assert_eq!(refine(py, std::path::Path::new("a.h"), "class A {\n").id, "python");
    }

    /// The scanner's table and the shared names table list the same
    /// languages in the same order, and every extension of the shared table
    /// finds its language here.
    #[test]
    fn every_shared_language_has_its_grammar() {
        let ids: Vec<&str> = LANGUAGES.iter().map(|l| l.id).collect();
        let shared: Vec<&str> = names::LANGUAGE_NAMES.iter().map(|l| l.id).collect();
        assert_eq!(ids, shared);
        for names in names::LANGUAGE_NAMES {
            for ext in names.extensions {
                let path = std::path::PathBuf::from(format!("dir/file.{}", ext.to_uppercase()));
                assert_eq!(for_path(&path).map(|l| l.name), Some(names.name), "{}", path.display());
            }
        }
        assert!(for_path(std::path::Path::new("a.txt")).is_none());
        assert_eq!(for_path(std::path::Path::new("a.h")).map(|l| l.id), Some("c"));
        assert!(for_path(std::path::Path::new("Makefile")).is_none());
    }
}
