//! `find_references` with `direction: "subtypes"` or `"supertypes"`: the
//! types that extend or implement a type (direct ones first, then theirs,
//! up to `depth` levels), or the chain of types it extends. Read from each
//! definition's `supertypes` (recorded at scan time by the language's
//! query) through the `hierarchy` section of the stored template
//! `find_references`: one search a level, each for all of the level's names.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::answers::{AnswerDirection, FileResult, NoMore, ReferencesAnswer, ReferencesPage, TypeLink, Uses};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::template_params::TemplateParams;
use crate::tool_error::ToolError;

/// The stored template of `find_references`: uses of a name, and (its
/// `hierarchy` section) the types a level of a hierarchy holds.
pub const CALLERS_TEMPLATE: &str = "find_references";

/// Levels followed when `depth` is not given, and at most.
pub const DEFAULT_DEPTH: u32 = 1;
pub const MAX_DEPTH: u32 = 8;
/// Files read a level, and types a file.
const FILES_PER_LEVEL: u32 = 100;
const TYPES_PER_FILE: u32 = 50;
/// Types gathered in all: a hierarchy larger than this is cut, and says so.
const MAX_TYPES: usize = 400;

/// Which way the hierarchy is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    Subtypes,
    Supertypes,
}

impl Way {
    fn direction(self) -> AnswerDirection {
        match self {
            Way::Subtypes => AnswerDirection::Subtypes,
            Way::Supertypes => AnswerDirection::Supertypes,
        }
    }
}

/// A name a level looks for, and the family of languages it was reached
/// in (None: the queried name, in any language). A type extends only types
/// of its own family: a Python class's `Error` is no Rust trait `Error`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Sought {
    name: String,
    family: Option<&'static str>,
}

impl Sought {
    fn reaches(&self, name: &str, family: &str) -> bool {
        self.name == name && self.family.is_none_or(|f| f == family)
    }
}

/// The languages whose types may extend each other's: the JVM's (Java,
/// Kotlin, Scala),
/// JavaScript's with the languages compiled to it, C and C++; any other
/// alone. `language` is a file's stored language name (`C#`, `TSX`, `C++`).
fn family(language: &str) -> &'static str {
    match vibe_common::files::languages::resolve(language).map(|l| l.id) {
        Some("java" | "kotlin" | "scala") => "jvm",
        Some("javascript" | "typescript" | "tsx" | "arkts") => "js",
        Some("c" | "cpp") => "c",
        Some(id) => id,
        None => "other",
    }
}

/// One type found: where it is, what it is, and how it was reached.
struct Found {
    depth: u32,
    family: &'static str,
    file: FileResult<NoMore>,
    entry: TypeLink,
    supertypes: Vec<String>,
}

/// The hierarchy of `name` (`owner` narrows the type whose supertypes are
/// followed) in `index`, as a page of files with their `types`.
pub async fn find(
    gw: &Gateway,
    index: &str,
    way: Way,
    (owner, name): (Option<&str>, &str),
    args: &Args,
) -> Result<ReferencesAnswer, ToolError> {
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH).clamp(1, MAX_DEPTH);
    let mut found: Vec<Found> = Vec::new();
    let queried = Sought { name: name.to_string(), family: None };
    let mut seen: HashSet<Sought> = HashSet::from([queried.clone()]);
    let mut names = vec![queried];
    let mut not_indexed: Vec<String> = Vec::new();
    let mut deeper = 0;
    let mut cut_at: Option<u32> = None;
    if way == Way::Supertypes {
        // Level 0: the type itself, whose supertypes start the chain.
        let own = level(gw, index, way, &names, 0).await?;
        let own: Vec<Found> = own.found.into_iter().filter(|f| owner_matches(&f.entry, owner)).collect();
        names = next_names(way, &own, &mut seen);
        if own.is_empty() {
            return Ok(answer(way, name, Vec::new(), args, format!("no indexed type is named {name}")));
        }
    }
    for d in 1..=depth + 1 {
        if names.is_empty() || found.len() >= MAX_TYPES {
            break;
        }
        let Level { found: mut this, cut } = level(gw, index, way, &names, d).await?;
        if d > depth {
            deeper = this.len();
            break;
        }
        if cut {
            cut_at.get_or_insert(d);
        }
        if way == Way::Supertypes {
            let defined: HashSet<&str> = this.iter().map(|f| f.entry.head.name.as_str()).collect();
            not_indexed.extend(names.iter().filter(|n| !defined.contains(n.name.as_str())).map(|n| n.name.clone()));
        }
        names = next_names(way, &this, &mut seen);
        found.append(&mut this);
    }
    found.truncate(MAX_TYPES);
    let mut note = summary(way, name, found.len(), depth, deeper);
    if let Some(d) = cut_at {
        let cut = format!("at depth {d} the first {FILES_PER_LEVEL} files by path only: pass target to narrow");
        note = if note.is_empty() { cut } else { format!("{note}; {cut}") };
    }
    let mut out = answer(way, name, found, args, note);
    out.more.not_indexed = not_indexed;
    Ok(out)
}

/// The params of one level's search (the `hierarchy` section of the stored
/// template `find_references`).
#[derive(Serialize)]
struct LevelParams<'a> {
    hierarchy: HierarchyStep<'a>,
    limit: u32,
    inner_limit: u32,
}

#[derive(Serialize)]
struct HierarchyStep<'a> {
    /// Types that extend `names` (else: types named so).
    subtypes: bool,
    names: Vec<&'a str>,
}

impl TemplateParams for LevelParams<'_> {}

