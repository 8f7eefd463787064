//! Rust regex → Lucene regexp over a whole file (see the parent module).

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look};

/// Longest Lucene regexp sent (the files index allows 8192, `max_regex_length`).
const MAX_REGEXP_CHARS: usize = 8000;
/// Character classes with more ranges than this (and whose complement has
/// more too) keep only their ASCII part exactly and take any non-ASCII
/// character: Unicode `\w` (~770 ranges) and `\d` (~70) make an automaton
/// that costs Lucene ~0.3 s per query to build, and code is mostly ASCII.
const SMALL_CLASS_RANGES: usize = 16;
/// Repetition counts above this become "at least" (Lucene expands counts).
const MAX_COUNT: u32 = 16;

// ---------------------------------------------------------------------------
// Rust regex -> Lucene regexp over a whole file
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
pub struct Translation {
    pub regexp: String,
    /// What the regexp only approximates (empty: exact).
    pub approximations: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Untranslatable {
    /// The regex matches a line break: never, line by line.
    LineBreak,
    Other(String),
}

/// The Lucene regexp that matches a file's whole content when (and, unless
/// `approximations` says otherwise, only when) one of its lines has a match.
/// `exotic`: fold no class holding `ſ` or `K` into a plain `s` / `k`.
pub fn translate(hir: &Hir, ci: bool, exotic: bool) -> Result<Translation, Untranslatable> {
    // Java counts UTF-16 units.
    let fits = |t: &Translation| t.regexp.encode_utf16().count() <= MAX_REGEXP_CHARS;
    let t = render(hir, ci, exotic, SMALL_CLASS_RANGES)?;
    if fits(&t) {
        return Ok(t);
    }
    Err(Untranslatable::Other("the regex is too long for the index".into()))
}

fn render(hir: &Hir, ci: bool, exotic: bool, max_class_ranges: usize) -> Result<Translation, Untranslatable> {
    // `^` at the start of every branch: the match starts the content or
    // follows a line break; `$` at every end: it ends the content or precedes one.
    let (body, start) = match strip_start(hir) {
        Some(h) => (h, true),
        None => (hir.clone(), false),
    };
    let (body, end) = match strip_end(&body) {
        Some(h) => (h, true),
        None => (body, false),
    };
    let mut r = Renderer { out: String::new(), ci, exotic, max_class_ranges, approximations: Vec::new() };
    if hir.properties().minimum_len() == Some(0) {
        // An empty match: grep sees no line after a final line break, nor
        // in an empty file; the regexp sees an empty string there.
        r.approximate("a pattern that matches an empty line");
    }
    r.out.push_str(if start { "(.*\n)?" } else { ".*" });
    r.node(&body)?;
    r.out.push_str(if end { "(\n.*)?" } else { ".*" });
    Ok(Translation { regexp: r.out, approximations: r.approximations })
}

fn is_start(look: &Look) -> bool {
    matches!(look, Look::Start | Look::StartLF)
}

fn is_end(look: &Look) -> bool {
    matches!(look, Look::End | Look::EndLF)
}

/// `hir` without the `^` every match begins with, if it has one.
fn strip_start(hir: &Hir) -> Option<Hir> {
    match hir.kind() {
        HirKind::Look(l) if is_start(l) => Some(Hir::empty()),
        HirKind::Concat(subs) => {
            let first = strip_start(subs.first()?)?;
            Some(Hir::concat(std::iter::once(first).chain(subs[1..].iter().cloned()).collect()))
        }
        HirKind::Capture(c) => strip_start(&c.sub),
        HirKind::Alternation(subs) => subs.iter().map(strip_start).collect::<Option<Vec<_>>>().map(Hir::alternation),
        _ => None,
    }
}

/// `hir` without the `$` every match ends with, if it has one.
fn strip_end(hir: &Hir) -> Option<Hir> {
    match hir.kind() {
        HirKind::Look(l) if is_end(l) => Some(Hir::empty()),
        HirKind::Concat(subs) => {
            let (last, rest) = subs.split_last()?;
            let last = strip_end(last)?;
            Some(Hir::concat(rest.iter().cloned().chain(std::iter::once(last)).collect()))
        }
        HirKind::Capture(c) => strip_end(&c.sub),
        HirKind::Alternation(subs) => subs.iter().map(strip_end).collect::<Option<Vec<_>>>().map(Hir::alternation),
        _ => None,
    }
}

struct Renderer {
    out: String,
    ci: bool,
    exotic: bool,
    max_class_ranges: usize,
    approximations: Vec<String>,
}

impl Renderer {
    fn approximate(&mut self, what: &str) {
        if !self.approximations.iter().any(|a| a == what) {
            self.approximations.push(what.to_string());
        }
    }

