//! The generic extraction engine. It knows nothing about any one language: a
//! language's query file says what a definition, a doc comment, an import or a
//! header comment is, through these captures:
//!
//! | capture | meaning |
//! | --- | --- |
//! | `@definition.function` / `.method` / `.class` / `.struct` / `.enum` / `.interface` / `.variable` | the element's node |
//! | `@name` | its identifier (names the owner of nested methods) |
//! | `@body` | where the signature is cut: the body or value, never stored |
//! | `@doc` | in a pattern of its own: a doc comment; inside a definition's pattern: its docstring |
//! | `@attribute` | attributes, annotations, decorators: skipped when looking for doc comments |
//! | `@import` | an import; its text, unquoted, is the import |
//! | `@scope` + `@name` | a block that owns methods without being an element (`impl`, `extension`) |
//! | `@owner` | inside a definition's pattern: its owner type, when it is not an enclosing block (Go receivers) |
//! | `@header` | a comment that counts as a header comment when only comments precede it |
//!
//! A node captured both as a variable and as a function or method is a
//! function, so a query may capture every variable and let the function
//! patterns claim constants that hold functions.
//!
//! Doc comments are found by walking back from the element over its previous
//! siblings: `@doc` nodes are collected, `@attribute` nodes skipped, and the
//! walk stops at anything else or at a blank line (the `#select-adjacent!`
//! rule of tree-sitter tags). When the element is the first child of a
//! wrapper (`export`, a decorated definition), the walk goes on from the wrapper.
//! Any other capture name, or a predicate the engine does not know, is an
//! error when the query is compiled.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use streaming_iterator::StreamingIterator;
use thiserror::Error;
use tree_sitter::{Node, Parser, Query, QueryCursor};
use vibe_common::ast::{AstData, AstElement, LineRange};

use super::languages::{Language, LANGUAGES};

/// Longest signature kept; longer ones are cut with an ellipsis.
const MAX_SIGNATURE_CHARS: usize = 300;

