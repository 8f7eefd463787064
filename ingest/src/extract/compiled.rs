//! A language's query, compiled once per process and checked against the
//! captures and predicates the engine knows (`engine.rs`), and the parsers,
//! one per thread and language.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use thiserror::Error;
use tree_sitter::{Node, ParseOptions, ParseState, Parser, Query, QueryPredicateArg};
use vibe_common::document::ast::LineRange;
use vibe_common::error_chain::BoxError;

use super::direct::Plan;
use super::grammars::{Extractor, Language, LANGUAGES};
use vibe_common::document::kinds::ElementKind;
use vibe_common::document::kinds::ReferenceKind;

#[derive(Debug, Error)]
pub enum ExtractError {
    /// The query text could not be read (`VIBE_QUERY_DIR`) or does not compile.
    #[error("query for {lang} does not compile")]
    Query {
        lang: &'static str,
        #[source]
        source: BoxError,
    },
    #[error("query for {lang} uses unknown capture @{capture}")]
    UnknownCapture { lang: &'static str, capture: String },
    #[error("query for {lang} uses unknown predicate #{predicate}")]
    UnknownPredicate { lang: &'static str, predicate: String },
    #[error("grammar for {lang} cannot be loaded")]
    Grammar {
        lang: &'static str,
        #[source]
        source: tree_sitter::LanguageError,
    },
    #[error("{lang} parser produced no tree")]
    NoTree { lang: &'static str },
    /// The grammar's error recovery ran past [`parse_budget`] (a mutated
    /// Kotlin file of 1.3 KB kept tree-sitter-kotlin-ng busy for minutes):
    /// the file is kept as text and counted as failed.
    #[error("{lang} parser gave up after {} ms ({bytes} bytes)", budget.as_millis())]
    ParseTimeout { lang: &'static str, bytes: usize, budget: Duration },
    /// The error of a query compiled once per process, for every later call.
    #[error(transparent)]
    Cached(Arc<ExtractError>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Definition(ElementKind),
    Name,
    Body,
    Doc,
    Import,
    Scope,
    Namespace,
    LocalScope,
    Header,
    Attribute,
    Owner,
    Supertype,
    Reference(ReferenceKind),
    /// Bytes the grammar cannot read past, blanked for a second parse
    /// (`masks.rs`): a Rust macro's wrapper around items, a C#
    /// directive splitting a declaration.
    Mask,
}

/// Capture names a query may use, each with its role.
/// Capture names of Markdown's block query (`markdown.rs` reads them).
pub(crate) const MARKDOWN_CAPTURES: &[&str] =
    &["heading", "code.language", "inline", "reference.label", "reference.url"];

const CODE_CAPTURES: &[(&str, Role)] = &[
    ("definition.function", Role::Definition(ElementKind::Function)),
    ("definition.method", Role::Definition(ElementKind::Method)),
    ("definition.class", Role::Definition(ElementKind::Class)),
    ("definition.type", Role::Definition(ElementKind::Type)),
    ("definition.struct", Role::Definition(ElementKind::Struct)),
    ("definition.enum", Role::Definition(ElementKind::Enum)),
    ("definition.interface", Role::Definition(ElementKind::Interface)),
    ("definition.trait", Role::Definition(ElementKind::Trait)),
    ("definition.variable", Role::Definition(ElementKind::Variable)),
    ("definition.constant", Role::Definition(ElementKind::Constant)),
    ("definition.field", Role::Definition(ElementKind::Field)),
    ("name", Role::Name),
    ("body", Role::Body),
    ("doc", Role::Doc),
    ("import", Role::Import),
    ("scope", Role::Scope),
    ("namespace", Role::Namespace),
    ("local.scope", Role::LocalScope),
    ("header", Role::Header),
    ("attribute", Role::Attribute),
    ("owner", Role::Owner),
    ("supertype", Role::Supertype),
    ("reference.call", Role::Reference(ReferenceKind::Call)),
    ("reference.type", Role::Reference(ReferenceKind::Type)),
    ("reference.import", Role::Reference(ReferenceKind::Import)),
    ("reference.read", Role::Reference(ReferenceKind::Read)),
    ("reference.default", Role::Reference(ReferenceKind::Default)),
    ("mask", Role::Mask),
];

/// A language's query, compiled, with each capture index mapped to its role.
pub struct CompiledQuery {
    pub query: Query,
    pub(super) roles: Vec<Option<Role>>,
    /// How the query runs without the cursor over the whole tree
    /// (`direct/`); `None` runs the cursor over the whole tree (Markdown, a
    /// query with a wildcard root, or the reference the plan is tested against).
    pub(crate) plan: Option<Plan>,
    /// Per pattern, its `(#adjacent? @a @b)` predicates: `@a` ends where
    /// `@b` starts (no space or token between them).
    pub(super) adjacent: Vec<Vec<(u32, u32)>>,
}

/// Compile a language's query and check every capture and predicate.
pub fn compile_query(lang: &'static Language) -> Result<CompiledQuery, ExtractError> {
    compile_query_as(lang, Matching::Narrowed)
}

/// How the engine runs a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Matching {
    /// The cursor at every node, whatever its kind: the reference.
    Cursor,
    /// Only at the nodes where a pattern can start, the simple patterns
    /// matched directly.
    Narrowed,
}

pub(crate) fn compile_query_as(lang: &'static Language, matching: Matching) -> Result<CompiledQuery, ExtractError> {
    let allowed: Vec<&str> = match lang.extractor {
        Extractor::Markdown => MARKDOWN_CAPTURES.to_vec(),
        Extractor::Queries => CODE_CAPTURES.iter().map(|(n, _)| *n).collect(),
    };
    let grammar = (lang.grammar)();
    let source = super::grammars::query_source(lang)
        .map_err(|message| ExtractError::Query { lang: lang.name, source: message.into() })?;
    let query = Query::new(&grammar, &source).map_err(|e| ExtractError::Query { lang: lang.name, source: e.into() })?;
    let mut roles = Vec::new();
    for name in query.capture_names() {
        if !allowed.contains(name) && !name.starts_with('_') {
            return Err(ExtractError::UnknownCapture { lang: lang.name, capture: name.to_string() });
        }
        roles.push(CODE_CAPTURES.iter().find(|(n, _)| n == name).map(|(_, r)| *r));
    }
    let mut adjacent = Vec::with_capacity(query.pattern_count());
    for i in 0..query.pattern_count() {
        let mut pairs = Vec::new();
        for p in query.general_predicates(i) {
            match (&*p.operator, &p.args[..]) {
                ("adjacent?", [QueryPredicateArg::Capture(a), QueryPredicateArg::Capture(b)]) => pairs.push((*a, *b)),
                _ => return Err(ExtractError::UnknownPredicate { lang: lang.name, predicate: p.operator.to_string() }),
            }
        }
        adjacent.push(pairs);
        if let Some(p) = query.property_settings(i).iter().find(|p| &*p.key != "name" && &*p.key != "name.word") {
            return Err(ExtractError::UnknownPredicate { lang: lang.name, predicate: format!("set! {}", p.key) });
        }
    }
    // Markdown's extractor runs the cursor over the whole tree; so does a
    // query where some pattern left to the cursor can start anywhere.
    let plan = (matching == Matching::Narrowed && lang.extractor == Extractor::Queries)
        .then(|| Plan::compile(&query, &source, &grammar))
        .flatten();
    Ok(CompiledQuery { query, roles, plan, adjacent })
}

/// The compiled query of a language, built once per process.
pub(crate) fn compiled(lang: &'static Language) -> Result<&'static CompiledQuery, ExtractError> {
    compiled_as(lang, Matching::Narrowed)
}

type Compiled = Result<CompiledQuery, Arc<ExtractError>>;

/// The cell of a language's query compiled for `matching`.
fn cell(lang: &'static Language, matching: Matching) -> &'static OnceLock<Compiled> {
    static CACHE: OnceLock<[Vec<OnceLock<Compiled>>; 2]> = OnceLock::new();
    let cache = CACHE.get_or_init(|| [(); 2].map(|_| LANGUAGES.iter().map(|_| OnceLock::new()).collect()));
    let idx = LANGUAGES.iter().position(|l| std::ptr::eq(l, lang)).unwrap_or(0);
    &cache[matching as usize][idx]
}

/// Whether the language's query for `matching` is compiled already.
pub(super) fn is_compiled(lang: &'static Language, matching: Matching) -> bool {
    cell(lang, matching).get().is_some()
}

pub(super) fn compiled_as(lang: &'static Language, matching: Matching) -> Result<&'static CompiledQuery, ExtractError> {
    cell(lang, matching)
        .get_or_init(|| compile_query_as(lang, matching).map_err(Arc::new))
        .as_ref()
        .map_err(|e| ExtractError::Cached(e.clone()))
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
                    .map_err(|source| ExtractError::Grammar { lang: lang.name, source })?;
                v.insert(p)
            }
        };
        let budget = parse_budget(source.len());
        let deadline = Instant::now() + budget;
        // The callback answers "stop?"; tree-sitter asks it every few
        // hundred parse operations.
        let mut past_deadline = |_: &ParseState| Instant::now() > deadline;
        let options = ParseOptions::new().progress_callback(&mut past_deadline);
        let bytes = source.as_bytes();
        let mut read = |at: usize, _| bytes.get(at..).unwrap_or_default();
        match parser.parse_with_options(&mut read, None, Some(options)) {
            Some(tree) => Ok(tree),
            None if Instant::now() > deadline => {
                // A cancelled parser resumes its old parse unless reset.
                parser.reset();
                Err(ExtractError::ParseTimeout { lang: lang.name, bytes: source.len(), budget })
            }
            None => Err(ExtractError::NoTree { lang: lang.name }),
        }
    })
}

/// How long one file may take to parse: 2 s, and 1 s more per 64 KiB, far
/// above any real file's time (tree-sitter parses megabytes a second, a
/// debug build a few hundred kilobytes) and far below a runaway's.
pub(crate) fn parse_budget(bytes: usize) -> Duration {
    Duration::from_secs(2) + Duration::from_secs_f64(bytes as f64 / 65_536.0)
}

/// A node's text in the file's bytes (empty when not UTF-8).
pub(crate) fn text<'s>(node: Node, bytes: &'s [u8]) -> &'s str {
    node.utf8_text(bytes).unwrap_or("")
}

/// The lines a node spans, 1-based; a node ending at column 0 ends on
/// the line before.
pub(crate) fn line_range(node: Node) -> LineRange {
    let end = node.end_position();
    // A node ending at column 0 ends on the previous line.
    let end_row = if end.column == 0 && end.row > node.start_position().row { end.row - 1 } else { end.row };
    LineRange { start: node.start_position().row as u32 + 1, end: end_row as u32 + 1 }
}