/// The types of one level: those extending `sought` (subtypes) or named so
/// (supertypes) in the family each name was reached in, each entry saying
/// what it extends when that is not the queried type.
async fn level(gw: &Gateway, index: &str, way: Way, sought: &[Sought], depth: u32) -> Result<Level, ToolError> {
    let mut names: Vec<&str> = sought.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let params = LevelParams {
        hierarchy: HierarchyStep { subtypes: way == Way::Subtypes, names },
        limit: FILES_PER_LEVEL,
        inner_limit: TYPES_PER_FILE,
    };
    let response = gw.backend().run(CALLERS_TEMPLATE, index, params).await?;
    let files = response.total().unwrap_or(0);
    let mut out = Vec::new();
    for hit in response.hits() {
        let file = super::stale_marks::file_result(&super::answer::indexed_file(hit), NoMore {});
        let family = family(file.language.as_deref().unwrap_or_default());
        for inner in hit.inner("symbols") {
            let Some(mut entry) = super::answer::shown(inner).as_ref().map(TypeLink::from) else {
                continue;
            };
            let supertypes: Vec<String> =
                inner.values("symbols.supertypes").iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
            let reached: Vec<String> =
                supertypes.iter().filter(|s| sought.iter().any(|q| q.reaches(s, family))).cloned().collect();
            let wanted = match way {
                Way::Subtypes => !reached.is_empty(),
                Way::Supertypes => sought.iter().any(|q| q.reaches(&entry.head.name, family)),
            };
            if !wanted {
                continue;
            }
            if depth > 1 || way == Way::Supertypes {
                entry.depth = Some(depth as u64);
            }
            if depth > 1 && way == Way::Subtypes {
                entry.extends = reached;
            }
            out.push(Found { depth, family, file: file.clone(), entry, supertypes });
        }
    }
    Ok(Level { found: out, cut: files > FILES_PER_LEVEL as u64 })
}

/// The types of one level, and whether more files hold some than were read.
struct Level {
    found: Vec<Found>,
    cut: bool,
}

/// Whether an entry is the `owner`'s type (`Outer.Inner`: owner `Outer`).
fn owner_matches(entry: &TypeLink, owner: Option<&str>) -> bool {
    owner.is_none_or(|o| entry.head.owner.as_deref().is_some_and(|e| e == o || e.ends_with(&format!(".{o}"))))
}

/// The names the next level looks for: the names of the types found
/// (subtypes) or their supertypes (supertypes), each once in the whole
/// walk, in the family of the type they were reached from.
fn next_names(way: Way, found: &[Found], seen: &mut HashSet<Sought>) -> Vec<Sought> {
    let mut names = Vec::new();
    for f in found {
        let candidates: Vec<&str> = match way {
            Way::Subtypes => vec![f.entry.head.name.as_str()],
            Way::Supertypes => f.supertypes.iter().map(String::as_str).collect(),
        };
        for c in candidates {
            let next = Sought { name: c.to_string(), family: Some(f.family) };
            if seen.insert(next.clone()) {
                names.push(next);
            }
        }
    }
    names
}

/// What the answer's note says: how many types, how deep, and whether a
/// deeper level holds more.
fn summary(way: Way, name: &str, count: usize, depth: u32, deeper: usize) -> String {
    let mut note = match (way, count) {
        (Way::Subtypes, 0) => format!("no indexed type extends or implements {name}"),
        (Way::Supertypes, 0) => format!("{name} extends no indexed type"),
        _ => String::new(),
    };
    if count >= MAX_TYPES {
        note = format!("the first {MAX_TYPES} types only: pass a smaller depth");
    } else if deeper > 0 {
        note = format!("{deeper}+ more types at depth {}: pass depth={} for them", depth + 1, depth + 1);
    }
    note
}

/// The page: files in the order of their first type's depth, then path,
/// each with its `types`.
fn answer(way: Way, name: &str, found: Vec<Found>, args: &Args, note: String) -> ReferencesAnswer {
    let mut files: BTreeMap<(u32, String, String), FileResult<Uses>> = BTreeMap::new();
    let mut first_depth: BTreeMap<(String, String), u32> = BTreeMap::new();
    for f in found {
        let key = (f.file.project.clone(), f.file.path.clone());
        let depth = *first_depth.entry(key.clone()).or_insert(f.depth);
        let file = files.entry((depth, key.0, key.1)).or_insert_with(|| f.file.with(Uses::default()));
        file.found.types.get_or_insert_with(Vec::new).push(f.entry);
    }
    let total = files.len();
    let start = (args.offset as usize).min(total);
    let results: Vec<FileResult<Uses>> = files.into_values().skip(start).take(args.limit as usize).collect();
    let end = start + results.len();
    ReferencesAnswer {
        query: name.to_string(),
        total: total as u64,
        truncated: end < total,
        next_offset: (end < total).then_some(end as u64),
        note: (!note.is_empty()).then_some(note),
        results,
        more: ReferencesPage { direction: Some(way.direction()), not_indexed: Vec::new() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template_params::tests::unread_params;

    #[test]
    fn every_param_of_a_level_is_read_by_its_template() {
        let params = LevelParams {
            hierarchy: HierarchyStep { subtypes: true, names: vec!["Base"] },
            limit: FILES_PER_LEVEL,
            inner_limit: TYPES_PER_FILE,
        };
        assert_eq!(unread_params(CALLERS_TEMPLATE, &params), Vec::<String>::new());
    }

    /// Families by the language names the index stores.
    #[test]
    fn families_by_stored_language_names() {
        assert_eq!(family("Kotlin"), family("Java"));
        assert_eq!(family("Scala"), family("Java"));
        assert_eq!(family("TSX"), family("JavaScript"));
        assert_eq!(family("C++"), family("C"));
        assert_eq!(family("C#"), "csharp");
        assert_ne!(family("C#"), family("C++"));
        assert_ne!(family("Python"), family("Rust"));
        assert_eq!(family(""), "other");
    }
}
