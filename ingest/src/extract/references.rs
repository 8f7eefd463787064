//! References: the uses of names a query captures with `@reference.call`,
//! `@reference.type` or `@reference.import` (the tree-sitter tags
//! convention), each with its `@name`, and the reads of named values a
//! query's `@reference.read` captures among the identifiers it reads: kept
//! only for a name that is a named value ([`is_named_value`]: upper case,
//! as `MAX_RETRIES` or `kMaxSize`, or the name of a constant the file
//! defines), never where another kind of use is captured.
//!
//! Each use is kept once per name, kind and line, in file order, with the
//! innermost function, method, class or `@scope` block around it as `in`
//! (`Owner.name`, the element's owner chain and name, so that it reads like
//! a symbol of `search_by_code_*`). A name that is a definition's own
//! `@name` is never a reference (`class Foo` is no use of `Foo`). At most
//! [`MAX_REFERENCES`] are kept per file; the number left out is reported in
//! `references_omitted`.

use std::sync::Arc;

use tree_sitter::Node;
use vibe_common::document::ast::AstReference;
use vibe_common::document::kinds::ReferenceKind;

/// References kept per file, in file order.
pub const MAX_REFERENCES: usize = 5_000;

/// Longest name kept (the index's keyword fields ignore longer values).
const MAX_NAME_CHARS: usize = 200;

/// One use, as captured.
pub(crate) struct Found<'t> {
    pub kind: ReferenceKind,
    pub name: Node<'t>,
    /// The pattern's `(#set! name.word "N")`: the name is the node's N-th
    /// word (1-based), not its whole text.
    pub word: Option<usize>,
}

/// A block that encloses references: a named definition that is not a
/// value, a `@scope` block or a `@namespace` block.
pub(crate) struct Container {
    pub start: usize,
    pub end: usize,
    /// A definition's `Owner.name`; `None` for a scope or namespace, whose
    /// qualified name is its enclosing container's followed by `name`.
    pub qualified: Option<String>,
    pub name: String,
    /// A namespace qualifies the names inside it but is never an `in`.
    pub namespace: bool,
}

/// The names of the constants a file defines: a read of one is a read of a
/// named value whatever its case (Go's `defaultBufSize`, C#'s `MaxDepth`).
pub(crate) type Constants = std::collections::HashSet<String>;

/// The references of a file, and how many were left out by the cap.
/// `def_names` holds the byte ranges of every definition's `@name`.
pub(crate) fn collect(
    mut found: Vec<Found>,
    mut containers: Vec<Container>,
    mut def_names: Vec<(usize, usize)>,
    constants: &Constants,
    bytes: &[u8],
) -> (Vec<AstReference>, u32) {
    def_names.sort_unstable();
    found.sort_unstable_by_key(|f| (f.name.start_byte(), f.kind as u8));
    keep_reads_of_named_values(&mut found, constants, bytes);
    // Outer before inner; at the same extent, a definition before a scope.
    containers.sort_by(|a, b| {
        a.start.cmp(&b.start).then(b.end.cmp(&a.end)).then(b.qualified.is_some().cmp(&a.qualified.is_some()))
    });
    // (end, qualified, namespace); the qualified name is shared by the uses in it.
    let mut stack: Vec<(usize, Arc<str>, bool)> = Vec::new();
    let mut next = 0;
    // The uses already kept on the current line (lines never decrease).
    let mut on_line: (u32, Vec<(&str, ReferenceKind)>) = (0, Vec::new());
    let mut out: Vec<AstReference> = Vec::new();
    let mut omitted = 0u32;
    for f in &found {
        let (start, end) = (f.name.start_byte(), f.name.end_byte());
        if def_names.binary_search(&(start, end)).is_ok() {
            continue;
        }
        let Some(name) = reference_name(f, bytes) else { continue };
        while next < containers.len() && containers[next].start <= start {
            let c = &containers[next];
            next += 1;
            while stack.last().is_some_and(|(e, _, _)| *e <= c.start) {
                stack.pop();
            }
            let qualified: Arc<str> = match &c.qualified {
                Some(q) => q.as_str().into(),
                None => match stack.last() {
                    Some((_, outer, _)) if !outer.is_empty() => format!("{outer}.{}", c.name).into(),
                    _ => c.name.as_str().into(),
                },
            };
            stack.push((c.end, qualified, c.namespace));
        }
        while stack.last().is_some_and(|(e, _, _)| *e < end) {
            stack.pop();
        }
        let line = f.name.start_position().row as u32 + 1;
        if on_line.0 != line {
            on_line.0 = line;
            on_line.1.clear();
        }
        if on_line.1.contains(&(name, f.kind)) {
            continue;
        }
        on_line.1.push((name, f.kind));
        if out.len() >= MAX_REFERENCES {
            omitted += 1;
            continue;
        }
        let enclosing = stack.iter().rev().find(|(_, _, ns)| !ns).map(|(_, q, _)| q.clone()).filter(|q| !q.is_empty());
        out.push(AstReference { name: name.to_string(), kind: f.kind, line, enclosing });
    }
    (out, omitted)
}

