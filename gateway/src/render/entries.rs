//! One entry of an answer's lists, as [`super`] writes it: a definition
//! (`L12-30 kind Owner.name: signature`, its doc, its code as numbered
//! lines), a line of a file or a use (`12: text`, `12 type: text`,
//! `12 in f`), a section of a document.

use std::fmt::Write;

use vibe_common::document::kinds::ElementKind;

use super::code_lines::{self, element_code, shows_signature};
use super::one_line;
use crate::answers::{
    Call, DefinitionHead, DocSection, LineHit, MapDefinition, OutlineElement, SymbolMatch, TypeLink, Use,
};

/// An entry of a result's or a file's lists.
#[derive(Clone, Copy)]
pub(super) enum Item<'a> {
    /// A definition a search found.
    Definition(&'a SymbolMatch),
    /// A line of a file: a text hit, or a line holding a question's words.
    Line(&'a LineHit),
    /// A use of the name asked for.
    Use(&'a Use),
    /// A name a definition uses.
    Call(&'a Call),
    /// A subtype or supertype.
    Type(&'a TypeLink),
    /// A definition of the ranked map.
    Mapped(&'a MapDefinition),
    /// A section of a document.
    Section(&'a DocSection),
    /// An element of an outline.
    Element(&'a OutlineElement),
}

impl<'a> Item<'a> {
    /// The head of a definition a search, a hierarchy or the map lists.
    fn head(self) -> Option<&'a DefinitionHead> {
        match self {
            Item::Definition(d) => Some(&d.head),
            Item::Type(t) => Some(&t.head),
            Item::Mapped(m) => Some(&m.head),
            _ => None,
        }
    }

    fn line(self) -> Option<u64> {
        match self {
            Item::Line(l) => Some(l.line.0),
            Item::Use(u) => Some(u.line.0),
            Item::Call(c) => Some(c.at.line.0),
            _ => None,
        }
    }

    fn name(self) -> Option<&'a str> {
        match self {
            _ if self.head().is_some() => self.head().map(|h| h.name.as_str()),
            Item::Call(c) => Some(&c.name),
            Item::Element(e) => Some(&e.name),
            _ => None,
        }
    }

    fn owner(self) -> Option<&'a str> {
        match self {
            Item::Element(e) => e.owner.as_deref(),
            _ => self.head()?.owner.as_deref(),
        }
    }

    fn lines(self) -> Option<&'a str> {
        match self {
            Item::Section(s) => Some(&s.lines),
            Item::Element(e) => e.lines.as_deref(),
            _ => self.head()?.lines.as_deref(),
        }
    }

    pub(super) fn text(self) -> Option<&'a str> {
        match self {
            Item::Line(l) => Some(&l.text),
            Item::Use(u) => u.text.as_deref(),
            Item::Call(c) => c.at.text.as_deref(),
            _ => None,
        }
    }

    fn kind(self) -> Option<&'a str> {
        match self {
            Item::Use(u) => Some(u.kind.name()),
            Item::Call(c) => Some(c.at.kind.name()),
            Item::Element(e) => Some(&e.kind),
            _ => self.head().map(|h| h.kind.as_str()),
        }
    }

    /// The definition a line or a use is in.
    pub(super) fn within(self) -> Option<&'a str> {
        match self {
            Item::Line(l) => l.within.as_deref(),
            Item::Use(u) => u.within.as_deref(),
            Item::Call(c) => c.at.within.as_deref(),
            _ => None,
        }
    }

    /// A line shown around a hit, not a hit.
    pub(super) fn is_context(self) -> bool {
        matches!(self, Item::Line(l) if l.context == Some(true))
    }

    fn signature(self) -> Option<&'a str> {
        match self {
            Item::Element(e) => e.signature.as_deref(),
            _ => self.head()?.signature.as_deref(),
        }
    }

    fn doc(self) -> Option<&'a str> {
        match self {
            Item::Definition(d) => d.doc.as_deref(),
            Item::Element(e) => e.doc.as_deref(),
            _ => None,
        }
    }

    /// The item's code, its `code_lines` and its `code_skip`.
    fn code(self) -> Option<(&'a str, Option<&'a str>, Option<&'a str>)> {
        match self {
            Item::Definition(d) => Some((d.code.as_deref()?, d.code_lines.as_deref(), d.code_skip.as_deref())),
            Item::Element(e) => Some((e.code.as_deref()?, None, e.code_skip.as_deref())),
            _ => None,
        }
    }

    /// A matching line or a use (its line, and no name or lines of its own),
    /// not a definition.
    pub(super) fn is_line_hit(self) -> bool {
        self.line().is_some() && self.name().is_none() && self.lines().is_none()
    }

    /// A definition with its lines: one a file's path can carry.
    pub(super) fn is_definition_with_lines(self) -> bool {
        self.lines().is_some() && self.name().is_some()
    }

    /// Whether two entries are the same definition's overloads (name and owner).
    pub(super) fn same_definition(self, other: Item) -> bool {
        self.name().is_some() && self.name() == other.name() && self.owner() == other.owner()
    }
}

/// How much of an element's doc its entry shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Doc {
    /// All of it: the answer is about this element (`get_file_ast`).
    Whole,
    /// Its first [`DOC_CHARS`]: one result among others.
    Gist,
    /// None: an overload's doc, said just above it.
    Said,
}

