//! Parents and siblings of the nodes the doc-comment and header walks visit,
//! read in one pass over their ancestors. tree-sitter's own `parent()` and
//! `prev_sibling()` rescan from the root and the parent's first child on
//! every call, which is quadratic on files with thousands of declarations
//! or hundreds of header lines.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use tree_sitter::Node;

/// A hasher for node ids (addresses, so their low bits are zero): one
/// multiplication instead of SipHash, whose cost showed in profiles.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        // The high bits of the product depend on every bit of the id.
        self.0 ^ (self.0 >> 29)
    }
}

/// A map keyed by node id.
pub(crate) type IdMap<V> = HashMap<usize, V, BuildHasherDefault<IdHasher>>;
/// A set of node ids.
pub(crate) type IdSet = HashSet<usize, BuildHasherDefault<IdHasher>>;

pub(crate) struct Family<'t> {
    /// Node id -> its parent and its index in the parent's children.
    parent: IdMap<(Node<'t>, usize)>,
    /// Parent id -> its children (named and anonymous, in order), a range of
    /// `kids`.
    children: IdMap<(usize, usize)>,
    kids: Vec<Node<'t>>,
}

impl<'t> Family<'t> {
    /// The family of every ancestor of `targets`: their parents and
    /// siblings (not their children, which no one asks for).
    pub(crate) fn new(root: Node<'t>, targets: &[Node<'t>]) -> Self {
        let mut starts: Vec<(usize, usize)> = targets.iter().map(|n| (n.start_byte(), n.id())).collect();
        starts.sort_unstable();
        starts.dedup();
        // Whether a target other than `n` itself starts within `n`.
        let holds_target = |n: Node| {
            let (start, end) = (n.start_byte(), n.end_byte());
            let i = starts.partition_point(|(s, _)| *s < start);
            starts[i..]
                .iter()
                .take_while(|(s, _)| *s < end || (*s == start && start == end))
                .any(|(_, id)| *id != n.id())
        };
        let mut family = Family { parent: IdMap::default(), children: IdMap::default(), kids: Vec::new() };
        let mut work = vec![root];
        let mut cursor = root.walk();
        while let Some(node) = work.pop() {
            let start = family.kids.len();
            family.kids.extend(node.children(&mut cursor));
            family.children.insert(node.id(), (start, family.kids.len()));
            for (i, &kid) in family.kids[start..].iter().enumerate() {
                family.parent.insert(kid.id(), (node, i));
                if kid.child_count() > 0 && holds_target(kid) {
                    work.push(kid);
                }
            }
        }
        family
    }

    /// All the children of `parent`, in order.
    fn children_of(&self, parent: Node<'t>) -> &[Node<'t>] {
        self.children.get(&parent.id()).map_or(&[], |&(start, end)| &self.kids[start..end])
    }

    pub(crate) fn parent(&self, node: Node<'t>) -> Option<Node<'t>> {
        self.parent.get(&node.id()).map(|(p, _)| *p)
    }

    /// The sibling just before `node`, named or not.
    pub(crate) fn prev_sibling(&self, node: Node<'t>) -> Option<Node<'t>> {
        let (parent, i) = *self.parent.get(&node.id())?;
        i.checked_sub(1).and_then(|j| self.children_of(parent).get(j).copied())
    }

    pub(crate) fn prev_named_sibling(&self, node: Node<'t>) -> Option<Node<'t>> {
        let (parent, i) = *self.parent.get(&node.id())?;
        self.children_of(parent)[..i].iter().rev().find(|n| n.is_named()).copied()
    }

    /// The named children of `node` before it, nearest first.
    pub(crate) fn named_before(&self, node: Node<'t>) -> impl Iterator<Item = Node<'t>> + '_ {
        let before = match self.parent.get(&node.id()) {
            Some(&(p, i)) => &self.children_of(p)[..i],
            None => &[][..],
        };
        before.iter().rev().filter(|n| n.is_named()).copied()
    }
}
