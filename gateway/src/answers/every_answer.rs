//! Every tool's answer as one type, [`Answer`], and what the call does to
//! any of them on its way out ([`crate::dispatch`]): files with identical
//! content merged, each file compared with the disk, a note added, the
//! budget guard; then the text ([`crate::render`]) and the structured
//! answer (its JSON).

use serde::Serialize;

use super::*;
use crate::budget::{json_len, RESERVE};

/// The answer of one call, as the [`crate::registry::Run`] that shaped it
/// typed it. Serializes as the inner answer.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Sync(SyncAnswer),
    Content(FileAnswer<Content>),
    Outline(FileAnswer<Outline>),
    Projects(ProjectsAnswer),
    Stats(StatsAnswer),
    Tree(TreeAnswer),
    Imports(ImportsAnswer),
    Symbols(SymbolsAnswer),
    Documentation(DocumentationAnswer),
    Text(TextAnswer),
    References(ReferencesAnswer),
    /// An answer over the budget that could not be cut: a note saying so.
    OverBudget(OverBudget),
}

/// The structured answer of a failed call (sent with `isError`): the
/// message, and for a tool name that names no tool the valid ones.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize)]
pub struct ErrorAnswer {
    pub error: String,
    /// The two tools a name fits equally well.
    pub candidates: Option<[String; 2]>,
    pub valid_tools: Option<&'static [&'static str]>,
    /// The nearest tool name to one that names none (`null`: none is near).
    pub closest_match: Option<Option<&'static str>>,
}

impl ErrorAnswer {
    pub fn of(message: String) -> Self {
        ErrorAnswer { error: message, candidates: None, valid_tools: None, closest_match: None }
    }
}

/// What is left of an answer the budget guard could not cut.
#[derive(Debug, Clone, Serialize)]
pub struct OverBudget {
    pub truncated: bool,
    pub note: String,
}

/// A file listed in a page of results: where it is, and how fresh.
pub trait Listed {
    fn project(&self) -> &str;
    fn path(&self) -> &str;
    fn freshness(&self) -> &Freshness;
    fn freshness_mut(&mut self) -> &mut Freshness;
}

/// [`Listed`] of a type with `project`, `path` and `freshness` fields.
macro_rules! listed {
    ($type:ty $(, $generic:ident)?) => {
        impl$(<$generic>)? Listed for $type {
            fn project(&self) -> &str {
                &self.project
            }
            fn path(&self) -> &str {
                &self.path
            }
            fn freshness(&self) -> &Freshness {
                &self.freshness
            }
            fn freshness_mut(&mut self) -> &mut Freshness {
                &mut self.freshness
            }
        }
    };
}

listed!(FileResult<M>, M);
listed!(DocResult);

/// Appends a sentence to a note.
pub fn join_note(slot: &mut Option<String>, note: &str) {
    *slot = Some(match slot.take().filter(|n| !n.is_empty()) {
        Some(old) => format!("{old}; {note}"),
        None => note.to_string(),
    });
}

impl Answer {
    /// The freshness of every file the answer names: the file of a file
    /// answer, each result of a page.
    pub fn files_mut(&mut self) -> Vec<&mut Freshness> {
        fn of<R: Listed>(results: &mut [R]) -> Vec<&mut Freshness> {
            results.iter_mut().map(Listed::freshness_mut).collect()
        }
        match self {
            Answer::Content(f) => vec![&mut f.freshness],
            Answer::Outline(f) => vec![&mut f.freshness],
            Answer::Tree(t) => t.results.as_deref_mut().map(of).unwrap_or_default(),
            Answer::Imports(p) => of(&mut p.results),
            Answer::Symbols(p) => of(&mut p.results),
            Answer::Documentation(p) => of(&mut p.results),
            Answer::Text(p) => of(&mut p.results),
            Answer::References(p) => of(&mut p.results),
            Answer::Sync(_) | Answer::Projects(_) | Answer::Stats(_) | Answer::OverBudget(_) => Vec::new(),
        }
    }

    /// Files with identical content (the same hash) become one result, the
    /// first, which names the others' paths in `same_content`: a package's
    /// commonjs, esm and browser builds are one answer, not three. Says how
    /// many results were merged.
    pub fn merge_identical(&mut self) -> usize {
        match self {
            Answer::Tree(t) => t.results.as_mut().map_or(0, merge_identical),
            Answer::Imports(p) => merge_identical(&mut p.results),
            Answer::Symbols(p) => merge_identical(&mut p.results),
            Answer::Documentation(p) => merge_identical(&mut p.results),
            Answer::Text(p) => merge_identical(&mut p.results),
            Answer::References(p) => merge_identical(&mut p.results),
            _ => 0,
        }
    }

