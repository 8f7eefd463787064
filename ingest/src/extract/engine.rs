//! The generic extraction engine. It knows nothing about any one language: a
//! language's query file says what a definition, a doc comment, an import or a
//! header comment is, through these captures:
//!
//! | capture | meaning |
//! | --- | --- |
//! | `@definition.function` / `.method` / `.class` / `.type` / `.struct` / `.enum` / `.interface` / `.trait` / `.variable` / `.constant` / `.field` | the element's node |
//! | `@name` | its identifier (names the owner of nested elements) |
//! | `@body` | where the signature is cut: the body or value, never stored |
//! | `@doc` | in a pattern of its own: a doc comment; inside a definition's pattern: its docstring |
//! | `@attribute` | attributes, annotations, decorators: skipped when looking for doc comments |
//! | `@import` | an import; its text, unquoted, is the import (a quantified capture: its nodes joined by `.`) |
//! | `@scope` + `@name` | a block that owns elements without being one (`impl`, `extension`) |
//! | `@namespace` + `@name` | a module or namespace block: named in owner chains, its values stay variables |
//! | `@local.scope` | a block whose values are locals (a lambda, a closure, a callback) |
//! | `@owner` | inside a definition's pattern: its owner type, when it is not an enclosing block (Go receivers) |
//! | `@supertype` | inside a type's pattern: a type it extends or implements (any number); inside a `@scope`'s pattern (`impl Trait for Type`): a supertype of the file's type named by the scope |
//! | `@header` | a comment that counts as a header comment when only comments precede it |
//! | `@reference.call` / `.type` / `.import` / `.read` / `.default` + `@name` | a use of a name (see `references.rs`) |
//! | `@mask` | bytes the grammar cannot read past (a macro's name and braces around items, a directive splitting a declaration): blanked, line breaks kept, and the file read again (up to 3 rounds), that reading kept when it finds more definitions, with any it lost added back (`masks.rs`) |
//!
//! `(#set! name "Companion")` in a definition's pattern names an element
//! that has no identifier of its own; `(#set! name.word "2")` in a
//! reference's pattern takes its name from the `@name` node's second word
//! (a grammar that keeps `call :label` in one token).
//!
//! A node captured both as a value and as a function, method or type is
//! that function, method or type (and one captured as a function and a
//! method is a method), whatever the order of the matches, so a query may
//! capture every variable and let other patterns claim those that hold
//! functions or classes.
//!
//! Nesting is generic: every element's `owner` is the chain of named
//! non-value definitions and `@scope` blocks around it (`Outer.Inner`). A
//! value (variable, constant, field) inside a function, a method or a
//! `@local.scope` is a local and is left out; a variable directly inside a
//! class-like element or scope is a field. A query may therefore capture
//! assignments anywhere and let the engine keep the ones at module or class
//! level.
//!
//! Doc comments are found by walking back from the element over its previous
//! siblings: `@doc` nodes are collected, `@attribute` nodes skipped, and the
//! walk stops at anything else or at a blank line (the `#select-adjacent!`
//! rule of tree-sitter tags). When the element is the first child of a
//! wrapper (`export`, a decorated definition), the walk goes on from the wrapper.
//! `(#adjacent? @a @b)` keeps a match only when `@a` ends where `@b`
//! starts (a call inside a macro's token tree is `name(`, not `name = (`).
//! Any other capture name, or a predicate the engine does not know, is an
//! error when the query is compiled.
//!
//! The matches come from `direct/`: a query runs only at the nodes where one
//! of its patterns can start, the simple patterns matched there directly,
//! the others by tree-sitter's query cursor; both give what the cursor gives
//! over the whole tree (tested on generated inputs and on real code).

use std::collections::HashSet;
use tree_sitter::Node;

use vibe_common::document::ast::{AstData, AstElement, LineRange};
use vibe_common::document::kinds::ElementKind;

