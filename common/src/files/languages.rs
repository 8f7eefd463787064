//! The names of the supported languages: the one table that says which file
//! extensions are which language, and which words a user may call it by.
//!
//! The scanner (`ingest/src/extract/languages.rs`) tags each file with the
//! `name` of the language its extension belongs to; that name is what the
//! index stores in a file's `language` field. The gateway reads the same table
//! to turn what a user writes in a tool's `language` argument (`py`, `pyi`,
//! `golang`, `C#`, `TypeScript`) into that stored name, so a new extension
//! added here is both scanned and searchable by its language.

/// One language's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageName {
    /// Display name, as shown by `stats info` and stored in the index.
    pub name: &'static str,
    /// Short id; also the query file name (`ingest/queries/<id>.scm`).
    pub id: &'static str,
    /// File extensions, lower case, without the dot.
    pub extensions: &'static [&'static str],
    /// Other words for the language (`golang`, `nodejs`), lower case.
    pub aliases: &'static [&'static str],
}

const fn lang(
    name: &'static str,
    id: &'static str,
    extensions: &'static [&'static str],
    aliases: &'static [&'static str],
) -> LanguageName {
    LanguageName { name, id, extensions, aliases }
}

pub const ARKTS: LanguageName = lang("ArkTs", "arkts", &["ets"], &[]);
pub const BASH: LanguageName = lang("Bash", "bash", &["sh", "bash", "zsh"], &["shell"]);
pub const BATCH: LanguageName = lang("Batch", "batch", &["bat", "cmd"], &[]);
/// C: its sources, and headers unless they hold C++ syntax (the scanner
/// reads such a `.h` as C++; `ingest/src/extract/grammars.rs`, `refine`).
pub const C: LanguageName = lang("C", "c", &["c", "h"], &[]);
pub const CPP: LanguageName =
    lang("C++", "cpp", &["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++"], &["cplusplus"]);
pub const CSHARP: LanguageName = lang("C#", "csharp", &["cs"], &["c-sharp", "c sharp"]);
pub const DART: LanguageName = lang("Dart", "dart", &["dart"], &[]);
pub const ELIXIR: LanguageName = lang("Elixir", "elixir", &["ex", "exs"], &[]);
pub const GO: LanguageName = lang("Go", "go", &["go"], &["golang"]);
pub const HASKELL: LanguageName = lang("Haskell", "haskell", &["hs"], &["ghc"]);
pub const JAVA: LanguageName = lang("Java", "java", &["java"], &[]);
pub const JAVASCRIPT: LanguageName =
    lang("JavaScript", "javascript", &["js", "jsx", "mjs", "cjs"], &["node", "nodejs"]);
pub const KOTLIN: LanguageName = lang("Kotlin", "kotlin", &["kt", "kts"], &[]);
pub const LUA: LanguageName = lang("Lua", "lua", &["lua"], &[]);
pub const MARKDOWN: LanguageName = lang("Markdown", "markdown", &["md", "markdown"], &[]);
pub const PHP: LanguageName = lang("PHP", "php", &["php"], &[]);
pub const PYTHON: LanguageName = lang("Python", "python", &["py", "pyi"], &["python3"]);
pub const RUBY: LanguageName = lang("Ruby", "ruby", &["rb", "rake"], &[]);
pub const RUST: LanguageName = lang("Rust", "rust", &["rs"], &[]);
pub const SCALA: LanguageName = lang("Scala", "scala", &["scala", "sc"], &[]);
pub const SWIFT: LanguageName = lang("Swift", "swift", &["swift"], &[]);
pub const TSX: LanguageName = lang("TSX", "tsx", &["tsx"], &[]);
pub const TYPESCRIPT: LanguageName = lang("TypeScript", "typescript", &["ts", "mts", "cts"], &[]);
pub const ZIG: LanguageName = lang("Zig", "zig", &["zig"], &["ziglang"]);

/// All languages, sorted by id (the order of the scanner's table).
pub static LANGUAGE_NAMES: &[LanguageName] = &[
    ARKTS, BASH, BATCH, C, CPP, CSHARP, DART, ELIXIR, GO, HASKELL, JAVA, JAVASCRIPT, KOTLIN, LUA, MARKDOWN, PHP,
    PYTHON, RUBY, RUST, SCALA, SWIFT, TSX, TYPESCRIPT, ZIG,
];

/// The language of a file extension (without the dot, any case).
pub fn by_extension(ext: &str) -> Option<&'static LanguageName> {
    let ext = ext.to_ascii_lowercase();
    LANGUAGE_NAMES.iter().find(|l| l.extensions.contains(&ext.as_str()))
}

/// The language a user means by `word`: its name, id, an extension or an
/// alias, in any case and with or without a leading dot (`Python`, `py`,
/// `.pyi`, `python3`).
pub fn resolve(word: &str) -> Option<&'static LanguageName> {
    let w = word.trim().trim_start_matches('.').to_lowercase();
    LANGUAGE_NAMES.iter().find(|l| {
        l.name.to_lowercase() == w || l.id == w || l.extensions.contains(&w.as_str()) || l.aliases.contains(&w.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_names_one_language() {
        let mut seen: Vec<(String, &str)> = Vec::new();
        for l in LANGUAGE_NAMES {
            let words = [l.name.to_lowercase(), l.id.to_string()]
                .into_iter()
                .chain(l.extensions.iter().chain(l.aliases).map(|w| w.to_string()));
            for w in words {
                assert_eq!(w, w.trim().to_lowercase(), "{w:?} of {} is not lower case", l.id);
                if let Some((_, other)) = seen.iter().find(|(s, id)| *s == w && *id != l.id) {
                    panic!("{w:?} names both {other} and {}", l.id);
                }
                seen.push((w, l.id));
            }
        }
    }

    #[test]
    fn ids_are_sorted_and_unique() {
        let ids: Vec<&str> = LANGUAGE_NAMES.iter().map(|l| l.id).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
    }

    #[test]
    fn names_extensions_and_aliases_resolve() {
        let name = |w: &str| resolve(w).map(|l| l.name);
        assert_eq!(name("pyi"), Some("Python"));
        assert_eq!(name(".PY"), Some("Python"));
        assert_eq!(name("mts"), Some("TypeScript"));
        assert_eq!(name("cts"), Some("TypeScript"));
        assert_eq!(name("cjs"), Some("JavaScript"));
        assert_eq!(name("tsx"), Some("TSX"));
        assert_eq!(name("CSharp"), Some("C#"));
        assert_eq!(name("c#"), Some("C#"));
        assert_eq!(name(" golang "), Some("Go"));
        assert_eq!(name("h"), Some("C"));
        assert_eq!(name("C++"), Some("C++"));
        assert_eq!(name("cpp"), Some("C++"));
        assert_eq!(name(".hpp"), Some("C++"));
        assert_eq!(name("rake"), Some("Ruby"));
        assert_eq!(name("PHP"), Some("PHP"));
        assert_eq!(name("exs"), Some("Elixir"));
        assert_eq!(name("Lua"), Some("Lua"));
        assert_eq!(name("sc"), Some("Scala"));
        assert_eq!(name(".hs"), Some("Haskell"));
        assert_eq!(name("ziglang"), Some("Zig"));
        assert_eq!(name("cobol"), None);
        assert_eq!(by_extension("Cjs").map(|l| l.id), Some("javascript"));
        assert_eq!(by_extension("txt"), None);
    }
}