    /// Where the answer's note goes; `None` for `admin_sync`, which no
    /// endpoint or merge adds to.
    fn note_mut(&mut self) -> Option<&mut Option<String>> {
        match self {
            Answer::Sync(_) => None,
            Answer::Content(f) => Some(&mut f.body.note),
            Answer::Outline(f) => Some(&mut f.body.note),
            Answer::Projects(a) => Some(&mut a.note),
            Answer::Stats(a) => Some(&mut a.note),
            Answer::Tree(a) => Some(&mut a.note),
            Answer::Imports(p) => Some(&mut p.note),
            Answer::Symbols(p) => Some(&mut p.note),
            Answer::Documentation(p) => Some(&mut p.note),
            Answer::Text(p) => Some(&mut p.note),
            Answer::References(p) => Some(&mut p.note),
            Answer::OverBudget(_) => None,
        }
    }

    /// Appends a sentence to the answer's note.
    pub fn add_note(&mut self, note: &str) {
        if let Some(slot) = self.note_mut() {
            join_note(slot, note);
        }
    }

    /// How many results a page holds (for the call's log).
    pub fn results_len(&self) -> Option<usize> {
        match self {
            Answer::Tree(t) => t.results.as_ref().map(Vec::len),
            Answer::Imports(p) => Some(p.results.len()),
            Answer::Symbols(p) => Some(p.results.len()),
            Answer::Documentation(p) => Some(p.results.len()),
            Answer::Text(p) => Some(p.results.len()),
            Answer::References(p) => Some(p.results.len()),
            _ => None,
        }
    }

    /// The budget guard: an answer within `budget` bytes as it is; a page
    /// that counts its results from `offset` with whole results dropped
    /// from its end (`fit_results`); any other answer, or
    /// one still over, replaced by a note that says how large it was and
    /// how to narrow it.
    pub fn within(mut self, budget: usize, offset: u32) -> Answer {
        if json_len(&self) <= budget {
            return self;
        }
        let next = |kept: usize| offset as u64 + kept as u64;
        match &mut self {
            Answer::Imports(p) => fit_results(p, budget, next),
            Answer::Symbols(p) => fit_results(p, budget, next),
            Answer::Documentation(p) => fit_results(p, budget, next),
            Answer::References(p) => fit_results(p, budget, next),
            _ => false,
        };
        let size = json_len(&self);
        if size <= budget {
            return self;
        }
        tracing::warn!(size, budget, "an answer over the budget was replaced by a note");
        Answer::OverBudget(OverBudget {
            truncated: true,
            note: format!(
                "the answer ({size} bytes) is over the answer budget ({budget} bytes) and cannot be cut further; \
                 narrow the call: a smaller limit, a target project, a path"
            ),
        })
    }
}

/// A result whose lists the budget guard may cut from their end
/// ([`fit_results`]), counting what it leaves out in `more_<list>`.
trait Trim {
    /// Drops the last item of the first list that has one (matches,
    /// references, calls, imports, sections); false when none is left.
    fn pop_last(&mut self) -> bool;
}

/// Keeps the first results of a page that fit `budget`, dropping whole
/// results from the end. `next_offset(kept)` is the offset of the first
/// dropped result. A first result that alone is over the budget keeps the
/// first elements of its lists (counted in `more_<list>`). Says whether
/// anything was left out.
fn fit_results<R, X>(page: &mut Page<R, X>, budget: usize, next_offset: impl Fn(usize) -> u64) -> bool
where
    R: Serialize + Trim,
    X: Serialize,
{
    if json_len(page) <= budget {
        return false;
    }
    let results = std::mem::take(&mut page.results);
    let total = results.len();
    let base = json_len(page) + RESERVE;
    let mut used = base;
    let mut kept = Vec::with_capacity(total);
    let mut trimmed = false;
    for mut r in results {
        let size = json_len(&r) + 1;
        if used + size > budget {
            if kept.is_empty() {
                // One result over the budget: its first elements.
                let room = budget.saturating_sub(base);
                while json_len(&r) > room && r.pop_last() {}
                kept.push(r);
                trimmed = true;
            }
            break;
        }
        used += size;
        kept.push(r);
    }
    let n = kept.len();
    page.results = kept;
    if n < total {
        page.truncated = true;
        let next = next_offset(n);
        page.next_offset = Some(next);
        page.add_note(&format!(
            "{} more results on this page left out to keep within the answer budget ({budget} bytes): offset {next} goes on",
            total - n
        ));
    }
    if trimmed {
        page.truncated = true;
        page.add_note("the first result's lists are cut to the answer budget (their more_* fields count the rest)");
    }
    true
}

