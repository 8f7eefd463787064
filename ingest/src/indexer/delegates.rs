//! The functions a short function hands its work to. Many a public
//! function or overload is one line that calls another of the same file
//! (`return new HashMap<>(capacity(expectedSize))`, `return
//! _getmembers(object, predicate, getattr)`): the line that answers a
//! question about it is in that callee. At scan time, each function or
//! method of at most [`DELEGATE_LINES`] lines records, in its stored `show`
//! (`calls`), the functions and methods of its file it calls by a bare
//! name or on `self`, `this` or `cls`; a search answer then shows the
//! first callee after it without guessing what it calls.

use std::collections::HashSet;

use vibe_common::document::ast::{AstData, AstElement};
use vibe_common::document::kinds::ReferenceKind;
pub use vibe_common::document::shown::DELEGATE_LINES;

/// Callees recorded for one function: the first few are all an answer shows.
const MAX_CALLEES: usize = 3;

/// Words that take parentheses but call nothing.
const NOT_CALLS: [&str; 14] = [
    "if", "for", "while", "switch", "return", "catch", "function", "def", "fn", "func", "elif", "sizeof", "typeof",
    "match",
];

/// The file's functions and methods, and its calls in line order.
pub struct FileCalls<'a> {
    defined: HashSet<&'a str>,
    /// (line, name) of every call reference, sorted by line.
    calls: Vec<(u32, &'a str)>,
}

impl<'a> FileCalls<'a> {
    pub fn new(ast: &'a AstData) -> Self {
        let defined =
            ast.elements().filter(|e| is_callable(e) && !e.name.is_empty()).map(|e| e.name.as_str()).collect();
        FileCalls { defined, calls: super::named_values::uses_in_line_order(ast, ReferenceKind::Call) }
    }

    /// The functions and methods of this file that `e` calls, when `e` is
    /// a short function or method, in order of their first call; not
    /// itself. `lines`: the file's lines, to tell `self.f(` from `x.f(`.
    pub fn of(&self, e: &AstElement, lines: &[&str]) -> Vec<&'a str> {
        let Some(span) = e.line.filter(|l| is_callable(e) && l.end >= l.start) else { return vec![] };
        if span.end - span.start + 1 > DELEGATE_LINES {
            return vec![];
        }
        let from = self.calls.partition_point(|&(line, _)| line < span.start);
        let mut out: Vec<&str> = Vec::new();
        for &(line, name) in self.calls[from..].iter().take_while(|&&(line, _)| line <= span.end) {
            let own = name != e.name && self.defined.contains(name) && !NOT_CALLS.contains(&name);
            let text = lines.get(line as usize - 1).copied().unwrap_or_default();
            if own && !out.contains(&name) && called_on_self(text, name) {
                out.push(name);
            }
            if out.len() == MAX_CALLEES {
                break;
            }
        }
        out
    }
}

fn is_callable(e: &AstElement) -> bool {
    e.kind.is_callable()
}

/// Whether `line` calls `name` bare or on `self`, `this` or `cls`
/// (`x.format(` calls another type's method; `A::h(` and `p->q(` another
/// scope's).
fn called_on_self(line: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line.match_indices(name).any(|(at, _)| {
        let (before, after) = (&line[..at], &line[at + name.len()..]);
        let whole = !before.ends_with(ident) && !after.starts_with(ident);
        whole && after.trim_start().starts_with('(') && own_receiver(before)
    })
}

/// Whether the text before a called name leaves it bare or on the object itself.
fn own_receiver(before: &str) -> bool {
    match before.strip_suffix('.') {
        Some(receiver) => ["self", "this", "cls"].iter().any(|r| {
            receiver.strip_suffix(r).is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        }),
        None => !before.ends_with([':', '>']),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_common::document::ast::{AstReference, LineRange};
    use vibe_common::document::kinds::ElementKind;

    fn element(name: &str, kind: &str, start: u32, end: u32) -> AstElement {
        AstElement {
            name: name.into(),
            kind: ElementKind::parse(kind).unwrap(),
            line: Some(LineRange { start, end }),
            ..Default::default()
        }
    }

    fn call(name: &str, line: u32) -> AstReference {
        AstReference { name: name.into(), kind: ReferenceKind::Call, line, ..Default::default() }
    }

    #[test]
    fn own_calls_are_bare_or_on_self() {
        let line = "throw new Bounds(badIndex(i), other.format(x), this.init(), self.f(), myself.g(), A::h(), p->q())";
        let own: Vec<&str> = ["Bounds", "badIndex", "format", "init", "f", "g", "h", "q"]
            .into_iter()
            .filter(|n| called_on_self(line, n))
            .collect();
        assert_eq!(own, ["Bounds", "badIndex", "init", "f"]);
    }

    #[test]
    fn a_short_function_records_the_functions_of_its_file_it_calls() {
        let lines = [
            "def getmembers(object, predicate=None):",
            "    return _getmembers(object, predicate, getattr)",
            "def _getmembers(object, predicate, getter):",
            "    results = []",
            "    other.getmembers(object)",
            "    return sorted(results)",
        ];
        let ast = AstData {
            functions: vec![element("getmembers", "function", 1, 2), element("_getmembers", "function", 3, 6)],
            references: vec![call("_getmembers", 2), call("getattr", 2), call("getmembers", 5), call("sorted", 6)],
            ..Default::default()
        };
        let calls = FileCalls::new(&ast);
        assert_eq!(calls.of(&ast.functions[0], &lines), ["_getmembers"], "getattr is not of this file");
        assert!(calls.of(&ast.functions[1], &lines).is_empty(), "other.getmembers is another object's");
        let long = element("getmembers", "function", 1, 1 + DELEGATE_LINES);
        assert!(calls.of(&long, &lines).is_empty(), "a long function does its own work");
        assert!(calls.of(&element("Shape", "class", 1, 2), &lines).is_empty(), "a type declares its members");
    }
}