#[derive(Debug, Error)]
pub enum ExtractError {
    #[error("query for {lang} does not compile: {message}")]
    Query { lang: &'static str, message: String },
    #[error("query for {lang} uses unknown capture @{capture}")]
    UnknownCapture { lang: &'static str, capture: String },
    #[error("query for {lang} uses unknown predicate #{predicate}")]
    UnknownPredicate { lang: &'static str, predicate: String },
    #[error("grammar for {lang} cannot be loaded: {message}")]
    Grammar { lang: &'static str, message: String },
    #[error("{lang} parser produced no tree")]
    NoTree { lang: &'static str },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Interface,
    Variable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Definition(Kind),
    Name,
    Body,
    Doc,
    Import,
    Scope,
    Header,
    Attribute,
    Owner,
}

/// Capture names a query may use, each with its role.
const CODE_CAPTURES: &[(&str, Role)] = &[
    ("definition.function", Role::Definition(Kind::Function)),
    ("definition.method", Role::Definition(Kind::Method)),
    ("definition.class", Role::Definition(Kind::Class)),
    ("definition.struct", Role::Definition(Kind::Struct)),
    ("definition.enum", Role::Definition(Kind::Enum)),
    ("definition.interface", Role::Definition(Kind::Interface)),
    ("definition.variable", Role::Definition(Kind::Variable)),
    ("name", Role::Name),
    ("body", Role::Body),
    ("doc", Role::Doc),
    ("import", Role::Import),
    ("scope", Role::Scope),
    ("header", Role::Header),
    ("attribute", Role::Attribute),
    ("owner", Role::Owner),
];

/// A language's query, compiled, with each capture index mapped to its role.
pub struct CompiledQuery {
    pub query: Query,
    roles: Vec<Option<Role>>,
    /// Node kinds (by id) at which some pattern can start; `None` when a
    /// pattern can start anywhere (a wildcard root), so the whole tree is run.
    roots: Option<Vec<bool>>,
}

/// Compile a language's query and check every capture and predicate.
/// `allowed` lists the capture names this language's extractor understands.
pub fn compile_query(lang: &'static Language) -> Result<CompiledQuery, ExtractError> {
    let allowed: Vec<&str> = if lang.id == "markdown" {
        super::markdown::CAPTURES.to_vec()
    } else {
        CODE_CAPTURES.iter().map(|(n, _)| *n).collect()
    };
    let grammar = (lang.grammar)();
    let source = super::languages::query_source(lang).map_err(|message| ExtractError::Query { lang: lang.name, message })?;
    let query = Query::new(&grammar, &source)
        .map_err(|e| ExtractError::Query { lang: lang.name, message: e.to_string() })?;
    let mut roles = Vec::new();
    for name in query.capture_names() {
        if !allowed.contains(name) && !name.starts_with('_') {
            return Err(ExtractError::UnknownCapture { lang: lang.name, capture: name.to_string() });
        }
        roles.push(CODE_CAPTURES.iter().find(|(n, _)| n == name).map(|(_, r)| *r));
    }
    for i in 0..query.pattern_count() {
        if let Some(p) = query.general_predicates(i).first() {
            return Err(ExtractError::UnknownPredicate { lang: lang.name, predicate: p.operator.to_string() });
        }
    }
    let roots = pattern_roots(&query, &source, &grammar);
    Ok(CompiledQuery { query, roles, roots })
}

/// The node kinds at which the query's patterns start, or `None` when some
/// pattern's root cannot be named (a wildcard, an anonymous node, a leading
/// quantifier): then the query runs over the whole tree.
fn pattern_roots(query: &Query, source: &str, grammar: &tree_sitter::Language) -> Option<Vec<bool>> {
    let mut table = vec![false; grammar.node_kind_count()];
    for i in 0..query.pattern_count() {
        let text = source.get(query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i))?;
        for kind in root_kinds(text)? {
            let id = grammar.id_for_node_kind(&kind, true);
            // A supertype (`expression`) never is a node's own kind.
            if id == 0 || grammar.node_kind_is_supertype(id) {
                return None;
            }
            // A kind name can stand for several ids (aliases): mark them all.
            for other in 0..grammar.node_kind_count() as u16 {
                if grammar.node_kind_is_named(other) && grammar.node_kind_for_id(other) == Some(kind.as_str()) {
                    table[other as usize] = true;
                }
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

/// Every node of the tree whose kind is marked, in document order.
fn nodes_of_kinds<'t>(root: Node<'t>, table: &[bool]) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if table.get(node.kind_id() as usize).copied().unwrap_or(false) {
            out.push(node);
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// The compiled query of a language, built once per process.
pub(crate) fn compiled(lang: &'static Language) -> Result<&'static CompiledQuery, ExtractError> {
    static CACHE: OnceLock<Vec<OnceLock<Result<CompiledQuery, String>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| LANGUAGES.iter().map(|_| OnceLock::new()).collect());
    let idx = LANGUAGES.iter().position(|l| std::ptr::eq(l, lang)).unwrap_or(0);
    cache[idx]
        .get_or_init(|| compile_query(lang).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|message| ExtractError::Query { lang: lang.name, message: message.clone() })
}

thread_local! {
    static PARSERS: std::cell::RefCell<HashMap<&'static str, Parser>> = std::cell::RefCell::new(HashMap::new());
}

/// Parse `source` with the language's grammar, reusing one parser per thread.
pub(crate) fn parse(lang: &'static Language, source: &str) -> Result<tree_sitter::Tree, ExtractError> {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = match parsers.entry(lang.id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = Parser::new();
                p.set_language(&(lang.grammar)())
                    .map_err(|e| ExtractError::Grammar { lang: lang.name, message: e.to_string() })?;
                v.insert(p)
            }
        };
        parser.parse(source, None).ok_or(ExtractError::NoTree { lang: lang.name })
    })
}

/// One definition gathered from possibly several matches.
struct Definition<'t> {
    kind: Kind,
    node: Node<'t>,
    name: Option<Node<'t>>,
    body: Option<Node<'t>>,
    owner: Option<Node<'t>>,
    docs: Vec<Node<'t>>,
}

/// Extract the AST of a source file in a programming language.
pub fn extract(lang: &'static Language, source: &str) -> Result<AstData, ExtractError> {
    extract_with(lang, source, true)
}

/// [`extract`], optionally running the query over the whole tree (the
/// reference the narrowed run is tested against).
fn extract_with(lang: &'static Language, source: &str, narrow: bool) -> Result<AstData, ExtractError> {
    let compiled = compiled(lang)?;
    let tree = parse(lang, source)?;
    let bytes = source.as_bytes();
    let mut defs: Vec<Definition> = Vec::new();
    let mut def_index: HashMap<usize, usize> = HashMap::new();
    let mut imports: Vec<(usize, String)> = Vec::new();
    let mut scopes: Vec<(Node, String)> = Vec::new();
    let mut headers: Vec<Node> = Vec::new();
    let mut doc_nodes: HashSet<usize> = HashSet::new();
    let mut attribute_nodes: HashSet<usize> = HashSet::new();

    // Run the query only where a pattern can start, one node at a time: the
    // cursor then skips the subtrees no pattern needs.
    let mut cursor = QueryCursor::new();
    let starts = match compiled.roots.as_ref().filter(|_| narrow) {
        Some(table) => {
            cursor.set_max_start_depth(Some(0));
            nodes_of_kinds(tree.root_node(), table)
        }
        None => vec![tree.root_node()],
    };
    for start in starts {
    let mut matches = cursor.matches(&compiled.query, start, bytes);
    while let Some(m) = matches.next() {
        let mut def: Option<(Kind, Node)> = None;
        let (mut name, mut body, mut scope, mut owner) = (None, None, None, None);
        let mut docs = Vec::new();
        for c in m.captures {
            match compiled.roles[c.index as usize] {
                Some(Role::Definition(k)) => def = Some((k, c.node)),
                Some(Role::Name) => name = Some(c.node),
                Some(Role::Body) => body = Some(c.node),
                Some(Role::Doc) => docs.push(c.node),
                Some(Role::Import) => imports.push((c.node.start_byte(), unquote(text(c.node, bytes)))),
                Some(Role::Scope) => scope = Some(c.node),
                Some(Role::Header) => headers.push(c.node),
                Some(Role::Owner) => owner = Some(c.node),
                Some(Role::Attribute) => {
                    attribute_nodes.insert(c.node.id());
                }
                None => {}
            }
        }
        if let (Some(s), Some(n)) = (scope, name) {
            scopes.push((s, text(n, bytes).to_string()));
        }
        if def.is_none() {
            doc_nodes.extend(docs.iter().map(|n| n.id()));
            docs.clear();
        }
        if let Some((kind, node)) = def {
            match def_index.get(&node.id()) {
                Some(&i) => {
                    let d = &mut defs[i];
                    // A node that is both a variable and a function (a constant
                    // holding an arrow function) is a function.
                    let upgrade = matches!(kind, Kind::Function | Kind::Method) && d.kind == Kind::Variable;
                    if upgrade {
                        d.kind = kind;
                        d.body = body.or(d.body);
                    } else if kind == d.kind {
                        d.body = d.body.or(body);
                    }
                    d.name = d.name.or(name);
                    d.owner = d.owner.or(owner);
                    if docs.len() > d.docs.len() {
                        d.docs = docs;
                    }
                }
                None => {
                    def_index.insert(node.id(), defs.len());
                    defs.push(Definition { kind, node, name, body, owner, docs });
                }
            }
        }
    }

    }

    let mut ast = AstData::default();
    defs.sort_by_key(|d| d.node.start_byte());
    // Class-like definitions also own the methods nested in them.
    for d in &defs {
        if matches!(d.kind, Kind::Class | Kind::Struct | Kind::Interface | Kind::Enum) {
            if let Some(n) = d.name {
                scopes.push((d.node, text(n, bytes).to_string()));
            }
        }
    }
    let def_ids: HashSet<usize> = defs.iter().map(|d| d.node.id()).collect();
    for d in &defs {
        let element = AstElement {
            signature: signature(d, source, &attribute_nodes),
            comments: doc_comments(d, source, &doc_nodes, &attribute_nodes, &def_ids),
            owner: d
                .owner
                .map(|o| text(o, bytes).trim_start_matches(['*', '&']).trim().to_string())
                .or_else(|| owner_of(d, &scopes)),
            line: Some(line_range(d.node)),
        };
        let list = match d.kind {
            Kind::Function | Kind::Method => &mut ast.functions,
            Kind::Class => &mut ast.classes,
            Kind::Struct => &mut ast.structs,
            Kind::Enum => &mut ast.enums,
            Kind::Interface => &mut ast.interfaces,
            Kind::Variable => &mut ast.variables,
        };
        if !element.signature.is_empty() && !list.iter().any(|e| e.signature == element.signature && e.line == element.line) {
            list.push(element);
        }
    }

    imports.sort_by_key(|(pos, _)| *pos);
    for (_, imp) in imports {
        if !imp.is_empty() && !ast.imports.contains(&imp) {
            ast.imports.push(imp);
        }
    }
    ast.header_comments = header_comments(&headers, &attribute_nodes, source);
    Ok(ast)
}

pub(crate) fn text<'s>(node: Node, bytes: &'s [u8]) -> &'s str {
    node.utf8_text(bytes).unwrap_or("")
}

pub(crate) fn line_range(node: Node) -> LineRange {
    let end = node.end_position();
    // A node ending at column 0 ends on the previous line.
    let end_row = if end.column == 0 && end.row > node.start_position().row { end.row - 1 } else { end.row };
    LineRange { start: node.start_position().row as u32 + 1, end: end_row as u32 + 1 }
}

/// The declaration cut before its body, on one line. Attributes and
/// decorators that lead the node (captured `@attribute`) are left out.
fn signature(d: &Definition, source: &str, attributes: &HashSet<usize>) -> String {
    let start = after_leading_attributes(d.node, attributes);
    let end = match d.body {
        Some(b) if b.start_byte() > start => b.start_byte(),
        _ => d.node.end_byte(),
    };
    let raw = &source[start..end];
    // Without a body the first line is the declaration.
    let raw = if d.body.is_none() { raw.lines().next().unwrap_or("") } else { raw };
    let mut sig = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let trimmed = sig
            .trim_end()
            .trim_end_matches("=>")
            .trim_end_matches(['{', '=', ':', ';'])
            .trim_end();
        if trimmed.len() == sig.len() {
            break;
        }
        sig = trimmed.to_string();
    }
    if sig.chars().count() > MAX_SIGNATURE_CHARS {
        sig = sig.chars().take(MAX_SIGNATURE_CHARS).collect::<String>() + "…";
    }
    sig
}

