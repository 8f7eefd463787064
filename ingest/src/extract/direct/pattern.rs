//! The text of a query pattern, parsed into the direct matcher's steps
//! (`README.md` lists the subset); anything outside it is [`Unsupported`].

use regex::bytes::Regex;
use tree_sitter::{Language as Grammar, Query};

use std::num::NonZeroU16 as FieldId;

/// What a step accepts.
#[derive(Debug)]
pub(super) enum Test {
    Kinds(Vec<u16>),
    Named,
    Any,
}

/// One alternative of a node pattern: its test, captures and children.
#[derive(Debug)]
pub(super) struct Alt {
    pub(super) test: Test,
    pub(super) captures: Vec<u32>,
    pub(super) children: Vec<Child>,
    /// `!field`: fields the node must not have.
    pub(super) absent: Vec<FieldId>,
}

#[derive(Debug)]
pub(super) struct Child {
    pub(super) field: Option<FieldId>,
    /// `.` before it: no named node between the previous child's match (or
    /// the parent's start) and it.
    pub(super) anchored: bool,
    pub(super) optional: bool,
    /// Every alternative captures something, itself or below (tree-sitter's
    /// `contains_captures`): then tree-sitter tries each candidate child in
    /// turn, not just the first.
    pub(super) captures: bool,
    pub(super) alts: Vec<Alt>,
}

impl Alt {
    /// Whether this step or one below it captures something.
    pub(super) fn captures_anything(&self) -> bool {
        !self.captures.is_empty() || self.children.iter().any(|c| c.alts.iter().any(Alt::captures_anything))
    }
}

#[derive(Debug)]
pub(super) enum Predicate {
    Match { capture: u32, regex: Regex, positive: bool },
    Eq { capture: u32, text: String, positive: bool },
    EqCapture { a: u32, b: u32, positive: bool },
    AnyOf { capture: u32, texts: Vec<String>, positive: bool },
}

#[derive(Debug)]
pub(super) struct Pattern {
    pub(super) index: usize,
    pub(super) alts: Vec<Alt>,
    pub(super) predicates: Vec<Predicate>,
}

/// The ids of a named node kind or of an anonymous token (`"="`): a name can
/// stand for several ids (aliases). `None` when it is unknown or a supertype
/// (`expression`), which never is a node's own kind.
pub(crate) fn kind_ids(grammar: &tree_sitter::Language, kind: &str, named: bool) -> Option<Vec<u16>> {
    if named {
        let id = grammar.id_for_node_kind(kind, true);
        if id == 0 || grammar.node_kind_is_supertype(id) {
            return None;
        }
    }
    let ids: Vec<u16> = (0..grammar.node_kind_count() as u16)
        .filter(|&other| grammar.node_kind_is_named(other) == named && grammar.node_kind_for_id(other) == Some(kind))
        .collect();
    (!ids.is_empty()).then_some(ids)
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token {
    Open,
    Close,
    OpenAlt,
    CloseAlt,
    Anchor,
    Quantifier(char),
    Negate,
    Field(String),
    Word(String),
    Capture(String),
    Predicate(String),
    Str(String),
    Bad,
}

pub(super) fn tokenize(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let word_end = |from: usize, extra: &[char]| {
        text[from..]
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || extra.contains(c)))
            .map_or(text.len(), |(i, _)| from + i)
    };
    while let Some(&(i, c)) = chars.peek() {
        let token = match c {
            c if c.is_whitespace() => {
                chars.next();
                continue;
            }
            ';' => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                continue;
            }
            '(' => Token::Open,
            ')' => Token::Close,
            '[' => Token::OpenAlt,
            ']' => Token::CloseAlt,
            '.' => Token::Anchor,
            '?' | '*' | '+' => Token::Quantifier(c),
            '!' => Token::Negate,
            '"' => {
                chars.next();
                let mut s = String::new();
                let mut closed = false;
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.next().map(|(_, e)| e) {
                            Some('n') => s.push('\n'),
                            Some('r') => s.push('\r'),
                            Some('t') => s.push('\t'),
                            Some('0') => s.push('\0'),
                            Some(e) => s.push(e),
                            None => break,
                        },
                        c => s.push(c),
                    }
                }
                out.push(if closed { Token::Str(s) } else { Token::Bad });
                continue;
            }
            '@' | '#' => {
                let end = word_end(i + 1, &['.', '-', '?', '!']);
                let name = text[i + 1..end].to_string();
                while chars.next_if(|&(j, _)| j < end).is_some() {}
                out.push(if c == '@' { Token::Capture(name) } else { Token::Predicate(name) });
                continue;
            }
            c if c.is_alphanumeric() || c == '_' => {
                let end = word_end(i, &[]);
                let name = text[i..end].to_string();
                while chars.next_if(|&(j, _)| j < end).is_some() {}
                if text[end..].starts_with(':') {
                    chars.next();
                    out.push(Token::Field(name));
                } else {
                    out.push(Token::Word(name));
                }
                continue;
            }
            _ => Token::Bad,
        };
        chars.next();
        out.push(token);
    }
    out
}