    fn node(&mut self, hir: &Hir) -> Result<(), Untranslatable> {
        match hir.kind() {
            HirKind::Empty => self.out.push_str(EMPTY_STRING),
            HirKind::Literal(lit) => {
                let text = std::str::from_utf8(&lit.0)
                    .map_err(|_| Untranslatable::Other("a byte-oriented (?-u) literal".into()))?;
                for c in text.chars() {
                    if c == '\n' {
                        return Err(Untranslatable::LineBreak);
                    }
                    literal_char(c, &mut self.out);
                }
            }
            HirKind::Class(Class::Unicode(cls)) => self.class(cls),
            HirKind::Class(Class::Bytes(cls)) => {
                if cls.ranges().iter().any(|r| r.end() > 0x7F) {
                    return Err(Untranslatable::Other("a byte-oriented (?-u) class".into()));
                }
                let ranges = cls.ranges().iter().map(|r| ClassUnicodeRange::new(r.start() as char, r.end() as char));
                self.class(&ClassUnicode::new(ranges));
            }
            HirKind::Look(look) => {
                self.approximate(match look {
                    Look::Start | Look::StartLF | Look::StartCRLF | Look::End | Look::EndLF | Look::EndCRLF => {
                        "anchors (^, $) inside the pattern"
                    }
                    _ => "word boundaries (\\b)",
                });
                self.out.push_str(EMPTY_STRING);
            }
            HirKind::Repetition(rep) => {
                self.out.push('(');
                self.node(&rep.sub)?;
                self.out.push(')');
                match (rep.min, rep.max) {
                    (0, None) => self.out.push('*'),
                    (1, None) => self.out.push('+'),
                    (0, Some(1)) => self.out.push('?'),
                    (m, None) => {
                        if m > MAX_COUNT {
                            self.approximate("large repetition counts");
                        }
                        self.out.push_str(&format!("{{{},}}", m.min(MAX_COUNT)));
                    }
                    (m, Some(n)) if n <= MAX_COUNT => {
                        self.out.push_str(&if m == n { format!("{{{m}}}") } else { format!("{{{m},{n}}}") })
                    }
                    (m, Some(_)) => {
                        self.approximate("large repetition counts");
                        self.out.push_str(&format!("{{{},}}", m.min(MAX_COUNT)));
                    }
                }
            }
            HirKind::Capture(c) if matches!(c.sub.kind(), HirKind::Alternation(_)) => self.node(&c.sub)?,
            HirKind::Capture(c) => {
                self.out.push('(');
                self.node(&c.sub)?;
                self.out.push(')');
            }
            HirKind::Concat(subs) => {
                for s in subs {
                    self.node(s)?;
                }
            }
            HirKind::Alternation(subs) => {
                self.out.push('(');
                for (i, s) in subs.iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.node(s)?;
                }
                self.out.push(')');
            }
        }
        Ok(())
    }