/// Drops the reads that are no named value, and those of a node that
/// another kind of use captured (a call of `MAX(`, a type `Config`);
/// `found` is sorted by start byte, then kind.
fn keep_reads_of_named_values(found: &mut Vec<Found>, constants: &Constants, bytes: &[u8]) {
    let mut other_use: Option<(usize, usize)> = None;
    found.retain(|f| {
        let span = (f.name.start_byte(), f.name.end_byte());
        if f.kind != ReferenceKind::Read {
            other_use = Some(span);
            return true;
        }
        other_use != Some(span) && reference_name(f, bytes).is_some_and(|n| is_named_value(n, constants))
    });
}

/// Whether a name read is a named value: upper case with at least two
/// letters (`MAX_RETRIES`, `_DEFAULT`, `PI`, `HTTP2`), `k` and an upper-case
/// letter (`kMaxSize`), or a constant of the file.
pub(crate) fn is_named_value(name: &str, constants: &Constants) -> bool {
    let upper = name.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.trim_start_matches('_').starts_with(|c: char| c.is_ascii_uppercase());
    let k_prefixed = name.strip_prefix('k').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
        && name.chars().any(|c| c.is_ascii_lowercase() && c != 'k');
    upper || k_prefixed || constants.contains(name)
}

/// The name of a use: its text (or its `name.word`-th word) without quotes
/// or angle brackets (an imported path) or a leading label sigil (`:label`),
/// or `None` when it is empty, too long or spans lines.
fn reference_name<'s>(f: &Found, bytes: &'s [u8]) -> Option<&'s str> {
    let raw = f.name.utf8_text(bytes).ok()?.trim();
    let raw = match f.word {
        Some(n) => raw.split_whitespace().nth(n.checked_sub(1)?)?,
        None => raw,
    };
    let mut name = raw.strip_prefix(':').filter(|r| !r.is_empty() && !r.starts_with(':')).unwrap_or(raw);
    for (open, close) in [('"', '"'), ('\'', '\''), ('`', '`'), ('<', '>')] {
        if let Some(inner) = name.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            name = inner.trim();
            break;
        }
    }
    (!name.is_empty() && name.len() <= MAX_NAME_CHARS && !name.contains('\n')).then_some(name)
}

#[cfg(test)]
mod tests {
    use crate::extract::{extract, grammars::by_id};

    fn refs(lang: &str, src: &str) -> Vec<(String, String, u32, Option<String>)> {
        let ast = extract(by_id(lang).unwrap(), src).unwrap();
        ast.references
            .into_iter()
            .map(|r| (r.name, r.kind.name().to_string(), r.line, r.enclosing.map(|e| e.to_string())))
            .collect()
    }

    fn r(name: &str, kind: &str, line: u32, within: Option<&str>) -> (String, String, u32, Option<String>) {
        (name.into(), kind.into(), line, within.map(Into::into))
    }

    #[test]
    fn uses_are_kept_once_per_name_kind_and_line_with_their_owner() {
        let src = "import os\n\nclass A(Base):\n    def f(self):\n        g(g(1)); self.g()\n        return A()\n\ndef g(x):\n    return g(x - 1)\n";
        assert_eq!(
            refs("python", src),
            vec![
                r("os", "import", 1, None),
                r("Base", "type", 3, Some("A")),
                r("g", "call", 5, Some("A.f")),
                r("A", "call", 6, Some("A.f")),
                // A recursive call is a use; the definition's own name is not.
                r("g", "call", 9, Some("g")),
            ]
        );
    }

    #[test]
    fn a_name_given_a_literal_when_missing_is_a_default() {
        let defaults = |lang: &str, src: &str| -> Vec<(String, u32)> {
            refs(lang, src).into_iter().filter(|r| r.1 == "default").map(|r| (r.0, r.2)).collect()
        };
        let js = "function f(opts, retries = 3) {\n  const linger = opts?.lingerMs ?? 5\n  const port = opts.port || PORT\n  const name = opts.name ?? other\n  const { gap = 12 } = opts\n}\n";
        let want = [("retries", 1), ("lingerMs", 2), ("port", 3), ("gap", 5)].map(|(n, l)| (n.to_string(), l));
        assert_eq!(defaults("javascript", js), want);
        let py = "def f(session, tolerance: int = 300, **kw):\n    t = kw.get(\"timeout\", 30)\n    r = getattr(cfg, \"retries\", 3)\n    n = kw.get(\"name\")\n";
        let want = [("tolerance", 1), ("timeout", 2), ("retries", 3)].map(|(n, l)| (n.to_string(), l));
        assert_eq!(defaults("python", py), want);
    }

