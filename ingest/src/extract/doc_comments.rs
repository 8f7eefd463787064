//! Doc comments and header comments: found by walking the tree around the
//! nodes the query captured (see `engine.rs` for the rules).

use tree_sitter::Node;

use super::comments::{clean_comment, has_blank_line};
use super::compiled::line_range;
use super::family::{Family, IdSet};
use super::grammars::Language;

/// Doc comments of a definition: a docstring inside it, or else the run of
/// doc comments that touches it.
/// The nodes the query marked: doc comments, attributes and definitions.
#[derive(Clone, Copy)]
pub(crate) struct Marked<'a> {
    pub docs: &'a IdSet,
    pub attributes: &'a IdSet,
    pub defs: &'a IdSet,
}

pub(crate) fn doc_comments(
    lang: &Language,
    node: Node,
    inside: &[Node],
    source: &str,
    family: &Family,
    marked: &Marked,
) -> (Vec<String>, Vec<usize>) {
    let Marked { docs, attributes, defs } = *marked;
    let inside = inside
        .iter()
        .filter(|n| n.start_byte() >= node.start_byte() && n.end_byte() <= node.end_byte())
        .min_by_key(|n| n.start_byte());
    if let Some(n) = inside {
        return (clean_comment(lang, &source[n.start_byte()..n.end_byte()]), vec![n.id()]);
    }
    if docs.is_empty() {
        // Nothing to find (and `family` only holds the definitions' kin when
        // the file has doc comments).
        return (Vec::new(), Vec::new());
    }
    let mut kept: Vec<Node> = Vec::new();
    let mut next_start = node.start_byte();
    let mut anchor = node;
    loop {
        match family.prev_named_sibling(anchor) {
            Some(prev) if docs.contains(&prev.id()) || attributes.contains(&prev.id()) => {
                if has_blank_line(&source[prev.end_byte()..next_start]) {
                    break;
                }
                if docs.contains(&prev.id()) {
                    // A comment that ends another line's code trails that code.
                    let trailing = family.prev_sibling(prev).is_some_and(|before| {
                        line_range(before).end as usize == prev.start_position().row + 1
                            && before.end_byte() <= prev.start_byte()
                    });
                    if trailing {
                        break;
                    }
                    kept.push(prev);
                }
                next_start = prev.start_byte();
                anchor = prev;
            }
            Some(_) => break,
            None => match family.parent(anchor) {
                // The first child of a wrapper: go on from the wrapper, unless
                // the wrapper groups several elements (`const ( … )`).
                Some(parent) if family.parent(parent).is_some() && !groups_others(parent, node, defs) => {
                    anchor = parent
                }
                _ => break,
            },
        }
    }
    kept.reverse();
    let ids = kept.iter().map(|n| n.id()).collect();
    (kept.into_iter().flat_map(|n| clean_comment(lang, &source[n.start_byte()..n.end_byte()])).collect(), ids)
}

/// Whether `parent` holds another definition besides `own`.
fn groups_others(parent: Node, own: Node, defs: &IdSet) -> bool {
    let mut cursor = parent.walk();
    let others = parent.named_children(&mut cursor).any(|c| c.id() != own.id() && defs.contains(&c.id()));
    others
}

/// Header comments: captured comments preceded only by other captured
/// comments or attributes (a shebang, `@echo off`), in blocks of comments
/// that touch each other (no blank line between).
pub(crate) fn header_blocks(
    lang: &Language,
    headers: &[Node],
    family: &Family,
    attributes: &IdSet,
    source: &str,
) -> Vec<Vec<String>> {
    let ids: IdSet = headers.iter().map(|n| n.id()).collect();
    let mut sorted: Vec<Node> = headers.to_vec();
    sorted.sort_by_key(|n| n.start_byte());
    sorted.dedup_by_key(|n| n.id());
    let mut blocks: Vec<Vec<String>> = Vec::new();
    let mut last_end: Option<usize> = None;
    for n in sorted {
        // Headers are checked in order: once one is not leading, none after it is.
        let leading = family.named_before(n).all(|p| ids.contains(&p.id()) || attributes.contains(&p.id()));
        if !leading {
            continue;
        }
        let lines = clean_comment(lang, &source[n.start_byte()..n.end_byte()]);
        match (last_end, blocks.last_mut()) {
            (Some(end), Some(block)) if !has_blank_line(&source[end..n.start_byte()]) => block.extend(lines),
            _ => blocks.push(lines),
        }
        last_end = Some(n.end_byte());
    }
    blocks.retain(|b| !b.is_empty());
    blocks
}
