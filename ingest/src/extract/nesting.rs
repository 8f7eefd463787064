//! Nesting: what encloses each definition. Generic over languages: the
//! containers are the named non-value definitions, the `@scope` and
//! `@namespace` blocks and the `@local.scope` nodes a query captures.

use tree_sitter::Node;

/// What a definition is, as far as nesting goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    /// A variable, constant or field: owned, never a container.
    Value,
    /// A function or method: its values are locals.
    Callable,
    /// A class-like element: its values are fields.
    Type,
}

/// A definition's extent, role and name.
pub(crate) struct Span<'a> {
    pub start: usize,
    pub end: usize,
    pub holds: Holds,
    pub name: Option<&'a str>,
}

/// Where a definition stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// At file level, or a callable anywhere.
    Top,
    /// A value directly inside a class-like definition or scope.
    Member,
    /// A value inside a function or a local scope: left out.
    Local,
}

/// What encloses each definition (in `defs` order): its place and its owner
/// chain (the enclosing names, outermost first, joined by `.`). Containers are the named non-value
/// definitions, the `@scope` blocks and the `@local.scope` nodes.
pub(crate) fn nest(defs: &[Span], scopes: &[(Node, String, bool)], locals: &[Node]) -> Vec<(Place, Option<String>)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Frame {
        Namespace,
        Type,
        Callable,
        Local,
    }
    struct Item<'a> {
        start: usize,
        end: usize,
        def: Option<usize>,
        container: Option<(Frame, Option<&'a str>)>,
    }
    let mut items: Vec<Item> = Vec::with_capacity(defs.len() + scopes.len() + locals.len());
    for (i, d) in defs.iter().enumerate() {
        let frame = match d.holds {
            Holds::Value => None,
            Holds::Callable => Some(Frame::Callable),
            Holds::Type => Some(Frame::Type),
        };
        items.push(Item { start: d.start, end: d.end, def: Some(i), container: frame.map(|f| (f, d.name)) });
    }
    for (node, name, namespace) in scopes {
        let frame = if *namespace { Frame::Namespace } else { Frame::Type };
        items.push(Item {
            start: node.start_byte(),
            end: node.end_byte(),
            def: None,
            container: Some((frame, Some(name.as_str()))),
        });
    }
    for node in locals {
        items.push(Item {
            start: node.start_byte(),
            end: node.end_byte(),
            def: None,
            container: Some((Frame::Local, None)),
        });
    }
    // Outer before inner; a definition before a scope on the same node.
    items.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)).then(b.def.is_some().cmp(&a.def.is_some())));
    let mut places = vec![Place::Top; defs.len()];
    let mut chains: Vec<Option<String>> = vec![None; defs.len()];
    let mut stack: Vec<(usize, Frame, Option<&str>)> = Vec::new();
    for item in &items {
        while stack.last().is_some_and(|(end, _, _)| *end < item.end) {
            stack.pop();
        }
        if let Some(i) = item.def {
            let chain: Vec<&str> = stack.iter().filter_map(|(_, _, n)| *n).filter(|n| !n.is_empty()).collect();
            chains[i] = (!chain.is_empty()).then(|| chain.join("."));
            if defs[i].holds == Holds::Value {
                places[i] = match stack.last().map(|(_, f, _)| *f) {
                    None | Some(Frame::Namespace) => Place::Top,
                    Some(Frame::Type) => Place::Member,
                    Some(Frame::Callable | Frame::Local) => Place::Local,
                };
            }
        }
        if let Some((frame, name)) = item.container {
            stack.push((item.end, frame, name));
        }
    }
    places.into_iter().zip(chains).collect()
}
