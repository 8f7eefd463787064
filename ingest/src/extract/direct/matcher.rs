//! The direct matcher: the query patterns simple enough to be matched by
//! looking at a node's children, compiled into a matcher with tree-sitter's
//! semantics for that subset (the subset and the fallbacks: `README.md`).

use rustc_hash::FxHashMap;
use std::num::NonZeroU16 as FieldId;

use tree_sitter::{Language as Grammar, Node, Query, TreeCursor};

use super::pattern::{Alt, Child, Pattern, PatternParser, Predicate, Test};

/// The direct patterns of a query, by the node kinds they start at.
#[derive(Debug)]
pub(crate) struct DirectPatterns {
    patterns: Vec<Pattern>,
    /// Indexed by kind id: the patterns that can start at that kind.
    by_kind: Vec<Vec<usize>>,
    /// Indexed by kind id: whether a pattern that starts there tests its
    /// children's fields (`name: (x)`, `!body`).
    fields_at: Vec<bool>,
}

/// The captures of one match: (capture index, node).
pub(crate) type Captures<'t> = [(u32, Node<'t>)];

/// Reusable buffers of one file's run.
pub(crate) struct Scratch<'t> {
    cursor: TreeCursor<'t>,
    captures: Vec<(u32, Node<'t>)>,
    found: Vec<(usize, Kid<'t>)>,
    /// The children of the nodes looked at from the current start node...
    kids: Vec<Kid<'t>>,
    /// ... by node id: (start, end) in `kids` (a map: a start node with
    /// 100,000 children looks each one up).
    scanned: FxHashMap<usize, (usize, usize)>,
    /// The matches at the current start node: (pattern, start, end) in `matched`.
    matches: Vec<(usize, usize, usize)>,
    matched: Vec<(u32, Node<'t>)>,
    /// A step met candidates tree-sitter may not all take (see `run`).
    ambiguous: bool,
}

/// Capacity of the scanned-children map kept from one start node to the next.
const SCANNED_KEPT: usize = 1024;

/// A child of a node, with its field and kind. The kind is read once, when
/// the child is listed: a step's test reads it here instead of from the
/// tree, which on a file of 200,000 statements is far out of the cache.
#[derive(Clone, Copy)]
pub(crate) struct Kid<'t> {
    pub(crate) node: Node<'t>,
    pub(crate) field: Option<FieldId>,
    pub(crate) kind: u16,
}

impl<'t> Kid<'t> {
    pub(crate) fn of(node: Node<'t>, field: Option<FieldId>) -> Self {
        Kid { node, field, kind: node.kind_id() }
    }
}

impl<'t> Scratch<'t> {
    pub(crate) fn new(root: Node<'t>) -> Self {
        Scratch {
            cursor: root.walk(),
            captures: Vec::new(),
            found: Vec::new(),
            kids: Vec::new(),
            scanned: FxHashMap::default(),
            matches: Vec::new(),
            matched: Vec::new(),
            ambiguous: false,
        }
    }
}

impl DirectPatterns {
    /// Compile the patterns of `query` that are direct. Returns them and, per
    /// pattern index, whether it is one.
    pub(crate) fn compile(query: &Query, source: &str, grammar: &Grammar) -> (DirectPatterns, Vec<bool>) {
        let mut patterns = Vec::new();
        let mut by_kind = vec![Vec::new(); grammar.node_kind_count()];
        let mut fields_at = vec![false; grammar.node_kind_count()];
        let mut direct = vec![false; query.pattern_count()];
        for (index, is_direct) in direct.iter_mut().enumerate() {
            let Some(text) = source.get(query.start_byte_for_pattern(index)..query.end_byte_for_pattern(index)) else {
                continue;
            };
            let mut parser = PatternParser::new(text, query, grammar);
            let Ok(alts) = parser.pattern() else { continue };
            // Every alternative of the root must name its kinds.
            let roots: Option<Vec<&[u16]>> = alts
                .iter()
                .map(|alt| match &alt.test {
                    Test::Kinds(ids) => Some(ids.as_slice()),
                    _ => None,
                })
                .collect();
            let Some(roots) = roots else { continue };
            let reads_fields =
                alts.iter().any(|alt| !alt.absent.is_empty() || alt.children.iter().any(|c| c.field.is_some()));
            for &id in roots.concat().iter() {
                by_kind[id as usize].push(patterns.len());
                fields_at[id as usize] |= reads_fields;
            }
            patterns.push(Pattern { index, alts, predicates: parser.predicates });
            *is_direct = true;
        }
        (DirectPatterns { patterns, by_kind, fields_at }, direct)
    }

    /// Whether a pattern that starts at nodes of this kind tests the fields
    /// of their children. Reading a child's field costs a walk up through
    /// the hidden nodes above it, as many as the log of its siblings in a
    /// long list: a walk that lists children reads fields only where asked.
    pub(crate) fn reads_fields_at(&self, kind: u16) -> bool {
        self.fields_at.get(kind as usize).copied().unwrap_or(false)
    }

    /// Whether some direct pattern starts at nodes of this kind.
    pub(crate) fn starts_at(&self, kind: u16) -> bool {
        self.by_kind.get(kind as usize).is_some_and(|p| !p.is_empty())
    }

    /// Node kinds (by id) at which some direct pattern starts.
    pub(crate) fn root_kinds(&self) -> impl Iterator<Item = u16> + '_ {
        self.by_kind.iter().enumerate().filter(|(_, p)| !p.is_empty()).map(|(id, _)| id as u16)
    }

    /// Every match of a direct pattern that starts at `node`, as (pattern
    /// index, captures). Returns `false`, with no matches, where tree-sitter's
    /// choice among several candidates depends on what the tree does not
    /// show; the caller runs the cursor at that node instead:
    /// - a field step met two neighbouring children with its field:
    ///   tree-sitter looks past the first one only when the grammar's rule
    ///   repeats the field (`import a, b`), not when a hidden rule spreads one
    ///   field over several children (Dart's `_i5.Future`);
    /// - a step without field or anchor, followed by other steps, met several
    ///   candidates (`"," . name:` in `case a, b, c`).
    ///
    /// `kids`, when given, are the node's children (read on the walk that
    /// found the node).
    pub(crate) fn run<'t>(
        &self,
        node: Node<'t>,
        kids: Option<&[Kid<'t>]>,
        bytes: &[u8],
        st: &mut Scratch<'t>,
        sink: &mut dyn FnMut(usize, &Captures<'t>),
    ) -> bool {
        let Some(list) = self.by_kind.get(node.kind_id() as usize) else { return true };
        st.kids.clear();
        // Clearing a map costs its capacity: one that grew for a node with
        // many children is dropped, or every start node after it pays that.
        if st.scanned.capacity() > SCANNED_KEPT {
            st.scanned = FxHashMap::default();
        } else {
            st.scanned.clear();
        }
        if let Some(kids) = kids {
            st.kids.extend_from_slice(kids);
            st.scanned.insert(node.id(), (0, kids.len()));
        }
        st.matches.clear();
        st.matched.clear();
        st.ambiguous = false;
        for &p in list {
            let pattern = &self.patterns[p];
            st.captures.clear();
            alts(&pattern.alts, Kid::of(node, None), st, &mut |st| {
                if pattern.predicates.iter().all(|pred| pred.holds(&st.captures, bytes)) {
                    let start = st.matched.len();
                    st.matched.extend_from_slice(&st.captures);
                    st.matches.push((pattern.index, start, st.matched.len()));
                }
            });
            if st.ambiguous {
                return false;
            }
        }
        for &(pattern, start, end) in &st.matches {
            sink(pattern, &st.matched[start..end]);
        }
        true
    }
}

/// Match `node` against each alternative; `k` is called once per match.
fn alts<'t>(alts: &[Alt], kid: Kid<'t>, st: &mut Scratch<'t>, k: &mut dyn FnMut(&mut Scratch<'t>)) {
    let node = kid.node;
    for alt in alts {
        let fits = match &alt.test {
            Test::Kinds(ids) => ids.contains(&kid.kind),
            // Wildcards never match an `ERROR` node (as in tree-sitter).
            Test::Named => node.is_named() && !node.is_error(),
            Test::Any => !node.is_error(),
        };
        if !fits || !alt.absent.is_empty() && has_any_field(node, &alt.absent, st) {
            continue;
        }
        let mark = st.captures.len();
        st.captures.extend(alt.captures.iter().map(|&c| (c, node)));
        children(alt, 0, node, None, st, k);
        st.captures.truncate(mark);
    }
}