    #[test]
    fn python_classes_used_as_values_are_type_references() {
        let src = "try:\n    f(constants._SendfileMode.TRY_NATIVE, futures.Future)\nexcept exceptions.CancelledError:\n    raise TimeoutError\nexcept (OSError, err) as e:\n    raise e\nx = os.path.SEP + self.value\n";
        let types: Vec<_> = refs("python", src).into_iter().filter(|r| r.1 == "type").collect();
        assert_eq!(
            types,
            vec![
                r("_SendfileMode", "type", 2, None),
                r("Future", "type", 2, None),
                r("CancelledError", "type", 3, None),
                r("TimeoutError", "type", 4, None),
                // What an `except` catches is a class whatever its case; a
                // raised variable, an all-caps constant and a lower-case
                // attribute are not.
                r("OSError", "type", 5, None),
                r("err", "type", 5, None),
            ]
        );
    }

    #[test]
    fn go_methods_are_owned_by_their_receiver_and_namespaces_qualify() {
        let go = "package p\n\nfunc (w *Writer) Write() {\n\tflush()\n}\n";
        assert!(refs("go", go).contains(&r("flush", "call", 4, Some("Writer.Write"))));
        let cs = "namespace N {\n  class C {\n    void M() { F(); }\n  }\n}\n";
        assert_eq!(refs("csharp", cs), vec![r("F", "call", 3, Some("N.C.M"))]);
    }

    #[test]
    fn rust_macro_arguments_hold_calls_but_not_assignments() {
        let src = "fn main() {\n    assert_eq!(parse(x).len(), 2);\n    quote! { let y = (a, b); }\n}\n";
        let found = refs("rust", src);
        assert!(found.contains(&r("parse", "call", 2, Some("main"))), "{found:?}");
        assert!(found.contains(&r("len", "call", 2, Some("main"))), "{found:?}");
        assert!(!found.iter().any(|f| f.0 == "y"), "{found:?}");
    }

    #[test]
    fn a_file_keeps_at_most_the_cap_and_counts_the_rest() {
        let src: String = (0..super::MAX_REFERENCES + 7).map(|i| format!("f{i}()\n")).collect();
        let ast = extract(by_id("python").unwrap(), &src).unwrap();
        assert_eq!(ast.references.len(), super::MAX_REFERENCES);
        assert_eq!(ast.references_omitted, 7);
        assert_eq!(ast.references.last().unwrap().name, format!("f{}", super::MAX_REFERENCES - 1));
    }

    /// `find_references kind: read` in the languages of issue 69: the named
    /// values read (upper case, `kName`, the file's constants), not the
    /// calls or types of the same names.
    #[test]
    fn the_languages_of_issue_69_read_named_values() {
        let cases = [
            ("c", "#define MAX 4\nint f(void) { return MAX + g(MAX_LEN); }\n", vec![("MAX", 2), ("MAX_LEN", 2)]),
            ("cpp", "int f() { return kMaxSize + size(); }\n", vec![("kMaxSize", 1)]),
            ("php", "<?php\nfunction f() { return PHP_EOL . self::MAX . g(); }\n", vec![("PHP_EOL", 2), ("MAX", 2)]),
            ("ruby", "def f\n  MAX_SIZE + Foo.new(1)\nend\n", vec![("MAX_SIZE", 2)]),
            ("lua", "local limit <const> = 3\nfunction f() return limit + g() end\n", vec![("limit", 2)]),
            ("elixir", "defmodule M do\n  @timeout 5000\n  def f, do: g(@timeout)\nend\n", vec![("timeout", 3)]),
            (
                "scala",
                "object O {\n  final val limit = 3\n  def f = g(limit + MAX)\n}\n",
                vec![("limit", 3), ("MAX", 3)],
            ),
            ("haskell", "f x = g kDefault x\n", vec![("kDefault", 1)]),
            ("zig", "const max = 3;\nfn f() u32 {\n    return g(max);\n}\n", vec![("max", 3)]),
        ];
        for (lang, src, expected) in cases {
            let reads: Vec<(String, u32)> =
                refs(lang, src).into_iter().filter(|r| r.1 == "read").map(|r| (r.0, r.2)).collect();
            let expected: Vec<(String, u32)> = expected.into_iter().map(|(n, l)| (n.to_string(), l)).collect();
            assert_eq!(reads, expected, "{lang}");
        }
    }
}