use super::compiled::{compiled_as, is_compiled, line_range, parse, text, CompiledQuery, ExtractError, Matching, Role};
use super::direct::{self, Captures};
use super::doc_comments::{doc_comments, header_blocks, Marked};
use super::family::{Family, IdMap, IdSet};
use super::grammars::Language;
use super::license_header;
use super::masks;
use super::nesting::{self, Holds, Place, Span};
use super::references::{self, Container};
use super::signature::{bare_name, signature, supertype_name, unquote};

/// One definition gathered from possibly several matches.
struct Definition<'t> {
    kind: ElementKind,
    node: Node<'t>,
    name: Option<Node<'t>>,
    /// The pattern's `(#set! name "…")`: the name of an element that has no
    /// identifier of its own (a Kotlin `companion object` is `Companion`).
    default_name: Option<&'static str>,
    body: Option<Node<'t>>,
    owner: Option<Node<'t>>,
    docs: Vec<Node<'t>>,
    supertypes: Vec<Node<'t>>,
}

/// Extract the AST of a source file in a programming language.
pub fn extract(lang: &'static Language, source: &str) -> Result<AstData, ExtractError> {
    extract_with(lang, source, true)
}

/// [`extract`], optionally running the query over the whole tree (the
/// reference the narrowed run is tested against).
pub(crate) fn extract_with(lang: &'static Language, source: &str, narrow: bool) -> Result<AstData, ExtractError> {
    let (written, mut masks) = extract_once(lang, (source, source), narrow)?;
    let mut text = std::borrow::Cow::Borrowed(source);
    let mut best: Option<Reading> = None;
    // A macro inside a macro is unwrapped by the next round.
    for _ in 0..MASK_ROUNDS {
        let Some(blanked) = masks::blanked(&text, &masks) else { break };
        let (again, more) = extract_once(lang, (&blanked, source), narrow)?;
        if best.as_ref().is_none_or(|b| again.reads_better_than(b)) {
            best = Some(again);
        }
        (masks, text) = (more, std::borrow::Cow::Owned(blanked));
    }
    let better = best.filter(|b| b.reads_better_than(&written));
    Ok(match better {
        Some(b) => masks::with_lost(b.ast, written.ast),
        None => written.ast,
    })
}

/// A file's AST and the error nodes of the tree it was read from.
struct Reading {
    ast: AstData,
    errors: usize,
}

impl Reading {
    /// More definitions, or as many with fewer error nodes.
    fn reads_better_than(&self, other: &Reading) -> bool {
        let (mine, theirs) = (self.ast.elements().count(), other.ast.elements().count());
        mine > theirs || (mine == theirs && self.errors < other.errors)
    }
}

/// Rounds of blanking `@mask` bytes at most (macros nested this deep).
const MASK_ROUNDS: usize = 3;