/// Match `alt`'s children from the `i`-th on, each after child number `after`.
fn children<'t>(
    alt: &Alt,
    i: usize,
    node: Node<'t>,
    after: Option<usize>,
    st: &mut Scratch<'t>,
    k: &mut dyn FnMut(&mut Scratch<'t>),
) {
    let Some(child) = alt.children.get(i) else { return k(st) };
    let start = st.found.len();
    candidates(node, child, after, i + 1 == alt.children.len(), st);
    let end = st.found.len();
    let mut matched = false;
    for j in start..end {
        let (position, candidate) = st.found[j];
        alts(&child.alts, candidate, st, &mut |st| {
            matched = true;
            children(alt, i + 1, node, Some(position), st, k);
        });
    }
    st.found.truncate(start);
    if child.optional && !matched {
        children(alt, i + 1, node, after, st, k);
    }
}

/// The children of `node` that `child` may match, as (position, node).
fn candidates<'t>(node: Node<'t>, child: &Child, after: Option<usize>, last: bool, st: &mut Scratch<'t>) {
    let fits = |position: usize, field: Option<FieldId>| {
        after.is_none_or(|a| position > a) && (child.field.is_none() || field == child.field)
    };
    if child.anchored && !st.scanned.contains_key(&node.id()) {
        // Up to the first named node after `after`: no need to look further
        // (a block's first statement, not all of them). Once the children
        // are listed, the list is cheaper (`(a) . (b)` asks once per `a`).
        st.cursor.reset(node);
        let mut more = st.cursor.goto_first_child();
        let mut position = 0;
        while more {
            if after.is_none_or(|a| position > a) {
                let n = st.cursor.node();
                if fits(position, st.cursor.field_id()) {
                    st.found.push((position, Kid::of(n, None)));
                }
                if n.is_named() {
                    return;
                }
            }
            position += 1;
            more = st.cursor.goto_next_sibling();
        }
        return;
    }
    let (start, end) = kids(node, st);
    let first = st.found.len();
    // From the child after `after` on: not a walk past the ones before it
    // (a node with 100,000 children is matched child after child).
    let from = after.map_or(0, |a| a + 1).min(end - start);
    for (i, kid) in st.kids[start + from..end].iter().enumerate() {
        let position = from + i;
        if fits(position, kid.field) {
            st.found.push((position, *kid));
        }
        if child.anchored && kid.node.is_named() {
            break;
        }
    }
    let found = &st.found[first..];
    st.ambiguous |= match child.field {
        // Two neighbours with the field: a hidden rule spreads it over several
        // children (a rule that repeats a field separates them: `a, b`).
        Some(_) => found.windows(2).any(|w| w[1].0 == w[0].0 + 1),
        // Several candidates for a child followed by others, where the step
        // captures nothing (`"," . name:`): tree-sitter advances on the first
        // candidate only (it splits its state for the others only when the
        // step contains captures or has child steps that may fail).
        None => !last && !child.anchored && !child.captures && found.len() > 1,
    };
}