/// Not a direct pattern.
pub(super) struct Unsupported;

pub(super) struct PatternParser<'a> {
    tokens: Vec<Token>,
    at: usize,
    query: &'a Query,
    grammar: &'a Grammar,
    pub(super) predicates: Vec<Predicate>,
}

impl<'a> PatternParser<'a> {
    pub(super) fn new(text: &str, query: &'a Query, grammar: &'a Grammar) -> Self {
        PatternParser { tokens: tokenize(text), at: 0, query, grammar, predicates: Vec::new() }
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t
    }

    /// A whole pattern: one node pattern, nothing after it.
    pub(super) fn pattern(&mut self) -> Result<Vec<Alt>, Unsupported> {
        let alts = self.node()?;
        match (self.peek(), alts.is_empty()) {
            (None, false) => Ok(alts),
            _ => Err(Unsupported),
        }
    }

    /// A node pattern with its captures: its alternatives.
    fn node(&mut self) -> Result<Vec<Alt>, Unsupported> {
        let mut alts = match self.next() {
            Some(Token::Word(w)) if w == "_" => vec![Alt::leaf(Test::Any)],
            Some(Token::Str(token)) => {
                vec![Alt::leaf(Test::Kinds(kind_ids(self.grammar, &token, false).ok_or(Unsupported)?))]
            }
            Some(Token::OpenAlt) => {
                let mut alts = Vec::new();
                while self.peek() != Some(&Token::CloseAlt) {
                    alts.extend(self.node()?);
                }
                self.next();
                alts
            }
            Some(Token::Open) => match self.peek() {
                Some(Token::Open | Token::OpenAlt) => self.group()?,
                Some(Token::Word(_)) => vec![self.kind()?],
                _ => return Err(Unsupported),
            },
            _ => return Err(Unsupported),
        };
        self.captures(&mut alts)?;
        Ok(alts)
    }

    /// `@a @b …` after a node pattern: captures of each of its alternatives.
    fn captures(&mut self, alts: &mut [Alt]) -> Result<(), Unsupported> {
        while let Some(Token::Capture(name)) = self.peek() {
            let index = self.query.capture_index_for_name(name).ok_or(Unsupported)?;
            self.next();
            alts.iter_mut().for_each(|a| a.captures.push(index));
        }
        Ok(())
    }

    /// `((node) (#predicate …) …)`, after its `(`.
    fn group(&mut self) -> Result<Vec<Alt>, Unsupported> {
        let alts = self.node()?;
        loop {
            match self.next() {
                Some(Token::Close) => return Ok(alts),
                Some(Token::Open) => self.predicate()?,
                _ => return Err(Unsupported),
            }
        }
    }