/// Where a definition's text starts once leading attributes are skipped, also
/// those at the start of a `modifiers` node (keywords after them are kept).
fn after_leading_attributes(node: Node, attributes: &HashSet<usize>) -> usize {
    let mut start = node.start_byte();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if attributes.contains(&child.id()) {
            start = child.end_byte();
        } else if child.kind().contains("modifier") {
            let mut inner = child.walk();
            for m in child.children(&mut inner) {
                if attributes.contains(&m.id()) {
                    start = m.end_byte();
                } else {
                    return start;
                }
            }
        } else {
            return start;
        }
    }
    start
}

/// Doc comments of a definition: a docstring inside it, or else the run of
/// doc comments that touches it.
fn doc_comments(d: &Definition, source: &str, docs: &HashSet<usize>, attributes: &HashSet<usize>, defs: &HashSet<usize>) -> Vec<String> {
    let inside = d
        .docs
        .iter()
        .filter(|n| n.start_byte() >= d.node.start_byte() && n.end_byte() <= d.node.end_byte())
        .min_by_key(|n| n.start_byte());
    if let Some(n) = inside {
        return clean_comment(&source[n.start_byte()..n.end_byte()]);
    }
    let mut kept: Vec<Node> = Vec::new();
    let mut next_start = d.node.start_byte();
    let mut anchor = d.node;
    loop {
        match anchor.prev_named_sibling() {
            Some(prev) if docs.contains(&prev.id()) || attributes.contains(&prev.id()) => {
                if has_blank_line(&source[prev.end_byte()..next_start]) {
                    break;
                }
                if docs.contains(&prev.id()) {
                    // A comment that ends another line's code trails that code.
                    let trailing = prev
                        .prev_sibling()
                        .is_some_and(|before| line_range(before).end as usize == prev.start_position().row + 1 && before.end_byte() <= prev.start_byte());
                    if trailing {
                        break;
                    }
                    kept.push(prev);
                }
                next_start = prev.start_byte();
                anchor = prev;
            }
            Some(_) => break,
            None => match anchor.parent() {
                // The first child of a wrapper: go on from the wrapper, unless
                // the wrapper groups several elements (`const ( … )`).
                Some(parent) if parent.parent().is_some() && !groups_others(parent, d.node, defs) => anchor = parent,
                _ => break,
            },
        }
    }
    kept.reverse();
    kept.into_iter().flat_map(|n| clean_comment(&source[n.start_byte()..n.end_byte()])).collect()
}