/// Whether `node` has a child with one of `fields`.
fn has_any_field<'t>(node: Node<'t>, fields: &[FieldId], st: &mut Scratch<'t>) -> bool {
    let (start, end) = kids(node, st);
    st.kids[start..end].iter().any(|k| k.field.is_some_and(|f| fields.contains(&f)))
}

/// The children of `node`, as a range of `st.kids`: scanned once per node
/// while the engine looks at one start node.
fn kids<'t>(node: Node<'t>, st: &mut Scratch<'t>) -> (usize, usize) {
    if let Some(&(start, end)) = st.scanned.get(&node.id()) {
        return (start, end);
    }
    let start = st.kids.len();
    st.cursor.reset(node);
    let mut more = st.cursor.goto_first_child();
    while more {
        st.kids.push(Kid::of(st.cursor.node(), st.cursor.field_id()));
        more = st.cursor.goto_next_sibling();
    }
    st.scanned.insert(node.id(), (start, st.kids.len()));
    (start, st.kids.len())
}

impl Predicate {
    /// tree-sitter's rule: a predicate on a capture the match lacks holds.
    fn holds(&self, captures: &Captures, bytes: &[u8]) -> bool {
        let text = |c: u32| captures.iter().find(|(i, _)| *i == c).map(|(_, n)| &bytes[n.byte_range()]);
        match self {
            Predicate::Match { capture, regex, positive } => {
                text(*capture).is_none_or(|t| regex.is_match(t) == *positive)
            }
            Predicate::Eq { capture, text: s, positive } => {
                text(*capture).is_none_or(|t| (t == s.as_bytes()) == *positive)
            }
            Predicate::EqCapture { a, b, positive } => match (text(*a), text(*b)) {
                (Some(x), Some(y)) => (x == y) == *positive,
                (None, None) => true,
                _ => false,
            },
            Predicate::AnyOf { capture, texts, positive } => {
                text(*capture).is_none_or(|t| texts.iter().any(|s| s.as_bytes() == t) == *positive)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::grammars::by_id;

    fn direct(lang: &str, query: &str) -> Vec<bool> {
        let grammar = (by_id(lang).unwrap().grammar)();
        let q = Query::new(&grammar, query).unwrap();
        DirectPatterns::compile(&q, query, &grammar).1
    }

    #[test]
    fn simple_patterns_are_direct_and_the_rest_are_not() {
        let q = r#"
(call function: [(identifier) @name (attribute attribute: (identifier) @name)]) @reference.call
((call function: (attribute object: (identifier) @name)) @reference.type (#match? @name "^[A-Z]"))
(function_definition name: (identifier) @name body: (block . (expression_statement (string) @doc)?) @body) @definition.function
(assignment left: (identifier) @name right: (_)? @body) @definition.variable
(type [(identifier) @name ((string (string_content) @name) (#match? @name "^[a-z]+$"))]) @reference.type
((comment)* @doc . (function_definition) @definition.function)
(call (identifier) @a . (argument_list) @b)
(argument_list "(" @x)
(assignment !type) @definition.variable
(expression_statement (_)* @x)
(decorator (identifier)? @name)
(call function: (identifier) @a (argument_list) .)
(call function: (identifier) @a . (argument_list) @b)
"#;
        let expected = [true, true, true, true, true, false, true, true, true, false, true, false, true];
        assert_eq!(direct("python", q), expected);
    }

    /// The share of each language's patterns matched directly (printed); the
    /// languages whose queries use only the direct subset must stay so.
    #[test]
    fn most_patterns_of_the_big_languages_are_direct() {
        use crate::extract::grammars::{query_source, Extractor, LANGUAGES};
        for lang in LANGUAGES.iter().filter(|l| l.extractor == Extractor::Queries) {
            let grammar = (lang.grammar)();
            let source = query_source(lang).unwrap();
            let query = Query::new(&grammar, &source).unwrap();
            let direct = DirectPatterns::compile(&query, &source, &grammar).1;
            let share = direct.iter().filter(|d| **d).count() as f64 / direct.len() as f64;
            eprintln!("{}: {} of {} patterns direct", lang.id, direct.iter().filter(|d| **d).count(), direct.len());
            if ["python", "go", "rust", "javascript", "typescript", "tsx"].contains(&lang.id) {
                assert!(share >= 0.9, "{}: {share}", lang.id);
            }
        }
    }
}
