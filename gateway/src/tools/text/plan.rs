//! A query as the grams every matching line must hold.
//!
//! The files index holds each file's distinct 3-grams as written
//! ([`vibe_common::document::grams`]). A literal needs all of its grams. A regex is
//! read from its syntax tree (regex-syntax's HIR): runs of literal text
//! (small character classes and alternations of texts spelled out, up to
//! [`MAX_TEXTS`] variants) need their grams, an alternation needs one of its
//! branches, and what the index cannot say (a large class, an optional part,
//! an anchor) needs nothing. The result is a conjunction of clauses, each a
//! disjunction of gram sets: the stored template's `clauses`. A query that
//! ignores case is planned on folded text ([`fold`]), and each folded gram
//! becomes a group of its case variants, any of which will do. Every step only
//! ever drops a requirement, never adds one, so no file with a matching line
//! is left out; the gateway checks each candidate's lines itself.

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind};
use vibe_common::document::grams::{fold, literal_grams};

/// Most texts a run of literal text is spelled out as (`(a|b)(c|d)` is 4;
/// `fn\s` is 25, one per Unicode space).
pub const MAX_TEXTS: usize = 64;
/// Most clauses, alternatives per clause and grams per alternative sent.
pub const MAX_CLAUSES: usize = 12;
pub const MAX_ALTERNATIVES: usize = 64;
pub const MAX_GRAMS: usize = 40;
/// Most grams in one query, over all clauses.
pub const MAX_TERMS: usize = 512;
/// A class of at most this many folded characters is spelled out.
const MAX_CLASS_CHARS: usize = 32;

/// What a line that matches must contain.
#[derive(Debug, Clone, PartialEq)]
enum Need {
    /// Nothing the index can check.
    Nothing,
    /// One of these texts (folded; never empty).
    Texts(Vec<String>),
    /// One or more copies of one of these texts: a run of text goes on into
    /// its first copy and out of its last, not through it.
    Repeated(Vec<String>),
    /// Each of these.
    All(Vec<Need>),
    /// One of these.
    OneOf(Vec<Need>),
}

/// A gram and its case variants: any one of them will do.
pub type Group = Vec<String>;
/// One clause: the file must hold every group of at least one alternative.
pub type Clause = Vec<Vec<Group>>;
/// A clause before case variants: alternatives of grams.
type GramClause = Vec<Vec<String>>;

/// The clauses a file must satisfy to hold a line matching `hir` (parsed
/// with case folding when `ci`); empty when the index cannot narrow (every
/// file in scope is a candidate).
pub fn clauses(hir: &Hir, ci: bool) -> Vec<Clause> {
    let mut out = Vec::new();
    let mut all_of = Vec::new();
    for clause in to_clauses(&need(hir, ci)) {
        if let [only] = clause.as_slice() {
            all_of.extend(only.iter().cloned());
        } else {
            out.push(clause);
        }
    }
    // Clauses of one alternative merge into one (all of their grams).
    if !all_of.is_empty() {
        let mut seen = std::collections::HashSet::new();
        all_of.retain(|g| seen.insert(g.clone()));
        out.insert(0, vec![all_of]);
    }
    out.truncate(MAX_CLAUSES);
    finish(out, ci)
}

/// The clauses of a literal: all of its grams (of its folded text, each
/// standing for its case variants, when `ci`).
pub fn literal_clauses(literal: &str, ci: bool) -> Vec<Clause> {
    let text: String = if ci { literal.chars().map(fold).collect() } else { literal.to_string() };
    let grams = literal_grams(&text);
    if grams.is_empty() {
        return Vec::new();
    }
    finish(vec![vec![grams]], ci)
}

/// Grams to groups of variants, within budget. OpenSearch refuses a query of
/// more than 1,024 clauses: each clause gets an equal share of
/// [`MAX_TERMS`], each of its alternatives an equal part of that, kept by
/// dropping grams (fewer grams narrow less, never wrongly); a clause whose
/// alternatives cannot fit is left out whole.
fn finish(clauses: Vec<GramClause>, ci: bool) -> Vec<Clause> {
    let share = MAX_TERMS / clauses.len().max(1);
    clauses
        .into_iter()
        .filter_map(|clause| {
            let per_alternative = share / clause.len().max(1);
            clause.into_iter().map(|grams| fit(grams, ci, per_alternative)).collect::<Option<Clause>>()
        })
        .collect()
}

/// An alternative's grams as groups of variants, at most `max` terms in all.
fn fit(mut grams: Vec<String>, ci: bool, max: usize) -> Option<Vec<Group>> {
    spread(&mut grams, MAX_GRAMS);
    let mut groups: Vec<Group> = grams.iter().map(|g| if ci { variants(g) } else { vec![g.clone()] }).collect();
    while groups.iter().map(Vec::len).sum::<usize>() > max {
        if groups.len() == 1 {
            return None;
        }
        let keep = groups.len() - 1;
        spread(&mut groups, keep);
    }
    Some(groups)
}