/// The file's AST, and the byte ranges the query marked `@mask`.
/// `source`: the text to read (blanked in a later round) and the file as
/// written, where a doc comment is looked for (a blanked directive's line
/// is no blank line).
fn extract_once(
    lang: &'static Language,
    (source, written): (&str, &str),
    narrow: bool,
) -> Result<(Reading, Vec<std::ops::Range<usize>>), ExtractError> {
    let matching = if narrow { Matching::Narrowed } else { Matching::Cursor };
    // The first file of a language compiles its query (0.1 s for
    // TypeScript's, once per process) on a thread of its own while this one
    // parses; other threads parse their files meanwhile instead of waiting.
    let (tree, compiled) = if is_compiled(lang, matching) {
        (parse(lang, source), compiled_as(lang, matching))
    } else {
        std::thread::scope(|s| {
            let compiling = s.spawn(|| compiled_as(lang, matching));
            let tree = parse(lang, source);
            (tree, compiling.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        })
    };
    let (tree, compiled) = (tree?, compiled?);
    let bytes = source.as_bytes();
    let mut found = Gathered::default();
    direct::for_each_match(&compiled.query, compiled.plan.as_ref(), tree.root_node(), bytes, &mut |pattern, caps| {
        found.take(compiled, pattern, caps, bytes)
    });
    let Gathered {
        mut defs,
        imports,
        scopes,
        local_scopes,
        mut headers,
        doc_nodes,
        attribute_nodes,
        uses,
        scope_supertypes,
        masks,
        ..
    } = found;

    defs.sort_by_key(|d| d.node.start_byte());
    let names: Vec<Option<String>> =
        defs.iter().map(|d| d.name.map(|n| bare_name(text(n, bytes))).or(d.default_name.map(str::to_string))).collect();
    let nesting = nesting::nest(&spans_of(&defs, &names), &scopes, &local_scopes);
    let def_ids: IdSet = defs.iter().map(|d| d.node.id()).collect();
    let marked = Marked { docs: &doc_nodes, attributes: &attribute_nodes, defs: &def_ids };
    let family = Family::new(tree.root_node(), &doc_targets(&defs, &nesting, &headers, !doc_nodes.is_empty()));
    let file = FileText { lang, source, written, family: &family, marked: &marked };
    let mut ast = AstData::default();
    let (used_docs, mut containers) = add_definitions(&mut ast, &file, &defs, &names, nesting);
    add_scope_supertypes(&mut ast, scope_supertypes);
    add_imports(&mut ast, imports);
    // A doc comment that documents the first definition is not also a header.
    headers.retain(|h| !used_docs.contains(&h.id()));
    (ast.license, ast.header_comments) =
        license_header::split(header_blocks(lang, &headers, &family, &attribute_nodes, source));
    if !uses.is_empty() {
        containers.extend(scopes.iter().map(|(node, name, namespace)| Container {
            start: node.start_byte(),
            end: node.end_byte(),
            qualified: None,
            name: name.clone(),
            namespace: *namespace,
        }));
        let def_names = defs.iter().filter_map(|d| d.name).map(|n| (n.start_byte(), n.end_byte())).collect();
        let constants = ast.elements().filter(|e| e.kind == ElementKind::Constant).map(|e| e.name.clone()).collect();
        (ast.references, ast.references_omitted) = references::collect(uses, containers, def_names, &constants, bytes);
    }
    // Error nodes are only compared between readings: a file as written
    // with nothing to blank (nearly every file) skips the count.
    let compared = !masks.is_empty() || !std::ptr::eq(source, written);
    let errors = if compared { masks::error_nodes(tree.root_node()) } else { 0 };
    Ok((Reading { ast, errors }, masks))
}

/// A file's text and what its doc comments are looked up in.
struct FileText<'a, 't> {
    lang: &'static Language,
    source: &'a str,
    /// The file as written: `source` before its `@mask` bytes were blanked.
    written: &'a str,
    family: &'a Family<'t>,
    marked: &'a Marked<'a>,
}

/// The definitions' spans, for nesting.
fn spans_of<'n>(defs: &[Definition], names: &'n [Option<String>]) -> Vec<Span<'n>> {
    defs.iter()
        .zip(names)
        .map(|(d, name)| Span {
            start: d.node.start_byte(),
            end: d.node.end_byte(),
            holds: match d.kind {
                k if k.is_value() => Holds::Value,
                k if k.is_callable() => Holds::Callable,
                _ => Holds::Type,
            },
            name: name.as_deref(),
        })
        .collect()
}

/// The nodes whose kin doc comments are looked for in: the file's headers
/// and, when it has doc comments, the definitions that are output (locals
/// never are).
fn doc_targets<'t>(
    defs: &[Definition<'t>],
    nesting: &[(Place, Option<String>)],
    headers: &[Node<'t>],
    docs_to_find: bool,
) -> Vec<Node<'t>> {
    defs.iter()
        .zip(nesting)
        .filter(|(_, (place, _))| docs_to_find && *place != Place::Local)
        .map(|(d, _)| d.node)
        .chain(headers.iter().copied())
        .collect()
}