/// [`Answer::merge_identical`] of one page's results.
fn merge_identical<R: Listed>(results: &mut Vec<R>) -> usize {
    let mut kept: Vec<R> = Vec::with_capacity(results.len());
    let mut merged = 0;
    for r in results.drain(..) {
        let same =
            r.freshness().hash.as_deref().filter(|h| !h.is_empty()).and_then(|h| {
                kept.iter_mut().find(|k| k.freshness().hash.as_deref() == Some(h) && k.path() != r.path())
            });
        match same {
            Some(first) => {
                let mut path = r.path().to_string();
                if first.project() != r.project() {
                    path = format!("{path} ({})", r.project());
                }
                first.freshness_mut().same_content.push(path);
                merged += 1;
            }
            None => kept.push(r),
        }
    }
    *results = kept;
    merged
}

/// Each list the budget guard may cut, in the order it cuts them, and the
/// count of what it left out (`more_<list>`).
impl Trim for SymbolsFound {
    fn pop_last(&mut self) -> bool {
        pop_counted(&mut self.matches, &mut self.more_matches)
    }
}

impl Trim for TextFound {
    fn pop_last(&mut self) -> bool {
        self.values.pop().is_some() || pop_counted(&mut self.matches, &mut self.more_matches)
    }
}

impl Trim for ImportsFound {
    fn pop_last(&mut self) -> bool {
        pop_counted(&mut self.imports, &mut self.more_imports)
    }
}

impl Trim for Uses {
    fn pop_last(&mut self) -> bool {
        let references = self.references.as_mut().is_some_and(|r| pop_counted(r, &mut self.more_references));
        references || self.calls.as_mut().is_some_and(|c| pop_counted(c, &mut self.more_calls))
    }
}

impl Trim for DocResult {
    fn pop_last(&mut self) -> bool {
        pop_counted(&mut self.sections, &mut self.more_sections)
    }
}

impl<M: Trim> Trim for FileResult<M> {
    fn pop_last(&mut self) -> bool {
        self.found.pop_last()
    }
}

/// Drops the last item of `list`, counted in `more`.
fn pop_counted<T>(list: &mut Vec<T>, more: &mut Option<u64>) -> bool {
    if list.pop().is_none() {
        return false;
    }
    *more = Some(more.unwrap_or(0) + 1);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, hash: &str, project: &str) -> FileResult<ImportsFound> {
        let freshness = Freshness { hash: Some(hash.into()), ..Freshness::default() };
        let found = ImportsFound { imports: vec!["os".into()], more_imports: None };
        FileResult { project: project.into(), path: path.into(), language: None, freshness, found }
    }

    #[test]
    fn identical_files_are_one_result() {
        let results = vec![
            file("cjs/a.js", "h1", "/p"),
            file("b.js", "h2", "/p"),
            file("esm/a.js", "h1", "/p"),
            file("a.js", "h1", "/q"),
        ];
        let mut answer = Answer::Imports(Page {
            query: "os".into(),
            total: 4,
            truncated: false,
            next_offset: None,
            note: None,
            results,
            more: NoMore {},
        });
        assert_eq!(answer.merge_identical(), 2);
        let Answer::Imports(page) = answer else { unreachable!() };
        assert_eq!(page.results.len(), 2);
        assert_eq!(page.results[0].freshness.same_content, ["esm/a.js", "a.js (/q)"]);
        assert!(page.results[1].freshness.same_content.is_empty());
    }

    #[test]
    fn a_page_over_the_budget_loses_whole_results_then_lists() {
        let many = |n: usize| (0..n).map(|i| file(&format!("f{i}.py"), &format!("h{i}"), "/p")).collect::<Vec<_>>();
        let page = |results| Page {
            query: "os".into(),
            total: 100,
            truncated: false,
            next_offset: None,
            note: None,
            results,
            more: NoMore {},
        };
        let Answer::Imports(cut) = Answer::Imports(page(many(100))).within(2_000, 10) else { panic!("still a page") };
        assert!(json_len(&cut) <= 2_000 && cut.truncated);
        assert_eq!(cut.next_offset, Some(10 + cut.results.len() as u64));
        assert!(cut.note.unwrap().contains("more results on this page left out"));
        // One result over the budget keeps the first items of its list.
        let mut big = file("big.py", "h", "/p");
        big.found.imports = (0..500).map(|i| format!("module_{i}")).collect();
        let Answer::Imports(cut) = Answer::Imports(page(vec![big])).within(2_000, 0) else { panic!("still a page") };
        let kept = cut.results[0].found.imports.len() as u64;
        assert!(kept > 0 && kept < 500);
        assert_eq!(cut.results[0].found.more_imports, Some(500 - kept));
        // Any other answer over the budget is a note.
        let tree = TreeAnswer { tree: Some("x".repeat(5_000)), ..TreeAnswer::default() };
        assert!(matches!(Answer::Tree(tree).within(2_000, 0), Answer::OverBudget(OverBudget { truncated: true, .. })));
    }
}
