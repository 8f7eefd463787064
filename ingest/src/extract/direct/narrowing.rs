//! Query narrowing: the node kinds at which a query's patterns can start, so
//! that the engine runs the query only at those nodes instead of the whole tree.

use super::matcher::{DirectPatterns, Kid};
use super::pattern::kind_ids;
use tree_sitter::{Node, Query};

/// The node kinds at which the query's patterns start (those not in
/// `skip`), or `None` when some pattern's root cannot be named (a wildcard,
/// an anonymous node, a leading quantifier): then the query runs over the
/// whole tree.
pub(crate) fn pattern_roots(
    query: &Query,
    source: &str,
    grammar: &tree_sitter::Language,
    skip: &[bool],
) -> Option<Vec<bool>> {
    // Indexed by kind id; `ERROR` nodes have the last id (u16::MAX).
    let mut table = vec![false; u16::MAX as usize + 1];
    for i in (0..query.pattern_count()).filter(|&i| !skip.get(i).copied().unwrap_or(false)) {
        let text = source.get(query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i))?;
        for kind in root_kinds(text)? {
            if kind == "ERROR" {
                table[u16::MAX as usize] = true;
                continue;
            }
            for id in kind_ids(grammar, &kind, true)? {
                table[id as usize] = true;
            }
        }
    }
    Some(table)
}

/// The kinds a pattern's text can start at: `(kind …)`, a group `((kind) …)`
/// whose first element is not quantified, or an alternation `[(a) (b)]`.
fn root_kinds(text: &str) -> Option<Vec<String>> {
    let s = text.trim_start();
    if let Some(inner) = s.strip_prefix('[') {
        let mut kinds = Vec::new();
        for item in top_level_items(inner)? {
            kinds.extend(root_kinds(item)?);
        }
        return Some(kinds);
    }
    let rest = s.strip_prefix('(')?.trim_start();
    if rest.starts_with('(') || rest.starts_with('[') {
        // A group: its first element is the root, unless it may be absent.
        let first = top_level_items(rest)?.into_iter().next()?;
        let after = rest[first.len()..].trim_start();
        if after.starts_with(['*', '?', '+']) {
            return None;
        }
        return root_kinds(first);
    }
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if name.is_empty() || name == "_" {
        return None;
    }
    Some(vec![name])
}

/// The leading parenthesized items of a sequence, up to its closing bracket.
fn top_level_items(s: &str) -> Option<Vec<&str>> {
    let mut items = Vec::new();
    let (mut depth, mut start, mut in_string) = (0usize, None, false);
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        if in_string {
            if c == '"' && prev != '\\' {
                in_string = false;
            }
        } else {
            match c {
                '"' if depth == 0 => return None,
                '"' => in_string = true,
                '(' | '[' => {
                    if depth == 0 {
                        start = Some(i);
                    }
                    depth += 1;
                }
                ')' | ']' if depth == 0 => break,
                ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        items.push(&s[start?..=i]);
                    }
                }
                _ => {}
            }
        }
        prev = c;
    }
    (!items.is_empty()).then_some(items)
}

/// The nodes where a pattern can start, in document order, and the children
/// (with their fields) of those where a direct pattern starts, read on the
/// same walk: direct matching then does not walk them a second time.
pub(crate) struct Starts<'t> {
    /// Each start node and, when listed, the range of its children in `kids`.
    nodes: Vec<(Node<'t>, Option<(u32, u32)>)>,
    kids: Vec<Kid<'t>>,
}

impl<'t> Starts<'t> {
    /// Every node whose kind is marked in `visit`, listing the children of
    /// those where a pattern of `direct` starts. A listed node's children
    /// gather in a buffer of their own while the walk is inside it (a
    /// child's own children may be listed meanwhile) and join `kids` as one
    /// run when the walk leaves it: no list of every child met to sort
    /// afterwards (on a 200,000-line file that list and its sorted copy were
    /// a third of the scan's page faults).
    pub(crate) fn walk(root: Node<'t>, visit: &[bool], direct: &DirectPatterns) -> Self {
        let mut nodes: Vec<(Node<'t>, Option<(u32, u32)>)> = Vec::new();
        let mut kids: Vec<Kid<'t>> = Vec::new();
        // For each ancestor of the cursor's node, whether (and as which start
        // node) its children are listed, and whether with their fields.
        let mut listed: Vec<Option<(u32, bool)>> = Vec::new();
        // The children so far of each listed ancestor, innermost last, and
        // emptied buffers to reuse.
        let mut open: Vec<Vec<Kid<'t>>> = Vec::new();
        let mut spare: Vec<Vec<Kid<'t>>> = Vec::new();
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            if let (Some(&Some((_, with_fields))), Some(buffer)) = (listed.last(), open.last_mut()) {
                buffer.push(Kid { node, field: if with_fields { cursor.field_id() } else { None }, kind });
            }
            let mut lists = None;
            if visit.get(kind as usize).copied().unwrap_or(false) {
                let direct_start = direct.starts_at(kind);
                if direct_start {
                    lists = Some((nodes.len() as u32, direct.reads_fields_at(kind)));
                }
                // A listed node without children keeps the empty range.
                nodes.push((node, direct_start.then_some((0, 0))));
            }
            if cursor.goto_first_child() {
                if lists.is_some() {
                    open.push(spare.pop().unwrap_or_default());
                }
                listed.push(lists);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return Starts { nodes, kids };
                }
                if let Some(Some((start_node, _))) = listed.pop() {
                    let mut buffer = open.pop().unwrap_or_default();
                    let start = kids.len() as u32;
                    kids.extend_from_slice(&buffer);
                    nodes[start_node as usize].1 = Some((start, kids.len() as u32));
                    buffer.clear();
                    spare.push(buffer);
                }
            }
        }
    }

    /// Each start node, with its children when they were listed.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Node<'t>, Option<&[Kid<'t>]>)> + '_ {
        self.nodes.iter().map(|&(node, range)| (node, range.map(|(a, b)| &self.kids[a as usize..b as usize])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_roots_are_named() {
        assert_eq!(
            root_kinds("(function_item name: (identifier) @name) @definition.function"),
            Some(vec!["function_item".to_string()])
        );
        assert_eq!(root_kinds("((comment) @doc (#match? @doc \"^///\"))"), Some(vec!["comment".to_string()]));
        assert_eq!(
            root_kinds("[(class_declaration) (struct_declaration)] @x"),
            Some(vec!["class_declaration".to_string(), "struct_declaration".to_string()])
        );
        assert_eq!(root_kinds("((comment)* @doc . (function_item) @definition.function)"), None);
        assert_eq!(root_kinds("(_ . (variable_declarator)) @definition.variable"), None);
        assert_eq!(root_kinds("[\"static\" (x)]"), None);
    }
}