/// Keeps at most `max` items, spread over the text (any subset of grams is a
/// weaker, still sound, requirement).
fn spread<T: Clone>(items: &mut Vec<T>, max: usize) {
    if items.len() > max {
        let n = items.len();
        *items = (0..max).map(|i| items[i * n / max].clone()).collect();
    }
}

/// Every gram whose characters fold to those of `folded` (the characters
/// the regex crate matches alike when ignoring case).
fn variants(folded: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for c in folded.chars() {
        let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
        class.case_fold_simple();
        let chars: Vec<char> = class.iter().flat_map(|r| r.start()..=r.end()).filter(|&d| fold(d) == c).collect();
        out = out.iter().flat_map(|p| chars.iter().map(move |d| format!("{p}{d}"))).collect();
    }
    out
}

/// A literal line break: the query cannot match within a line.
pub fn has_line_break(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Literal(l) => l.0.contains(&b'\n'),
        HirKind::Repetition(r) => r.min > 0 && has_line_break(&r.sub),
        HirKind::Capture(c) => has_line_break(&c.sub),
        HirKind::Concat(cs) => cs.iter().any(has_line_break),
        HirKind::Alternation(cs) => cs.iter().all(has_line_break),
        HirKind::Empty | HirKind::Class(_) | HirKind::Look(_) => false,
    }
}

/// What a line matching `hir` must contain: folded text when `ci`.
fn need(hir: &Hir, ci: bool) -> Need {
    let need = |h: &Hir| need(h, ci);
    match hir.kind() {
        HirKind::Empty => Need::Texts(vec![String::new()]),
        HirKind::Literal(l) => match std::str::from_utf8(&l.0) {
            Ok(s) if ci => Need::Texts(vec![s.chars().map(fold).collect()]),
            Ok(s) => Need::Texts(vec![s.to_string()]),
            Err(_) => Need::Nothing,
        },
        HirKind::Class(c) => {
            class_chars(c, ci).map_or(Need::Nothing, |cs| Need::Texts(cs.into_iter().map(String::from).collect()))
        }
        HirKind::Look(_) => Need::Nothing,
        HirKind::Repetition(r) if r.min == 0 => Need::Nothing,
        HirKind::Repetition(r) => match need(&r.sub) {
            Need::Texts(ts) if r.max == Some(r.min) && ts.len() == 1 && r.min <= 8 => {
                Need::Texts(vec![ts[0].repeat(r.min as usize)])
            }
            Need::Texts(ts) => Need::Repeated(ts),
            sub => Need::All(vec![sub]),
        },
        HirKind::Capture(c) => need(&c.sub),
        HirKind::Concat(cs) => {
            let mut parts = Vec::new();
            let mut run: Option<Vec<String>> = None;
            let join = |run: Option<Vec<String>>, ts: Vec<String>, parts: &mut Vec<Need>| match run {
                None => ts,
                Some(r) if r.len() * ts.len() <= MAX_TEXTS => {
                    r.iter().flat_map(|a| ts.iter().map(move |b| format!("{a}{b}"))).collect()
                }
                Some(r) => {
                    parts.push(Need::Texts(r));
                    ts
                }
            };
            for c in cs {
                match need(c) {
                    Need::Texts(ts) => run = Some(join(run.take(), ts, &mut parts)),
                    Need::Repeated(ts) => {
                        let into = join(run.take(), ts.clone(), &mut parts);
                        parts.push(Need::Texts(into));
                        run = Some(ts);
                    }
                    other => {
                        parts.extend(run.take().map(Need::Texts));
                        parts.push(other);
                    }
                }
            }
            parts.extend(run.map(Need::Texts));
            match parts.len() {
                1 => parts.pop().expect("one part"),
                _ => Need::All(parts),
            }
        }
        HirKind::Alternation(cs) => {
            let branches: Vec<Need> = cs.iter().map(need).collect();
            let texts: Option<Vec<String>> = branches.iter().try_fold(Vec::new(), |mut acc, b| match b {
                Need::Texts(ts) if !ts.is_empty() => {
                    acc.extend(ts.iter().cloned());
                    Some(acc)
                }
                _ => None,
            });
            match texts {
                Some(mut ts) if ts.len() <= MAX_TEXTS => {
                    ts.dedup();
                    Need::Texts(ts)
                }
                _ => Need::OneOf(branches),
            }
        }
    }
}

