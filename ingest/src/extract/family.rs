//! Parents and siblings of the nodes the doc-comment and header walks visit,
//! read in one pass over their ancestors. tree-sitter's own `parent()` and
//! `prev_sibling()` rescan from the root and the parent's first child on
//! every call, which is quadratic on files with thousands of declarations
//! or hundreds of header lines.

use std::collections::HashMap;

use tree_sitter::Node;

pub(crate) struct Family<'t> {
    parent: HashMap<usize, Node<'t>>,
    /// Parent id -> all its children (named and anonymous), in order.
    children: HashMap<usize, Vec<Node<'t>>>,
    /// Node id -> its index in its parent's children.
    index: HashMap<usize, usize>,
}

impl<'t> Family<'t> {
    /// The family of every ancestor of `targets` (and of the targets).
    pub(crate) fn new(root: Node<'t>, targets: &[Node<'t>]) -> Self {
        let mut starts: Vec<usize> = targets.iter().map(|n| n.start_byte()).collect();
        starts.sort_unstable();
        starts.dedup();
        let holds_target = |n: Node| {
            let i = starts.partition_point(|s| *s < n.start_byte());
            starts.get(i).is_some_and(|s| *s < n.end_byte() || (*s == n.start_byte() && n.start_byte() == n.end_byte()))
        };
        let mut family = Family { parent: HashMap::new(), children: HashMap::new(), index: HashMap::new() };
        let mut work = vec![root];
        let mut cursor = root.walk();
        while let Some(node) = work.pop() {
            let kids: Vec<Node<'t>> = node.children(&mut cursor).collect();
            for (i, kid) in kids.iter().enumerate() {
                family.parent.insert(kid.id(), node);
                family.index.insert(kid.id(), i);
                if kid.child_count() > 0 && holds_target(*kid) {
                    work.push(*kid);
                }
            }
            family.children.insert(node.id(), kids);
        }
        family
    }

    pub(crate) fn parent(&self, node: Node<'t>) -> Option<Node<'t>> {
        self.parent.get(&node.id()).copied()
    }

    /// The sibling just before `node`, named or not.
    pub(crate) fn prev_sibling(&self, node: Node<'t>) -> Option<Node<'t>> {
        let (parent, i) = (self.parent(node)?, *self.index.get(&node.id())?);
        i.checked_sub(1).and_then(|j| self.children.get(&parent.id())?.get(j).copied())
    }

    pub(crate) fn prev_named_sibling(&self, node: Node<'t>) -> Option<Node<'t>> {
        let (parent, i) = (self.parent(node)?, *self.index.get(&node.id())?);
        self.children.get(&parent.id())?[..i].iter().rev().find(|n| n.is_named()).copied()
    }

    /// The named children of `node` before it, nearest first.
    pub(crate) fn named_before(&self, node: Node<'t>) -> impl Iterator<Item = Node<'t>> + '_ {
        let before = match (self.parent(node), self.index.get(&node.id())) {
            (Some(p), Some(&i)) => self.children.get(&p.id()).map_or(&[][..], |c| &c[..i]),
            _ => &[][..],
        };
        before.iter().rev().filter(|n| n.is_named()).copied()
    }
}
