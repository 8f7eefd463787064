//! What an enrichment run did: per host, per answer, per file not enriched.

use std::fmt;
use std::time::Duration;

/// How the model's answers came back. Each answer is one of `valid`,
/// `repaired` or `invalid`; `incomplete` counts the valid or repaired ones
/// that missed files (those are asked again).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnswerCounts {
    /// JSON as it came.
    pub valid: usize,
    /// JSON only after repair (a fence, bare keys, a cut-off end...).
    pub repaired: usize,
    /// Not JSON even after repair.
    pub invalid: usize,
    /// Valid or repaired, but without a usable entry for some file.
    pub incomplete: usize,
}

impl AnswerCounts {
    pub fn add(&mut self, other: &AnswerCounts) {
        self.valid += other.valid;
        self.repaired += other.repaired;
        self.invalid += other.invalid;
        self.incomplete += other.incomplete;
    }

    pub fn total(&self) -> usize {
        self.valid + self.repaired + self.invalid
    }
}

/// What one host did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostReport {
    pub host: String,
    pub model: String,
    /// Files this host enriched.
    pub files: usize,
    /// Generate requests sent (retries included).
    pub requests: usize,
    /// Requests repeated because of a wrong answer or a transport error.
    pub retries: usize,
    pub answers: AnswerCounts,
    /// Tokens of the prompts sent and of the answers, as the host counted them.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Why the host was taken out, if it was.
    pub removed: Option<String>,
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterReport {
    pub hosts: Vec<HostReport>,
    /// Files sent to the model.
    pub files: usize,
    pub enriched: usize,
    pub unenriched: usize,
    /// Files the model gave no usable answer for, each with why; they are
    /// indexed without a description.
    pub failed: Vec<(String, String)>,
    pub elapsed: Duration,
}

/// Most paths named per reason in the report.
const PATHS_SHOWN: usize = 5;

impl ClusterReport {
    /// Add the counts of another run (same hosts, in the same order).
    pub fn merge(&mut self, other: &ClusterReport) {
        if self.hosts.is_empty() {
            self.hosts = other
                .hosts
                .iter()
                .map(|h| HostReport { host: h.host.clone(), model: h.model.clone(), ..Default::default() })
                .collect();
        }
        for (mine, theirs) in self.hosts.iter_mut().zip(&other.hosts) {
            mine.files += theirs.files;
            mine.requests += theirs.requests;
            mine.retries += theirs.retries;
            mine.answers.add(&theirs.answers);
            mine.prompt_tokens += theirs.prompt_tokens;
            mine.completion_tokens += theirs.completion_tokens;
            if theirs.removed.is_some() {
                mine.removed = theirs.removed.clone();
            }
        }
        self.files += other.files;
        self.enriched += other.enriched;
        self.unenriched += other.unenriched;
        self.failed.extend(other.failed.iter().cloned());
        self.elapsed += other.elapsed;
    }

    /// The answers of every host.
    pub fn answers(&self) -> AnswerCounts {
        let mut all = AnswerCounts::default();
        self.hosts.iter().for_each(|h| all.add(&h.answers));
        all
    }

    /// The failed files grouped by reason, in first-seen order.
    fn failures_by_reason(&self) -> Vec<(&str, Vec<&str>)> {
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for (path, why) in &self.failed {
            match groups.iter_mut().find(|(w, _)| w == why) {
                Some((_, paths)) => paths.push(path),
                None => groups.push((why, vec![path])),
            }
        }
        groups
    }
}

impl fmt::Display for ClusterReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLM enrichment: {} files enriched, {} not enriched (took {:.1}s)",
            self.enriched,
            self.unenriched,
            self.elapsed.as_secs_f64()
        )?;
        let a = self.answers();
        if a.total() > 0 {
            write!(f, "\n  answers: {} valid JSON, {} repaired, {} not JSON", a.valid, a.repaired, a.invalid)?;
            if a.incomplete > 0 {
                write!(f, "; {} missed files (asked again)", a.incomplete)?;
            }
        }
        for h in &self.hosts {
            write!(f, "\n  {} ({}): {} files, {} requests", h.host, h.model, h.files, h.requests)?;
            if h.retries > 0 {
                write!(f, ", {} retries", h.retries)?;
            }
            if h.prompt_tokens + h.completion_tokens > 0 {
                write!(f, ", {} prompt + {} generated tokens", h.prompt_tokens, h.completion_tokens)?;
            }
            if let Some(why) = &h.removed {
                write!(f, ", taken out: {why}")?;
            }
        }
        for (why, paths) in self.failures_by_reason() {
            let more = paths.len().saturating_sub(PATHS_SHOWN);
            let shown = paths[..paths.len().min(PATHS_SHOWN)].join(", ");
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            write!(f, "\n  not enriched, {} files ({why}): {shown}{more}", paths.len())?;
        }
        let never_answered = self.unenriched.saturating_sub(self.failed.len());
        if never_answered > 0 {
            write!(f, "\n  not enriched, {never_answered} files (no host was left to ask)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_counts_answers_and_groups_failures() {
        let host = HostReport {
            host: "http://h:1".into(),
            model: "m".into(),
            files: 3,
            requests: 5,
            retries: 2,
            answers: AnswerCounts { valid: 3, repaired: 1, invalid: 1, incomplete: 1 },
            prompt_tokens: 900,
            completion_tokens: 120,
            removed: None,
        };
        let failed = (0..7).map(|i| (format!("f{i}.rs"), "no usable answer".to_string())).collect();
        let report =
            ClusterReport { hosts: vec![host], files: 10, enriched: 3, unenriched: 7, failed, ..Default::default() };
        let text = report.to_string();
        assert!(text.contains("5 requests, 2 retries, 900 prompt + 120 generated tokens"), "{text}");
        assert!(text.contains("answers: 3 valid JSON, 1 repaired, 1 not JSON; 1 missed files (asked again)"), "{text}");
        assert!(
            text.contains("not enriched, 7 files (no usable answer): f0.rs, f1.rs, f2.rs, f3.rs, f4.rs and 2 more"),
            "{text}"
        );
        let stopped = ClusterReport { unenriched: 9, ..report.clone() };
        assert!(stopped.to_string().ends_with("\n  not enriched, 2 files (no host was left to ask)"), "{stopped}");
        let mut total = ClusterReport::default();
        total.merge(&report);
        total.merge(&report);
        assert_eq!((total.answers().total(), total.failed.len(), total.hosts[0].files), (10, 14, 6));
    }
}