/// Whether `parent` holds another definition besides `own`.
fn groups_others(parent: Node, own: Node, defs: &HashSet<usize>) -> bool {
    let mut cursor = parent.walk();
    let others = parent.named_children(&mut cursor).any(|c| c.id() != own.id() && defs.contains(&c.id()));
    others
}

fn has_blank_line(between: &str) -> bool {
    let segments: Vec<&str> = between.split('\n').collect();
    segments.len() > 2 && segments[1..segments.len() - 1].iter().any(|l| l.trim().is_empty())
}

/// Header comments: captured comments preceded only by other captured
/// comments or attributes (a shebang, `@echo off`).
fn header_comments(headers: &[Node], attributes: &HashSet<usize>, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ids: Vec<usize> = headers.iter().map(|n| n.id()).collect();
    let mut sorted: Vec<Node> = headers.to_vec();
    sorted.sort_by_key(|n| n.start_byte());
    sorted.dedup_by_key(|n| n.id());
    for n in sorted {
        let mut prev = n.prev_named_sibling();
        let mut leading = true;
        while let Some(p) = prev {
            if !ids.contains(&p.id()) && !attributes.contains(&p.id()) {
                leading = false;
                break;
            }
            prev = p.prev_named_sibling();
        }
        if leading {
            out.extend(clean_comment(&source[n.start_byte()..n.end_byte()]));
        }
    }
    out
}

