//! The static table of supported languages: name, file extensions, grammar and
//! query file. Everything else about a language lives in its query file under
//! `ingest/queries/`.

use tree_sitter::Language as Grammar;

/// One supported language.
pub struct Language {
    /// Display name, as shown by `stats info` and stored in the index.
    pub name: &'static str,
    /// Short id; also the query file name (`queries/<id>.scm`).
    pub id: &'static str,
    /// File extensions, lower case, without the dot.
    pub extensions: &'static [&'static str],
    /// The tree-sitter grammar.
    pub grammar: fn() -> Grammar,
    /// The tags-style query that drives extraction.
    pub query: &'static str,
}

macro_rules! query {
    ($id:literal) => {
        include_str!(concat!("../../queries/", $id, ".scm"))
    };
}

/// All languages, sorted by id.
pub static LANGUAGES: &[Language] = &[
    Language {
        name: "ArkTs",
        id: "arkts",
        extensions: &["ets"],
        grammar: || tree_sitter_arkts::LANGUAGE.into(),
        query: query!("arkts"),
    },
    Language {
        name: "Bash",
        id: "bash",
        extensions: &["sh", "bash", "zsh"],
        grammar: || tree_sitter_bash::LANGUAGE.into(),
        query: query!("bash"),
    },
    Language {
        name: "Batch",
        id: "batch",
        extensions: &["bat", "cmd"],
        grammar: || tree_sitter_batch::LANGUAGE.into(),
        query: query!("batch"),
    },
    Language {
        name: "C#",
        id: "csharp",
        extensions: &["cs"],
        grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
        query: query!("csharp"),
    },
    Language {
        name: "Dart",
        id: "dart",
        extensions: &["dart"],
        grammar: || tree_sitter_dart::LANGUAGE.into(),
        query: query!("dart"),
    },
    Language {
        name: "Go",
        id: "go",
        extensions: &["go"],
        grammar: || tree_sitter_go::LANGUAGE.into(),
        query: query!("go"),
    },
    Language {
        name: "Java",
        id: "java",
        extensions: &["java"],
        grammar: || tree_sitter_java::LANGUAGE.into(),
        query: query!("java"),
    },
    Language {
        name: "JavaScript",
        id: "javascript",
        extensions: &["js", "jsx", "mjs", "cjs"],
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        query: query!("javascript"),
    },
    Language {
        name: "Kotlin",
        id: "kotlin",
        extensions: &["kt", "kts"],
        grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
        query: query!("kotlin"),
    },
    Language {
        name: "Markdown",
        id: "markdown",
        extensions: &["md", "markdown"],
        grammar: || tree_sitter_md::LANGUAGE.into(),
        query: query!("markdown"),
    },
    Language {
        name: "Python",
        id: "python",
        extensions: &["py", "pyi"],
        grammar: || tree_sitter_python::LANGUAGE.into(),
        query: query!("python"),
    },
    Language {
        name: "Rust",
        id: "rust",
        extensions: &["rs"],
        grammar: || tree_sitter_rust::LANGUAGE.into(),
        query: query!("rust"),
    },
    Language {
        name: "Swift",
        id: "swift",
        extensions: &["swift"],
        grammar: || tree_sitter_swift::LANGUAGE.into(),
        query: query!("swift"),
    },
    Language {
        name: "TSX",
        id: "tsx",
        extensions: &["tsx"],
        grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
        query: query!("tsx"),
    },
    Language {
        name: "TypeScript",
        id: "typescript",
        extensions: &["ts", "mts", "cts"],
        grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        query: query!("typescript"),
    },
];

/// The full query text of a language: its own file, preceded by the files it
/// names in `; inherits: <id>[, <id>]` lines (as in Helix's runtime queries).
/// An unknown id is an error.
///
/// `VIBE_QUERY_DIR` (for query authors) reads `<dir>/<id>.scm` from disk
/// instead of the embedded file, so a query can be tried without a rebuild.
pub fn query_source(lang: &Language) -> Result<String, String> {
    let own = match std::env::var_os("VIBE_QUERY_DIR") {
        Some(dir) => {
            let path = std::path::Path::new(&dir).join(format!("{}.scm", lang.id));
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => lang.query.to_string(),
    };
    let mut out = String::new();
    for line in own.lines() {
        if let Some(ids) = line.trim().strip_prefix("; inherits:") {
            for id in ids.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let base = by_id(id).ok_or_else(|| format!("inherits unknown language {id:?}"))?;
                out.push_str(&query_source(base)?);
                out.push('\n');
            }
        }
    }
    out.push_str(&own);
    Ok(out)
}

/// The language of a file, by its extension.
pub fn for_path(path: &std::path::Path) -> Option<&'static Language> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    LANGUAGES.iter().find(|l| l.extensions.contains(&ext.as_str()))
}

/// A language by its id.
pub fn by_id(id: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|l| l.id == id)
}