    /// A class, without `\n` (lines never hold one).
    fn class(&mut self, cls: &ClassUnicode) {
        let mut cls = cls.clone();
        cls.difference(&ClassUnicode::new([ClassUnicodeRange::new('\n', '\n')]));
        if cls.ranges().is_empty() {
            // Matches nothing (Lucene's empty language).
            self.out.push('#');
            return;
        }
        if self.ci {
            if let Some(letter) = folded_ascii_letter(&cls, self.exotic) {
                // Lucene's case_insensitive flag folds ASCII letters; a plain
                // letter keeps the 3-grams the index narrows by.
                self.out.push(letter);
                return;
            }
        }
        let mut negated = cls.clone();
        negated.negate();
        let (ranges, negate) = if negated.ranges().len() < cls.ranges().len() {
            (negated.ranges().to_vec(), true)
        } else {
            (cls.ranges().to_vec(), false)
        };
        if ranges.len() > self.max_class_ranges {
            // The ASCII part exactly, anything beyond ASCII.
            self.approximate("large Unicode character classes (\\w, \\d, \\p{..}) beyond ASCII");
            let mut approx: Vec<ClassUnicodeRange> = cls
                .ranges()
                .iter()
                .filter(|r| r.start() <= '\x7f')
                .map(|r| ClassUnicodeRange::new(r.start(), r.end().min('\x7f')))
                .collect();
            if cls.ranges().iter().any(|r| r.end() > '\x7f') {
                approx.push(ClassUnicodeRange::new('\u{80}', '\u{10FFFF}'));
            }
            self.ranges(&approx, false);
        } else {
            self.ranges(&ranges, negate);
        }
    }

    fn ranges(&mut self, ranges: &[ClassUnicodeRange], negate: bool) {
        if !negate && ranges.len() == 1 && ranges[0].start() == '\\' && ranges[0].end() == '\\' {
            literal_char('\\', &mut self.out);
            return;
        }
        self.out.push('[');
        if negate {
            self.out.push('^');
        }
        for r in ranges {
            let (mut start, end) = (r.start(), r.end());
            if start == '\\' {
                // `\\` is a whole class member in Lucene: it cannot start a range.
                self.out.push_str("\\\\");
                if end == '\\' {
                    continue;
                }
                start = ']';
            }
            class_char(start, &mut self.out);
            if end != start {
                self.out.push('-');
                class_char(end, &mut self.out);
            }
        }
        self.out.push(']');
    }
}

/// `[Aa]` (or `[KkK]`, `[Ssſ]`): the one ASCII letter whose case variants
/// the class holds, in lower case.
fn folded_ascii_letter(cls: &ClassUnicode, exotic: bool) -> Option<char> {
    let mut chars = Vec::new();
    for r in cls.ranges() {
        for c in r.start()..=r.end() {
            chars.push(c);
            if chars.len() > 3 {
                return None;
            }
        }
    }
    let ascii: Vec<char> = chars.iter().copied().filter(char::is_ascii).collect();
    let [a, b] = ascii[..] else { return None };
    if !a.is_ascii_alphabetic() || a == b || !a.eq_ignore_ascii_case(&b) {
        return None;
    }
    if chars.iter().any(|c| !c.is_ascii() && (exotic || !matches!(c, '\u{17F}' | '\u{212A}'))) {
        return None;
    }
    Some(a.to_ascii_lowercase())
}

/// The empty string in a Lucene regexp (`()` is the empty language when
/// `case_insensitive` is set).
const EMPTY_STRING: &str = ".{0}";

/// One literal character of a Lucene regexp. ASCII punctuation and control
/// characters are escaped. A backslash is written `[\\\\]` (a class of two
/// backslashes): a plain `\\` would join the literal run around it, and the
/// wildcard field unescapes literal runs once more when it picks the 3-grams
/// to look up (`a\.b` would be looked up as `a.b`).
pub(super) fn literal_char(c: char, out: &mut String) {
    if plain(c) {
        out.push(c);
    } else if c == '\\' {
        out.push_str("[\\\\\\\\]");
    } else {
        out.push('\\');
        out.push(c);
    }
}

/// One character in a Lucene class (a backslash is `\\`, see [`Renderer::ranges`]).
pub(super) fn class_char(c: char, out: &mut String) {
    if !plain(c) {
        out.push('\\');
    }
    out.push(c);
}

/// Characters that mean themselves in a Lucene regexp (the others are escaped).
pub(super) fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '/') || !c.is_ascii()
}
