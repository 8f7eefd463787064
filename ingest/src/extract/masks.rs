//! `@mask`: bytes a grammar cannot read past (a Rust macro's name and
//! braces around items, a C declaration's leading macro, a C# directive
//! splitting a declaration), blanked so that the file can be read again
//! (`engine::extract_with` keeps that reading when it finds more
//! definitions, or as many with fewer error nodes, with those it lost
//! added back).

use std::ops::Range;

use std::collections::HashSet;

use vibe_common::document::ast::{AstData, AstElement};

/// `source` with the bytes of `masks` turned to spaces, line breaks kept,
/// so every line and column stays; `None` without masks. Whole captured
/// nodes are blanked, so no character is cut in two.
pub(super) fn blanked(source: &str, masks: &[Range<usize>]) -> Option<String> {
    if masks.is_empty() {
        return None;
    }
    let mut bytes = source.as_bytes().to_vec();
    for range in masks {
        for b in &mut bytes[range.clone()] {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }
    String::from_utf8(bytes).ok()
}

/// The blanked reading of a file with the written reading's definitions it
/// lacks added back (a declaration blanking broke keeps its first reading).
pub(super) fn with_lost(mut blanked: AstData, mut written: AstData) -> AstData {
    let lists: [fn(&mut AstData) -> &mut Vec<AstElement>; 6] = [
        |a| &mut a.functions,
        |a| &mut a.classes,
        |a| &mut a.structs,
        |a| &mut a.enums,
        |a| &mut a.interfaces,
        |a| &mut a.variables,
    ];
    let key = |e: &AstElement| (e.name.clone(), e.kind);
    let found: HashSet<_> = blanked.elements().map(key).collect();
    for list in lists {
        let lost = list(&mut written).drain(..).filter(|e| !found.contains(&key(e)));
        let into = list(&mut blanked);
        into.extend(lost);
        into.sort_by_key(|e| e.line.map(|l| l.start));
    }
    blanked
}

/// The error and missing nodes under `root`.
pub(super) fn error_nodes(root: tree_sitter::Node) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut cursor = root.walk();
    let mut count = 0;
    loop {
        let node = cursor.node();
        count += usize::from(node.is_error() || node.is_missing());
        if (node.has_error() && cursor.goto_first_child()) || cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return count;
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}
