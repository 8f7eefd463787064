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

/// The constant scores of a name's matches in `search_code_symbols`, sent
/// to the template as its `scores` parameter: the one place they are
/// written. They add up, so each tier's matches score a sum no lower tier
/// reaches: `Owner.name` 360,000, the exact name 240,000, the name in
/// another case 140,000, a prefix 40,000 to 60,000, the name's words 20,000.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct NameScores {
    /// The name (any case) under the owner the query names (`Owner.name`).
    pub owner: u32,
    /// The name as written.
    pub exact: u32,
    /// The name in any case.
    pub lower: u32,
    /// A name the query's name starts.
    pub prefix: u32,
    /// A name holding every word of the query's name.
    pub words: u32,
}

pub const NAME_SCORES: NameScores =
    NameScores { owner: 120_000, exact: 100_000, lower: 80_000, prefix: 40_000, words: 20_000 };

impl NameScores {
    /// What a match of each tier scores at least, best tier first:
    /// `Owner.name`, the exact name, another case, a prefix.
    fn tiers(&self) -> [f64; 4] {
        let case = self.lower + self.prefix + self.words;
        let exact = self.exact + case;
        [(self.owner + exact) as f64, exact as f64, case as f64, self.prefix as f64]
    }

    /// The lowest score of the name tier `top` is in, halfway to the tier
    /// below (a prefix also holding the name's words reaches 60,000): a
    /// name's answer stops where the tier of its best match ends.
    pub fn tier_floor(&self, top: f64) -> f64 {
        let tiers = self.tiers();
        let below = [tiers[1], tiers[2], (self.prefix + self.words) as f64];
        let floors = [(tiers[0] + below[0]) / 2.0, (tiers[1] + below[1]) / 2.0, (tiers[2] + below[2]) / 2.0, tiers[3]];
        floors.into_iter().find(|floor| top >= *floor).unwrap_or(self.name_tier())
    }

    /// Score from which the best match has the query's name (in any case,
    /// or as `Owner.name`), above prefixes and name words.
    pub fn has_the_name(&self) -> f64 {
        let [_, _, case, _] = self.tiers();
        (case + (self.prefix + self.words) as f64) / 2.0
    }

    /// Score from which a file's best element matched by name: under the
    /// lowest name tier, far above word ranking (BM25).
    pub fn name_tier(&self) -> f64 {
        self.words as f64 / 2.0
    }
}

/// What an exact name match among elements of other kinds scores, as a
/// share of the same match among the tool's kinds: the name tiers
/// ([`NAME_SCORES`]: 20,000 to 360,000) become 500 to 9,000, below the
/// lowest name tier ([`NameScores::name_tier`]).
pub const OTHER_KIND_WEIGHT: f64 = 0.025;

/// What a name's file scores more when its path holds the qualifier the
/// query names (`rsa.GenerateKey` in `crypto/rsa/rsa.go`, `shutil.copyfileobj`
/// in `shutil.py`): a package or module qualifies a name that has no owner.
/// Below every gap between two name tiers (the smallest, 10,000 under
/// another kind's weight, stays above 9,500), so it only orders a tier.
pub const OWNER_PATH_BOOST: f64 = 500.0;

/// What a name's file scores more when the file is named after it
/// (`sync/semaphore.rs` for `Semaphore`, `MessagePackSerializer.cs` beside
/// its partial `MessagePackSerializer.Json.cs`, `adl_serializer.hpp`): the
/// file that defines a name is most often the one named after it. Below
/// every gap between two name tiers, with [`OWNER_PATH_BOOST`] too, so it
/// only orders a tier.
pub const FILE_NAME_BOOST: f64 = 400.0;

/// Scores of a close name (typo-tolerant), of close name words, and what a
/// name one edit away scores more than one two edits away (`parseadr`:
/// `parseaddr` before `parsestr`), in the one search of
/// [`Pass::TyposOrWords`]; word ranking (BM25) stays far below.
pub(crate) const TYPO_SCORES: (u32, u32, u32) = (10_000, 5_000, 1_000);
/// The same in the typo-tolerant pass alone, whose hits only tie-break by path.
pub(crate) const FUZZY_SCORES: (u32, u32, u32) = (10, 5, 1);
/// Score from which a hit of [`Pass::TyposOrWords`] is a close name.
pub const TYPO_FLOOR: f64 = 2_000.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_tier_starts_above_every_score_of_the_tier_below() {
        let s = NAME_SCORES;
        // What a match of each tier scores, as the template adds them up.
        let owner = (s.owner + s.exact + s.lower + s.prefix + s.words) as f64;
        let exact = (s.exact + s.lower + s.prefix + s.words) as f64;
        let case = (s.lower + s.prefix + s.words) as f64;
        let (prefix, prefix_and_words, words) = (s.prefix as f64, (s.prefix + s.words) as f64, s.words as f64);
        let floor = |top: f64| s.tier_floor(top);
        assert!(floor(owner) > exact && floor(owner) <= owner);
        assert!(floor(exact) > case && floor(exact) <= exact);
        assert!(floor(case) > prefix_and_words && floor(case) <= case);
        assert!(floor(prefix_and_words) == prefix && floor(words) == s.name_tier());
        assert!(s.has_the_name() > prefix_and_words && s.has_the_name() <= case);
        assert!(s.name_tier() < words && s.name_tier() > TYPO_FLOOR);
        // Another kind's name matches rank below the tool's lowest tier.
        assert!(owner * OTHER_KIND_WEIGHT + OWNER_PATH_BOOST + FILE_NAME_BOOST < s.name_tier());
    }
}
