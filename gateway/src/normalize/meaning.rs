//! Tool names resolved by meaning. A normalized name (`get_class_definition`)
//! is split into words; each word is mapped through the synonym table
//! `gateway/data/tool_words.tsv` to concepts (`read`, `class`, `definition`);
//! each tool scores the concepts by its [`ToolSpec::meaning`] weights, and an
//! object concept a tool does not list counts [`UNRELATED`] against it. The
//! best tool wins when it scores at least [`MIN_SCORE`] and more than the
//! second; two tools with the same best score are a tie, reported to the
//! caller. A word meaning something this server does not do (`weather`,
//! `translate`) stops resolution.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use crate::registry::{ToolSpec, TOOLS};

/// The synonym table: `word<TAB>concept[,concept]`.
pub const TOOL_WORDS_TSV: &str = include_str!("../../data/tool_words.tsv");

/// Concepts that only add to the tools that list them.
pub const NEUTRAL_CONCEPTS: &[&str] = &["search", "grep", "read", "list", "code", "mutate"];

/// The objects a `mutate` word may act on and still name a tool (re-indexing).
const MUTABLE: &[&str] = &["sync", "index", "project", "mutate"];

/// A tool must score at least this much to be chosen.
pub const MIN_SCORE: i32 = 5;

/// What an object concept a tool does not list costs it.
pub const UNRELATED: i32 = -4;

/// What a name means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    Tool(&'static str),
    /// Two tools fit equally well.
    Tie(&'static str, &'static str),
    Nothing,
}

/// The parsed synonym table: word → concepts.
pub fn words() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static TABLE: LazyLock<HashMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
        let mut table: HashMap<&str, Vec<&str>> = HashMap::new();
        for line in TOOL_WORDS_TSV.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let Some((word, concepts)) = line.split_once('\t') else {
                tracing::warn!("tool_words.tsv: expected `word<TAB>concepts`: {line:?}");
                continue;
            };
            let entry = table.entry(word.trim()).or_default();
            for c in concepts.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                if !entry.contains(&c) {
                    entry.push(c);
                }
            }
        }
        table
    });
    &TABLE
}

/// The concepts of one word, trying its stems (`finders` → `finder` → `find`).
pub fn concepts_of_word(word: &str) -> &'static [&'static str] {
    let table = words();
    for candidate in stems(word) {
        if let Some(c) = table.get(candidate.as_str()) {
            return c;
        }
    }
    &[]
}

fn stems(word: &str) -> Vec<String> {
    let mut out = vec![word.to_string()];
    let mut push = |s: String| {
        if s.chars().count() >= 2 && !out.contains(&s) {
            out.push(s);
        }
    };
    if let Some(stem) = word.strip_suffix("ies") {
        push(format!("{stem}y"));
    }
    for suffix in ["es", "s"] {
        if let Some(stem) = word.strip_suffix(suffix) {
            push(stem.to_string());
        }
    }
    let singular = word.strip_suffix('s').unwrap_or(word);
    for suffix in ["er", "ing", "ed", "or"] {
        if let Some(stem) = singular.strip_suffix(suffix) {
            push(stem.to_string());
            push(format!("{stem}e"));
            // finder → find, mapping → map, getter → get
            if let Some(last) = stem.chars().last() {
                if stem.ends_with(&format!("{last}{last}")) {
                    push(stem[..stem.len() - last.len_utf8()].to_string());
                }
            }
        }
    }
    out
}

/// Every concept of a normalized (`snake_case`) name; `None` when a word is foreign.
pub fn concepts(normalized: &str) -> Option<BTreeSet<&'static str>> {
    let mut found = BTreeSet::new();
    let words: Vec<&str> = normalized.split('_').filter(|w| !w.is_empty()).collect();
    for (i, word) in words.iter().enumerate() {
        // `index_codebase`: a leading `index` is the verb (re-index).
        let concepts: &[&str] =
            if i == 0 && *word == "index" && words.len() > 1 { &["sync"] } else { concepts_of_word(word) };
        for c in concepts {
            match *c {
                "foreign" => return None,
                "stop" => {}
                c => {
                    found.insert(c);
                }
            }
        }
    }
    Some(found)
}