/// Characters of a search result's doc summary a model reads (its gist;
/// `get_file_ast` with the symbol gives the whole doc).
pub(super) const DOC_CHARS: usize = 100;

/// One entry: `L12-30 kind Owner.name: signature` (no kind for a function
/// or method), its `doc`, and its code as numbered lines; a text hit or a
/// use as `12: text` (`12 type: text` for a use that is not a call; `12 in
/// f` for a use without its text), `margin` bytes of its indentation
/// (those its neighbours share) taken off.
pub(super) fn entry(out: &mut String, item: Item, indent: &str, margin: usize, doc: Doc) {
    if let (Some(line), true) = (item.line(), item.is_line_hit()) {
        let sep = if item.is_context() { '-' } else { ':' };
        // A use says its kind unless it is a call.
        let kind = item.kind().filter(|k| *k != "call").map_or(String::new(), |k| format!(" {k}"));
        let _ = match item.text() {
            Some(t) => writeln!(out, "{indent}{line}{kind}{sep} {}", t.get(margin..).unwrap_or(t.trim_start())),
            None => {
                writeln!(out, "{indent}{line}{kind}{}", item.within().map_or(String::new(), |i| format!(" in {i}")))
            }
        };
        return;
    }
    let head = head(item);
    let _ = writeln!(out, "{indent}{head}");
    let deeper = format!("{indent}  ");
    let code = item.code();
    // A doc the shown code holds (a docstring among lines chosen for words)
    // is not said twice.
    let shown_doc = |t: &str| code.is_some_and(|(c, _, _)| code_lines::shows_doc(c, t));
    if let Some(text) = item.doc().filter(|t| !t.is_empty() && doc != Doc::Said && !shown_doc(t)) {
        let max = if doc == Doc::Gist { DOC_CHARS } else { usize::MAX };
        let _ = writeln!(out, "{deeper}{}", at_most_words(&one_line(text), max));
    }
    if let Item::Section(DocSection { passage: Some(passage), .. }) = item {
        if !passage.is_empty() {
            let _ = writeln!(out, "{deeper}{}", one_line(passage));
        }
    }
    if let Some((code, code_lines, code_skip)) = code {
        element_code(out, code, item.lines(), code_lines, code_skip);
    }
    if let Item::Definition(d) = item {
        named_values(out, &d.values, &deeper);
    }
    if let Item::Element(OutlineElement { level: Some(level), .. }) = item {
        let _ = writeln!(out, "{deeper}level: {level}");
    }
}

/// The named values a definition reads, one line each, as grep shows a
/// line: `value L6: PI_APPROX = 3.14159` in its own file,
/// `value src/consts.py:6: …` in another.
pub(super) fn named_values(out: &mut String, values: &[crate::answers::NamedValue], indent: &str) {
    for v in values {
        let at = v.path.as_deref().map_or(format!("L{}", v.line.0), |p| format!("{p}:{}", v.line.0));
        let _ = writeln!(out, "{indent}value {at}: {}", v.text);
    }
}

/// A definition's first line: `L12-30 kind Owner.name, called by f in g
/// (depth 2): signature — used in 3 files`.
fn head(item: Item) -> String {
    let mut head = String::new();
    if let Some(lines) = item.lines().map(str::to_string).or_else(|| item.line().map(|l| l.to_string())) {
        let _ = write!(head, "L{lines} ");
    }
    if let Item::Section(DocSection { heading: Some(heading), .. }) = item {
        let _ = write!(head, "# {heading} ");
    }
    // A function's or method's signature says what it is.
    if let Some(kind) = item.kind().filter(|k| !ElementKind::parse(k).is_some_and(ElementKind::is_callable)) {
        let _ = write!(head, "{kind} ");
    }
    if let Some(name) = item.name() {
        if let Some(owner) = item.owner() {
            let _ = write!(head, "{owner}.");
        }
        let _ = write!(head, "{name} ");
    }
    if let Item::Definition(SymbolMatch { called_by: Some(caller), .. }) = item {
        head.truncate(head.trim_end().len());
        let _ = write!(head, ", called by {caller} ");
    }
    if let Some(inside) = item.within() {
        let _ = write!(head, "in {inside} ");
    }
    let mut head = head.trim_end().to_string();
    if let Item::Type(TypeLink { depth: Some(depth), .. }) = item {
        let _ = write!(head, " (depth {depth})");
    }
    let code = item.code().map(|(c, _, _)| c);
    let sig = item.signature().or(item.text()).filter(|s| !s.is_empty());
    // The signature is said once: by the code when its first lines show it.
    if let Some(sig) = sig.filter(|sig| !code.is_some_and(|c| shows_signature(c, sig))) {
        let _ = write!(head, ": {}", one_line(sig));
    }
    if let Item::Mapped(m) = item {
        let _ = write!(head, " — used in {}", vibe_common::text::units::count(m.used_in as usize, "file", "files"));
    }
    head
}

/// `text` cut after its last whole word within `max` characters, `…` said.
pub(super) fn at_most_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    // One character more: a word ending at `max` is whole.
    let head: String = text.chars().take(max + 1).collect();
    // No space: the first `max` characters.
    let end = head.rfind(' ').unwrap_or_else(|| head.char_indices().nth(max).map_or(head.len(), |(i, _)| i));
    format!("{}…", head[..end].trim_end_matches([',', ';', ':']))
}
