//! Running a query without walking the whole tree with tree-sitter's query
//! cursor: the query's matches, found only at the node kinds where a pattern
//! can start (`narrowing.rs`), the simple patterns there by a matcher over
//! the node's children (`matcher.rs`, patterns parsed by `pattern.rs`), the
//! rest by the cursor started at that node. The result is the cursor's over
//! the whole tree: `equivalence.rs` checks it on inputs generated from every
//! language's fixtures, and on real code. Why it exists, the subset it
//! matches and when it hands a node back to the cursor: `README.md`.
//!
//! The engine sees one function, [`for_each_match`]: with no [`Plan`] it is
//! the plain cursor, the reference.

mod matcher;
mod narrowing;
mod pattern;

#[cfg(test)]
mod equivalence;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Language as Grammar, Node, Query, QueryCursor};

pub(crate) use matcher::Captures;
use matcher::{DirectPatterns, Scratch};
use narrowing::Starts;

/// How a query runs without the cursor over the whole tree: compiled once
/// per query.
pub(crate) struct Plan {
    /// Node kinds (by id) at which some pattern left to the cursor can start.
    roots: Vec<bool>,
    /// The patterns matched without the cursor.
    direct: DirectPatterns,
    /// Per pattern, whether it is one of `direct`'s: the cursor's matches
    /// of those count only where direct matching gave up.
    is_direct: Vec<bool>,
    /// Node kinds (by id) at which the engine looks: `roots` and the roots
    /// of the direct patterns.
    visit: Vec<bool>,
}

impl Plan {
    /// The plan of a query (`source` is its text), or `None` when some
    /// pattern left to the cursor can start anywhere (a wildcard root): then
    /// the cursor runs over the whole tree.
    pub(crate) fn compile(query: &Query, source: &str, grammar: &Grammar) -> Option<Plan> {
        let (direct, is_direct) = DirectPatterns::compile(query, source, grammar);
        let roots = narrowing::pattern_roots(query, source, grammar, &is_direct)?;
        let mut visit = roots.clone();
        for id in direct.root_kinds() {
            visit[id as usize] = true;
        }
        Some(Plan { roots, direct, is_direct, visit })
    }

    /// How many of the query's patterns are matched directly.
    #[cfg(test)]
    pub(crate) fn direct_patterns(&self) -> usize {
        self.is_direct.iter().filter(|d| **d).count()
    }
}

/// Every match of `query` in the tree under `root`, as (pattern index,
/// captures), in no particular order: by `plan` when there is one, else by
/// the cursor over the whole tree.
pub(crate) fn for_each_match<'t>(
    query: &Query,
    plan: Option<&Plan>,
    root: Node<'t>,
    bytes: &[u8],
    sink: &mut dyn FnMut(usize, &Captures<'t>),
) {
    let mut cursor = Cursor { cursor: QueryCursor::new(), query, bytes, captures: Vec::new() };
    let Some(plan) = plan else {
        return cursor.run(root, None, sink);
    };
    // Look only where a pattern can start, one node at a time: the direct
    // patterns there, then the cursor, which skips the subtrees no pattern needs.
    cursor.cursor.set_max_start_depth(Some(0));
    let starts = Starts::walk(root, &plan.visit, &plan.direct);
    let mut scratch = Scratch::new(root);
    for (start, kids) in starts.iter() {
        let direct_ran = plan.direct.run(start, kids, bytes, &mut scratch, sink);
        if direct_ran && !plan.roots[start.kind_id() as usize] {
            continue;
        }
        // The cursor's matches of direct patterns count only where direct
        // matching gave up (beyond its subset at this node).
        cursor.run(start, direct_ran.then_some(plan.is_direct.as_slice()), sink);
    }
}

/// tree-sitter's query cursor, with a buffer for one match's captures.
struct Cursor<'q, 't> {
    cursor: QueryCursor,
    query: &'q Query,
    bytes: &'q [u8],
    captures: Vec<(u32, Node<'t>)>,
}

impl<'t> Cursor<'_, 't> {
    /// The matches from `node` (and, without a start depth, below it),
    /// but not those of the patterns marked in `skip`.
    fn run(&mut self, node: Node<'t>, skip: Option<&[bool]>, sink: &mut dyn FnMut(usize, &Captures<'t>)) {
        let mut matches = self.cursor.matches(self.query, node, self.bytes);
        while let Some(m) = matches.next() {
            if skip.is_some_and(|s| s[m.pattern_index]) {
                continue;
            }
            self.captures.clear();
            self.captures.extend(m.captures.iter().map(|c| (c.index, c.node)));
            sink(m.pattern_index, &self.captures);
        }
    }
}