/// Add the definitions (but locals) to `ast`, each once; returns the doc
/// comments they used and the containers of named, non-value ones.
fn add_definitions(
    ast: &mut AstData,
    file: &FileText,
    defs: &[Definition],
    names: &[Option<String>],
    nesting: Vec<(Place, Option<String>)>,
) -> (IdSet, Vec<Container>) {
    let bytes = file.source.as_bytes();
    let mut used_docs: IdSet = IdSet::default();
    let mut containers: Vec<Container> = Vec::new();
    // Each list holds a signature at a line range once: a set, not a scan of
    // the list, keeps a file of 200,000 assignments linear.
    let mut listed: HashSet<(&'static str, String, Option<LineRange>)> = ast_keys(ast);
    for ((d, name), (place, chain)) in defs.iter().zip(names).zip(nesting) {
        let kind = match place {
            Place::Local => continue,
            Place::Member if d.kind == ElementKind::Variable => ElementKind::Field,
            _ => d.kind,
        };
        let owner = d.owner.map(|o| text(o, bytes).trim_start_matches(['*', '&']).trim().to_string()).or(chain);
        if let Some(n) = name.as_deref().filter(|n| !n.is_empty() && !kind.is_value()) {
            let qualified = owner.as_ref().map_or_else(|| n.to_string(), |o| format!("{o}.{n}"));
            containers.push(Container {
                start: d.node.start_byte(),
                end: d.node.end_byte(),
                qualified: Some(qualified),
                name: n.to_string(),
                namespace: false,
            });
        }
        let (comments, doc_ids) = doc_comments(file.lang, d.node, &d.docs, file.written, file.family, file.marked);
        let element = AstElement {
            name: name.clone().unwrap_or_default(),
            kind,
            signature: signature(d.node, d.body, file.source, file.marked.attributes),
            comments,
            owner,
            line: Some(line_range(d.node)),
            supertypes: if kind.is_value() || kind.is_callable() {
                Vec::new()
            } else {
                supertypes(&d.supertypes, bytes)
            },
        };
        let key = (kind.list(), element.signature.clone(), element.line);
        if !element.signature.is_empty() && listed.insert(key) {
            used_docs.extend(doc_ids);
            ast.list_mut(kind).push(element);
        }
    }
    (used_docs, containers)
}

/// The (list, signature, lines) of every element `ast` holds already.
fn ast_keys(ast: &AstData) -> HashSet<(&'static str, String, Option<LineRange>)> {
    let lists = [
        ("functions", &ast.functions),
        ("classes", &ast.classes),
        ("structs", &ast.structs),
        ("enums", &ast.enums),
        ("interfaces", &ast.interfaces),
        ("variables", &ast.variables),
    ];
    lists.into_iter().flat_map(|(l, list)| list.iter().map(move |e| (l, e.signature.clone(), e.line))).collect()
}

/// The bare names of a type's supertypes, each once, in source order.
fn supertypes(nodes: &[Node], bytes: &[u8]) -> Vec<String> {
    let mut nodes = nodes.to_vec();
    nodes.sort_by_key(|n| n.start_byte());
    let mut names: Vec<String> = Vec::new();
    for name in nodes.iter().filter_map(|n| supertype_name(text(*n, bytes))) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Give the supertypes of `impl Trait for Type` blocks to the file's types
/// of that name (a type defined in another file gets none).
fn add_scope_supertypes(ast: &mut AstData, found: Vec<(String, Vec<String>)>) {
    for (scope_name, supers) in found {
        // `extension Outer.Inner: P` names the type `Inner` owned by `…Outer`.
        let (qualifier, type_name) = match scope_name.rsplit_once(['.', ':']) {
            Some((q, n)) => (Some(q.trim_end_matches(':')), n),
            None => (None, scope_name.as_str()),
        };
        let owned = |owner: &Option<String>| {
            qualifier.is_none_or(|q| owner.as_deref().is_some_and(|o| o == q || o.ends_with(&format!(".{q}"))))
        };
        for list in [ElementKind::Class, ElementKind::Struct, ElementKind::Enum, ElementKind::Interface] {
            for element in ast.list_mut(list).iter_mut().filter(|e| e.name == type_name && owned(&e.owner)) {
                for s in &supers {
                    if !element.supertypes.contains(s) {
                        element.supertypes.push(s.clone());
                    }
                }
            }
        }
    }
}

/// Add the imports in source order, each once.
fn add_imports(ast: &mut AstData, mut imports: Vec<(usize, String)>) {
    imports.sort_by_key(|(pos, _)| *pos);
    for (_, imp) in imports {
        if !imp.is_empty() && !ast.imports.contains(&imp) {
            ast.imports.push(imp);
        }
    }
}

/// Whether the match's captures `a` and `b` touch: `a` ends where `b` starts.
fn adjacent(captures: &Captures, a: u32, b: u32) -> bool {
    let node = |i: u32| captures.iter().find(|(c, _)| *c == i).map(|(_, n)| *n);
    matches!((node(a), node(b)), (Some(x), Some(y)) if x.end_byte() == y.start_byte())
}

/// What the matches of one file captured, gathered match by match.
#[derive(Default)]
struct Gathered<'t> {
    defs: Vec<Definition<'t>>,
    def_index: IdMap<usize>,
    imports: Vec<(usize, String)>,
    scopes: Vec<(Node<'t>, String, bool)>,
    local_scopes: Vec<Node<'t>>,
    headers: Vec<Node<'t>>,
    doc_nodes: IdSet,
    attribute_nodes: IdSet,
    uses: Vec<references::Found<'t>>,
    /// A `@scope`'s name and the supertypes its pattern captured.
    scope_supertypes: Vec<(String, Vec<String>)>,
    /// The nodes of `scopes`, each taken once.
    scope_ids: IdSet,
    /// The byte ranges of the `@mask` captures.
    masks: Vec<std::ops::Range<usize>>,
}

impl<'t> Gathered<'t> {
    /// One match of pattern `pattern`: its captures, by role.
    fn take(&mut self, compiled: &'static CompiledQuery, pattern: usize, captures: &Captures<'t>, bytes: &[u8]) {
        if !compiled.adjacent[pattern].iter().all(|&(a, b)| adjacent(captures, a, b)) {
            return;
        }
        let mut def: Option<(ElementKind, Node)> = None;
        let (mut name, mut body, mut scope, mut owner) = (None, None, None, None);
        let (mut namespace, mut reference) = (false, None);
        let (mut docs, mut supers, mut imports) = (Vec::new(), Vec::new(), Vec::new());
        for &(index, node) in captures {
            match compiled.roles[index as usize] {
                Some(Role::Definition(k)) => def = Some((k, node)),
                Some(Role::Name) => name = Some(node),
                Some(Role::Body) => body = Some(node),
                Some(Role::Doc) => docs.push(node),
                Some(Role::Import) => imports.push(node),
                Some(Role::Scope) => scope = Some(node),
                Some(Role::Namespace) => {
                    scope = Some(node);
                    namespace = true;
                }
                Some(Role::LocalScope) => self.local_scopes.push(node),
                Some(Role::Header) => self.headers.push(node),
                Some(Role::Owner) => owner = Some(node),
                Some(Role::Supertype) => supers.push(node),
                Some(Role::Attribute) => {
                    self.attribute_nodes.insert(node.id());
                }
                Some(Role::Reference(k)) => reference = Some(k),
                Some(Role::Mask) => self.masks.push(node.byte_range()),
                None => {}
            }
        }
        if let Some(first) = imports.first() {
            // A quantified `@import` (Scala's `a.b.c`, a node each) is its nodes joined by dots.
            let parts: Vec<String> = imports.iter().map(|n| unquote(text(*n, bytes))).collect();
            self.imports.push((first.start_byte(), parts.join(".")));
        }
        if let (Some(s), Some(n)) = (scope, name) {
            if !supers.is_empty() && def.is_none() {
                self.scope_supertypes.push((bare_name(text(n, bytes)), supertypes(&supers, bytes)));
            }
            // A scope matched again (one match per conformance) is one scope.
            if self.scope_ids.insert(s.id()) {
                self.scopes.push((s, text(n, bytes).to_string(), namespace));
            }
        }
        let setting = |key: &str| {
            compiled.query.property_settings(pattern).iter().find(|p| &*p.key == key).and_then(|p| p.value.as_deref())
        };
        if let (Some(kind), Some(name)) = (reference, name) {
            let word = setting("name.word").and_then(|w| w.parse().ok());
            self.uses.push(references::Found { kind, name, word });
        }
        let Some((kind, node)) = def else {
            self.doc_nodes.extend(docs.iter().map(|n| n.id()));
            return;
        };
        match self.def_index.get(&node.id()) {
            Some(&i) => {
                self.defs[i].supertypes.extend(supers);
                self.defs[i].merge(kind, name, body, owner, docs)
            }
            None => {
                self.def_index.insert(node.id(), self.defs.len());
                let default_name = setting("name");
                self.defs.push(Definition { kind, node, name, default_name, body, owner, docs, supertypes: supers });
            }
        }
    }
}

impl<'t> Definition<'t> {
    /// Fold another match of the same node into this definition.
    fn merge(
        &mut self,
        kind: ElementKind,
        name: Option<Node<'t>>,
        body: Option<Node<'t>>,
        owner: Option<Node<'t>>,
        docs: Vec<Node<'t>>,
    ) {
        if !kind.is_value() && self.kind.is_value() {
            // A value holding a function or class (`const f = () => …`,
            // `const K = class {}`) is that function or class.
            self.kind = kind;
            self.body = body.or(self.body);
        } else if kind == ElementKind::Method && self.kind == ElementKind::Function {
            // Captured both ways (a general and a class-body pattern): a method,
            // whatever the order of the matches.
            self.kind = kind;
            self.body = self.body.or(body);
        } else if kind == self.kind || (kind.is_callable() && self.kind.is_callable()) {
            self.body = self.body.or(body);
        }
        self.name = self.name.or(name);
        self.owner = self.owner.or(owner);
        if docs.len() > self.docs.len() {
            self.docs = docs;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::grammars::LANGUAGES;

    fn names(id: &str, source: &str) -> Vec<String> {
        let lang = LANGUAGES.iter().find(|l| l.id == id).unwrap();
        extract_with(lang, source, true).unwrap().elements().map(|e| e.name.clone()).collect()
    }

    #[test]
    fn items_a_macro_wraps_are_read_when_the_blanked_file_reads_cleanly() {
        let wrapped = "cfg_net! {\n    cfg_io! {\n        pub struct TcpStream { fd: i32 }\n    }\n}\n";
        let mut found = names("rust", wrapped);
        found.sort();
        assert_eq!(found, ["TcpStream", "fd"], "two rounds unwrap a macro in a macro");
        // Blanking `quote!` leaves `#name`: nothing more is found, and
        // the file is read as written.
        let template = "quote! {\n    pub fn #name() {}\n}\nfn kept() {}\n";
        assert_eq!(names("rust", template), ["kept"]);
        // A macro whose braces do not open on an item is left alone.
        assert_eq!(names("rust", "lazy! { 1 + 2 }\nfn f() {}\n"), ["f"]);
    }

    #[test]
    fn a_c_declarations_macros_are_blanked_when_that_finds_more() {
        let header = "#ifndef H\n#define H\n\
            REDISMODULE_API int (*RedisModule_GetApi)(const char *, void *) REDISMODULE_ATTR;\n\
            REDISMODULE_API void *(*RedisModule_Alloc)(size_t bytes) REDISMODULE_ATTR;\n\
            int after(void);\n#endif\n";
        let mut found = names("c", header);
        found.sort();
        assert_eq!(found, ["H", "RedisModule_Alloc", "RedisModule_GetApi", "after"]);
    }
}