/// The innermost scope (class, impl, …) that strictly contains the definition.
fn owner_of(d: &Definition, scopes: &[(Node, String)]) -> Option<String> {
    if !matches!(d.kind, Kind::Function | Kind::Method) {
        return None;
    }
    scopes
        .iter()
        .filter(|(s, _)| s.id() != d.node.id() && s.start_byte() <= d.node.start_byte() && s.end_byte() >= d.node.end_byte())
        .min_by_key(|(s, _)| s.end_byte() - s.start_byte())
        .map(|(_, name)| name.clone())
}

/// Comment text without its markers, one entry per non-empty line.
pub(crate) fn clean_comment(raw: &str) -> Vec<String> {
    const PREFIXES: &[&str] = &[
        "///", "//!", "//", "/**", "/*!", "/*", "#'", "#", "::", "r\"\"\"", "\"\"\"", "'''", "\"", "'",
    ];
    const SUFFIXES: &[&str] = &["*/", "\"\"\"", "'''", "\"", "'"];
    raw.lines()
        .filter_map(|line| {
            let mut l = line.trim();
            for p in PREFIXES {
                if let Some(rest) = l.strip_prefix(p) {
                    l = rest;
                    break;
                }
            }
            let unat = l.strip_prefix('@').unwrap_or(l);
            if unat.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("rem ")) || unat.eq_ignore_ascii_case("rem") {
                l = &unat[3..];
            }
            for s in SUFFIXES {
                if let Some(rest) = l.strip_suffix(s) {
                    l = rest;
                    break;
                }
            }
            let l = strip_doc_tags(l.trim().trim_start_matches('*').trim());
            let l = l.trim();
            (!l.is_empty()).then(|| l.to_string())
        })
        .collect()
}

/// XML documentation tags (C#) that carry no text of their own.
const DOC_TAGS: &[&str] = &[
    "summary", "remarks", "returns", "param", "typeparam", "paramref", "typeparamref", "see", "seealso", "value",
    "example", "code", "c", "exception", "para", "inheritdoc", "list", "item", "description", "term",
];