    /// `(kind children…)` or `(_ children…)`, after its `(`.
    fn kind(&mut self) -> Result<Alt, Unsupported> {
        let Some(Token::Word(name)) = self.next() else { return Err(Unsupported) };
        let test = if name == "_" {
            Test::Named
        } else {
            if name == "ERROR" || name == "MISSING" {
                return Err(Unsupported);
            }
            let ids = kind_ids(self.grammar, &name, true).ok_or(Unsupported)?;
            Test::Kinds(ids)
        };
        let mut children: Vec<Child> = Vec::new();
        let (mut anchored, mut absent) = (false, Vec::new());
        loop {
            match self.peek() {
                Some(Token::Close) => {
                    self.next();
                    break;
                }
                Some(Token::Anchor) => {
                    self.next();
                    anchored = true;
                }
                Some(Token::Open) if matches!(self.tokens.get(self.at + 1), Some(Token::Predicate(_))) => {
                    self.next();
                    self.predicate()?;
                }
                Some(Token::Negate) => {
                    self.next();
                    let Some(Token::Word(f)) = self.next() else { return Err(Unsupported) };
                    absent.push(self.grammar.field_id_for_name(&f).ok_or(Unsupported)?);
                }
                _ => {
                    let field = match self.peek() {
                        Some(Token::Field(f)) => {
                            let id = self.grammar.field_id_for_name(f).ok_or(Unsupported)?;
                            self.next();
                            Some(id)
                        }
                        _ => None,
                    };
                    let mut alts = self.node()?;
                    let optional = match self.peek() {
                        Some(Token::Quantifier('?')) => {
                            self.next();
                            true
                        }
                        Some(Token::Quantifier(_)) => return Err(Unsupported),
                        _ => false,
                    };
                    // Captures may also follow the quantifier.
                    self.captures(&mut alts)?;
                    let captures = alts.iter().all(Alt::captures_anything);
                    children.push(Child { field, anchored, optional, captures, alts });
                    anchored = false;
                }
            }
        }
        // `.` after the last child ("no named node after it"): tree-sitter
        // judges it within hidden grammar nodes, which the tree does not show
        // (a Swift parameter's default value counts as a last child); left to
        // the cursor.
        if anchored {
            return Err(Unsupported);
        }
        Ok(Alt { test, captures: Vec::new(), children, absent })
    }

    /// `(#name args…)`, after its `(`.
    fn predicate(&mut self) -> Result<(), Unsupported> {
        let Some(Token::Predicate(name)) = self.next() else { return Err(Unsupported) };
        let mut captures = Vec::new();
        let mut strings = Vec::new();
        loop {
            match self.next() {
                Some(Token::Close) => break,
                Some(Token::Capture(c)) => captures.push(self.query.capture_index_for_name(&c).ok_or(Unsupported)?),
                Some(Token::Str(s)) => strings.push(s),
                Some(Token::Word(w)) => strings.push(w),
                _ => return Err(Unsupported),
            }
        }
        let positive = !name.starts_with("not-");
        let predicate = match (name.trim_start_matches("not-"), &captures[..], &strings[..]) {
            // Read by the engine from the query itself.
            ("set!", _, _) | ("adjacent?", [_, _], []) => return Ok(()),
            ("match?", [capture], [re]) => {
                Predicate::Match { capture: *capture, regex: Regex::new(re).map_err(|_| Unsupported)?, positive }
            }
            ("eq?", [capture], [text]) => Predicate::Eq { capture: *capture, text: text.clone(), positive },
            ("eq?", [a, b], []) => Predicate::EqCapture { a: *a, b: *b, positive },
            ("any-of?", [capture], texts) => Predicate::AnyOf { capture: *capture, texts: texts.to_vec(), positive },
            _ => return Err(Unsupported),
        };
        self.predicates.push(predicate);
        Ok(())
    }
}

impl Alt {
    fn leaf(test: Test) -> Alt {
        Alt { test, captures: Vec::new(), children: Vec::new(), absent: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_keep_their_escapes() {
        assert_eq!(tokenize(r#""a\"b\\*\n""#), vec![Token::Str("a\"b\\*\n".into())]);
        assert_eq!(
            tokenize("name: (x) @a.b ; c\n(#not-eq? @a \"s\")"),
            vec![
                Token::Field("name".into()),
                Token::Open,
                Token::Word("x".into()),
                Token::Close,
                Token::Capture("a.b".into()),
                Token::Open,
                Token::Predicate("not-eq?".into()),
                Token::Capture("a".into()),
                Token::Str("s".into()),
                Token::Close,
            ]
        );
    }
}
