//! The passes of a symbol search (`search_code_symbols`) and the scores
//! that tell their answers apart.

/// How a symbol search runs its template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// Exact, qualified, case-insensitive, prefix and name-word matches;
    /// for a name, the same matches among elements of other kinds score
    /// [`OTHER_KIND_WEIGHT`] times as much (below every match of the tool's
    /// kinds); for a question in words, then definitions ranked by the
    /// query's words (BM25 over their names, docs, owners, bodies and files).
    Exact,
    /// Not run: what the exact pass found when only elements of other kinds
    /// have the name (a constant holding an arrow function is a function).
    AnyKind,
    /// The typo-tolerant fallback.
    Fuzzy,
    /// A name that matched no definition, ranked by its words as a
    /// question is (a one-word concept: "compression").
    Words,
    /// An identifier that matched no definition: close names (typos) score
    /// from [`TYPO_FLOOR`], above every match by words, in one search.
    TyposOrWords,
    /// Every element of the tool's kinds.
    All,
}

/// What an exact name match among elements of other kinds scores, as a
/// share of the same match among the tool's kinds: the name tiers (20,000
/// to 360,000) become 500 to 9,000, below the lowest (10,000).
pub const OTHER_KIND_WEIGHT: f64 = 0.025;

/// What a name's file scores more when its path holds the qualifier the
/// query names (`rsa.GenerateKey` in `crypto/rsa/rsa.go`, `shutil.copyfileobj`
/// in `shutil.py`): a package or module qualifies a name that has no owner.
/// Below every gap between two name tiers (the smallest, 10,000 under
/// another kind's weight, stays above 9,500), so it only orders a tier.
pub const OWNER_PATH_BOOST: f64 = 500.0;

/// Scores of a close name (typo-tolerant), of close name words, and what a
/// name one edit away scores more than one two edits away (`parseadr`:
/// `parseaddr` before `parsestr`), in the one search of
/// [`Pass::TyposOrWords`]; word ranking (BM25) stays far below.
pub(crate) const TYPO_SCORES: (u32, u32, u32) = (10_000, 5_000, 1_000);
/// The same in the typo-tolerant pass alone, whose hits only tie-break by path.
pub(crate) const FUZZY_SCORES: (u32, u32, u32) = (10, 5, 1);
/// Score from which a hit of [`Pass::TyposOrWords`] is a close name.
pub const TYPO_FLOOR: f64 = 2_000.0;