/// Remove XML documentation tags, keeping their text and `name`/`cref` values.
fn strip_doc_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else { break };
        let tag = &rest[open + 1..open + close];
        let name = tag.trim_start_matches('/').split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("");
        out.push_str(&rest[..open]);
        if DOC_TAGS.contains(&name) {
            if let Some(v) = tag.split('"').nth(1).filter(|_| tag.contains("name=") || tag.contains("cref=")) {
                out.push_str(v);
                out.push(' ');
            }
        } else {
            out.push_str(&rest[open..=open + close]);
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// An import's text without surrounding quotes or angle brackets.
fn unquote(s: &str) -> String {
    s.trim().trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '<' || c == '>').trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_comment_markers() {
        assert_eq!(clean_comment("/// Adds two numbers"), vec!["Adds two numbers"]);
        assert_eq!(clean_comment("/**\n * Line one\n * Line two\n */"), vec!["Line one", "Line two"]);
        assert_eq!(clean_comment("\"\"\"Adds two numbers\"\"\""), vec!["Adds two numbers"]);
        assert_eq!(clean_comment("REM Builds it"), vec!["Builds it"]);
        assert_eq!(clean_comment("@rem Builds it"), vec!["Builds it"]);
        assert_eq!(clean_comment(":: Builds it"), vec!["Builds it"]);
        assert_eq!(clean_comment("# shell doc"), vec!["shell doc"]);
        assert_eq!(clean_comment("/// <summary>Adds two numbers.</summary>"), vec!["Adds two numbers."]);
        assert_eq!(clean_comment("/// <param name=\"a\">First.</param>"), vec!["a First."]);
        assert_eq!(clean_comment("/// Returns a Vec<String>."), vec!["Returns a Vec<String>."]);
    }

    #[test]
    fn blank_line_detection() {
        assert!(!has_blank_line("\n"));
        assert!(!has_blank_line("\n#[derive(Debug)]\n"));
        assert!(has_blank_line("\n\n"));
        assert!(has_blank_line("\n   \n"));
    }
}

#[cfg(test)]
mod root_tests {
    use super::*;

    #[test]
    fn pattern_roots_are_named() {
        assert_eq!(root_kinds("(function_item name: (identifier) @name) @definition.function"), Some(vec!["function_item".to_string()]));
        assert_eq!(root_kinds("((comment) @doc (#match? @doc \"^///\"))"), Some(vec!["comment".to_string()]));
        assert_eq!(root_kinds("[(class_declaration) (struct_declaration)] @x"), Some(vec!["class_declaration".to_string(), "struct_declaration".to_string()]));
        assert_eq!(root_kinds("((comment)* @doc . (function_item) @definition.function)"), None);
        assert_eq!(root_kinds("(_ . (variable_declarator)) @definition.variable"), None);
        assert_eq!(root_kinds("[\"static\" (x)]"), None);
    }

    #[test]
    fn most_languages_run_the_query_only_at_pattern_roots() {
        let narrowed: Vec<&str> = LANGUAGES
            .iter()
            .filter(|l| l.id != "markdown")
            .filter(|l| compiled(l).unwrap().roots.is_some())
            .map(|l| l.id)
            .collect();
        eprintln!("narrowed: {narrowed:?}");
        assert!(narrowed.len() >= 8, "{narrowed:?}");
    }

    /// The narrowed run finds exactly what a run over the whole tree finds,
    /// on this repository's sources and fixtures and, when installed, the
    /// Python standard library.
    #[test]
    fn narrowed_runs_match_full_runs_on_real_code() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let stdlib = std::path::PathBuf::from("/usr/lib/python3.11");
        let mut checked = 0;
        for root in [repo.join("ingest"), repo.join("gateway"), repo.join("tests"), stdlib.join("json"), stdlib.join("asyncio")] {
            for entry in ignore::WalkBuilder::new(&root).build().flatten() {
                let path = entry.path();
                let (Some(lang), Ok(text)) = (super::super::languages::for_path(path), std::fs::read_to_string(path)) else { continue };
                if lang.id == "markdown" {
                    continue;
                }
                let narrowed = extract_with(lang, &text, true).unwrap();
                let full = extract_with(lang, &text, false).unwrap();
                assert_eq!(narrowed, full, "{}", path.display());
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} files checked");
    }
}