/// A tool's score for a set of concepts.
pub fn score(tool: &ToolSpec, concepts: &BTreeSet<&str>) -> i32 {
    let mut total = 0;
    for (concept, weight) in tool.meaning {
        if concept.split('+').all(|c| concepts.contains(c)) {
            total += weight;
        }
    }
    for c in concepts.iter().filter(|c| !NEUTRAL_CONCEPTS.contains(c)) {
        if !tool.meaning.iter().any(|(m, _)| m == c) {
            total += UNRELATED;
        }
    }
    total
}

/// What a normalized tool name means (see the module documentation).
pub fn resolve(normalized: &str) -> Meaning {
    let Some(concepts) = concepts(normalized) else { return Meaning::Nothing };
    if concepts.is_empty() {
        return Meaning::Nothing;
    }
    // `update_file` would change a file: nothing here does that.
    if concepts.contains("mutate") && concepts.iter().any(|c| !MUTABLE.contains(c) && !NEUTRAL_CONCEPTS.contains(c)) {
        return Meaning::Nothing;
    }
    let mut scored: Vec<(i32, &'static str)> =
        TOOLS.iter().filter(|t| !t.meaning.is_empty()).map(|t| (score(t, &concepts), t.name)).collect();
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    match scored.as_slice() {
        [(best, tool), (second, other), ..] if *best >= MIN_SCORE => {
            if best == second {
                Meaning::Tie(tool, other)
            } else {
                Meaning::Tool(tool)
            }
        }
        [(best, tool)] if *best >= MIN_SCORE => Meaning::Tool(tool),
        _ => Meaning::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_only_known_concepts() {
        let mut known: BTreeSet<&str> =
            TOOLS.iter().flat_map(|t| t.meaning.iter()).flat_map(|(c, _)| c.split('+')).collect();
        known.extend(["foreign", "stop", "mutate"]);
        known.extend(NEUTRAL_CONCEPTS);
        for (word, concepts) in words() {
            for c in concepts {
                assert!(known.contains(c), "{word}: unknown concept {c}");
            }
        }
        // And every concept a tool lists is reachable from some word.
        let reachable: BTreeSet<&str> = words().values().flatten().copied().collect();
        for t in TOOLS {
            for (c, _) in t.meaning {
                for part in c.split('+') {
                    assert!(reachable.contains(part), "{}: concept {part} has no word", t.name);
                }
            }
        }
    }

    #[test]
    fn stems_find_the_base_word() {
        assert_eq!(concepts_of_word("finders"), &["search"]);
        assert_eq!(concepts_of_word("importers"), &["import"]);
        assert_eq!(concepts_of_word("classes"), &["class"]);
        assert_eq!(concepts_of_word("dependencies"), &["import"]);
        assert_eq!(concepts_of_word("searching"), &["search"]);
        assert!(concepts_of_word("zzz").is_empty());
    }

    #[test]
    fn names_resolve_by_meaning() {
        for (name, tool) in [
            ("get_class_definition", "search_by_code_classes"),
            ("function_finder", "search_by_code_functions"),
            ("grep_classes", "search_by_code_classes"),
            ("module_importers", "search_by_code_imports"),
            ("get_file_symbols", "get_file_ast"),
            ("project_structure", "show_tree"),
            ("who_calls", "find_references"),
            ("grep", "search_code_text"),
            ("ask_wiki", "search_documentation"),
            ("get_syntax_tree", "get_file_ast"),
            ("index_codebase", "admin_sync"),
        ] {
            assert_eq!(resolve(name), Meaning::Tool(tool), "{name}");
        }
        assert_eq!(resolve("update_index"), Meaning::Tool("admin_sync"));
        assert_eq!(resolve("reindex_everything"), Meaning::Tool("admin_sync"));
        for name in [
            "search",
            "get",
            "hello_world",
            "search_web",
            "translate_text",
            "get_weather",
            "list",
            "zzz",
            "update_file",
            "update_docs",
        ] {
            assert_eq!(resolve(name), Meaning::Nothing, "{name}");
        }
    }
}