/// The characters of a small class (folded when `ci`).
fn class_chars(class: &Class, ci: bool) -> Option<Vec<char>> {
    let mut out: Vec<char> = Vec::new();
    let mut add = |c: char| {
        let f = if ci { fold(c) } else { c };
        if !out.contains(&f) {
            out.push(f);
        }
        out.len() <= MAX_CLASS_CHARS
    };
    match class {
        Class::Unicode(u) => {
            for r in u.iter() {
                if (r.end() as u32) - (r.start() as u32) > 64 {
                    return None;
                }
                // A line never holds a line break.
                for c in (r.start()..=r.end()).filter(|&c| c != '\n') {
                    if !add(c) {
                        return None;
                    }
                }
            }
        }
        Class::Bytes(b) => {
            for r in b.iter() {
                for c in (r.start()..=r.end()).filter(|&c| c != b'\n') {
                    if !c.is_ascii() || !add(c as char) {
                        return None;
                    }
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

fn to_clauses(need: &Need) -> Vec<GramClause> {
    match need {
        Need::Nothing => Vec::new(),
        Need::Texts(_) | Need::Repeated(_) | Need::OneOf(_) => alternatives(need).map(|a| vec![a]).unwrap_or_default(),
        Need::All(parts) => parts.iter().flat_map(to_clauses).collect(),
    }
}

/// The need as one clause (one of these gram sets), or `None` when one of
/// its branches needs nothing the index can check.
fn alternatives(need: &Need) -> Option<GramClause> {
    let out: GramClause = match need {
        Need::Nothing => return None,
        Need::Texts(ts) | Need::Repeated(ts) => {
            let grams: GramClause = ts.iter().map(|t| literal_grams(t)).collect();
            if grams.iter().any(Vec::is_empty) {
                return None;
            }
            grams
        }
        Need::OneOf(branches) => {
            let mut out = Vec::new();
            for b in branches {
                out.extend(alternatives(b)?);
            }
            out
        }
        // All of several: the one clause of them that narrows most (one
        // alternative, the most grams), which is weaker than all of them.
        Need::All(parts) => parts
            .iter()
            .flat_map(to_clauses)
            .min_by_key(|c| (c.len(), usize::MAX - c.iter().map(Vec::len).sum::<usize>()))?,
    };
    (out.len() <= MAX_ALTERNATIVES).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan with each group shown as its folded (or only) gram.
    fn plan(re: &str, ci: bool) -> Vec<GramClause> {
        shown(clauses(&regex_syntax::ParserBuilder::new().case_insensitive(ci).build().parse(re).unwrap(), ci))
    }
    fn shown(clauses: Vec<Clause>) -> Vec<GramClause> {
        let repr = |group: &Group| group.iter().find(|g| g.chars().all(|c| fold(c) == c)).unwrap_or(&group[0]).clone();
        clauses.iter().map(|c| c.iter().map(|a| a.iter().map(repr).collect()).collect()).collect()
    }
    fn g(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn literals_and_runs() {
        assert_eq!(shown(literal_clauses("Hello", false)), vec![vec![g(&["Hel", "ell", "llo"])]]);
        assert_eq!(shown(literal_clauses("Hello", true)), vec![vec![g(&["hel", "ell", "llo"])]]);
        assert!(literal_clauses("ab", true).is_empty());
        assert_eq!(plan("Hello", false), vec![vec![g(&["Hel", "ell", "llo"])]]);
        assert_eq!(plan("Hello", true), vec![vec![g(&["hel", "ell", "llo"])]]);
        // Ignoring case, each gram stands for its case variants.
        let ci = literal_clauses("ſk!", true);
        let group = &ci[0][0][0];
        assert_eq!(group.len(), 9, "{group:?}");
        for v in ["sk!", "SK!", "ſ\u{212A}!", "Sk!"] {
            assert!(group.contains(&v.to_string()), "{v}: {group:?}");
        }
        // Runs break at what the index cannot say, and join across groups.
        // `\s+` joins the text before it and the text after it, not both.
        // (A line has no line break: `\s` is every other Unicode space.)
        let spaces = plan(r"fn\s+main", false);
        assert_eq!(spaces.len(), 2, "{spaces:?}");
        assert_eq!(spaces[0].len(), 24, "{spaces:?}");
        assert!(spaces[0].contains(&g(&["fn "])) && spaces[0].contains(&g(&["fn\t"])), "{spaces:?}");
        assert!(spaces[0].iter().all(|a| a.len() == 1 && a[0].starts_with("fn")), "{spaces:?}");
        assert!(spaces[1].contains(&g(&[" ma", "mai", "ain"])), "{spaces:?}");
        assert!(spaces[1].iter().all(|a| a[1..] == g(&["mai", "ain"])), "{spaces:?}");
        assert_eq!(plan(r"(foo)bar", false), vec![vec![g(&["foo", "oob", "oba", "bar"])]]);
        assert_eq!(plan(r"ab\d+cd", false), Vec::<GramClause>::new());
        assert_eq!(plan(r"x{3}y", false), vec![vec![g(&["xxx", "xxy"])]]);
        assert_eq!(plan(r"^}$", false), Vec::<GramClause>::new());
        assert_eq!(plan(r"[0-9]{4}-[0-9]{2}", false), Vec::<GramClause>::new());
    }

    #[test]
    fn alternations_and_classes() {
        assert_eq!(plan("TODO|FIXME", false), vec![vec![g(&["TOD", "ODO"]), g(&["FIX", "IXM", "XME"])]]);
        assert_eq!(plan("TODO|FIXME", true), vec![vec![g(&["tod", "odo"]), g(&["fix", "ixm", "xme"])]]);
        assert_eq!(
            plan("(foo|bar)baz", false),
            vec![vec![g(&["foo", "oob", "oba", "baz"]), g(&["bar", "arb", "rba", "baz"])]]
        );
        assert_eq!(plan("colou?r", false), vec![vec![g(&["col", "olo"])]]);
        assert_eq!(plan("gr[ae]y", false), vec![vec![g(&["gra", "ray"]), g(&["gre", "rey"])]]);
        // One branch the index cannot narrow: the alternation narrows nothing.
        assert_eq!(plan(r"foo|\d", false), Vec::<GramClause>::new());
        // A branch that needs several runs gives its one clause that narrows most.
        let p = plan(r"abcd\s+efg|xyz", false);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].len(), 25, "{p:?}");
        assert!(p[0].contains(&g(&["abc", "bcd", "cd "])) && p[0].contains(&g(&["xyz"])), "{p:?}");
        // Two runs joined by spaces: the first ends in a space, the second starts with one.
        let import = plan(r"import\s+os", false);
        assert_eq!(import.len(), 2, "{import:?}");
        assert!(
            import[0].iter().all(|a| a[..4] == g(&["imp", "mpo", "por", "ort"]) && a[4].starts_with("rt")),
            "{import:?}"
        );
        assert!(import[1].iter().all(|a| a.len() == 1 && a[0].ends_with("os")), "{import:?}");
        let class = plan(r"class\s+\w+Error", false);
        assert_eq!(class[0], vec![g(&["Err", "rro", "ror"])]);
        assert_eq!(class[1].len(), 24);
        assert!(class[1].iter().all(|a| a[..3] == g(&["cla", "las", "ass"])), "{class:?}");
    }

    #[test]
    fn line_breaks() {
        let hir = |re: &str| regex_syntax::Parser::new().parse(re).unwrap();
        assert!(has_line_break(&hir(r"a\nb")));
        assert!(!has_line_break(&hir(r"a\s+b")));
        assert!(!has_line_break(&hir(r"a(\n)?b")));
        assert!(!has_line_break(&hir(r"a|\n")));
    }

    #[test]
    fn large_alternations_stay_under_the_clause_limit() {
        let branches: Vec<String> = (0..60).map(|i| format!("ERROR_NUMBER_{i}_WITH_A_LONG_DESCRIPTIVE_NAME")).collect();
        let p = plan(&format!("({})", branches.join("|")), false);
        let terms: usize = p.iter().flatten().map(Vec::len).sum();
        assert!(terms <= MAX_TERMS, "{terms}");
        // Too many for one clause: nothing narrows, which is weaker but sound.
        assert!(p.iter().all(|c| c.len() <= MAX_ALTERNATIVES));
        let p = plan(&format!("x{}y", "(abcdefghij|klmnopqrst)".repeat(20)), false);
        assert!(p.iter().flatten().map(Vec::len).sum::<usize>() <= MAX_TERMS);
        assert!(!p.is_empty());
    }

    #[test]
    fn case_variants_stay_under_the_clause_limit() {
        let p = literal_clauses(&"abcdefghijklmnopqrstuvwxyz".repeat(15), true);
        let terms: usize = p.iter().flatten().flatten().map(Vec::len).sum();
        assert!((MAX_GRAMS * 4..=MAX_TERMS).contains(&terms), "{terms}");
        let p = clauses(
            &regex_syntax::ParserBuilder::new().case_insensitive(true).build().parse("(skip|kiss)+ing").unwrap(),
            true,
        );
        assert!(p.iter().flatten().flatten().map(Vec::len).sum::<usize>() <= MAX_TERMS);
        assert!(!p.is_empty());
    }

    #[test]
    fn long_literals_keep_a_spread_of_grams() {
        let long = "x".repeat(10) + &"abcdefghijklmnopqrstuvwxyz".repeat(3);
        let c = literal_clauses(&long, false);
        assert_eq!(c[0][0].len(), MAX_GRAMS.min(literal_grams(&long).len()));
    }
}
