//! The read-only block a full disk leaves behind. OpenSearch sets
//! `index.blocks.read_only_allow_delete` on every index of a node whose disk
//! passed the flood-stage watermark, and is meant to lift it once the disk
//! is below the high watermark; 2.19 was seen keeping it for good. So a run
//! that finds the block on this prefix's indices reads every node's disk
//! use and the high watermark: when every node is below it, the run lifts
//! the block on this prefix's indices (no other) and says so in one line;
//! otherwise it leaves it, and its writes are refused in words as before.

use serde_json::{json, Value};
use vibe_common::backend::search::{Search, SearchError};

/// The indices of this prefix that carry the block, or none.
async fn blocked(search: &Search) -> Result<Vec<String>, SearchError> {
    let names = &search.names;
    let path = format!(
        "/{},{}_meta*/_settings/index.blocks.read_only_allow_delete?expand_wildcards=all&flat_settings=true&allow_no_indices=true&ignore_unavailable=true",
        names.all_data(),
        names.prefix
    );
    let settings = search.get(&path).await?;
    let on = |s: &Value| s["settings"]["index.blocks.read_only_allow_delete"].as_str() == Some("true");
    Ok(settings.as_object().into_iter().flatten().filter(|(_, s)| on(s)).map(|(index, _)| index.clone()).collect())
}

/// A disk watermark as OpenSearch takes it: a share of the disk used
/// (`90%`, `0.9`) or the bytes that must stay free (`500mb`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Watermark {
    Used(f64),
    Free(u64),
}

impl Watermark {
    fn parse(text: &str) -> Option<Watermark> {
        let t = text.trim().to_ascii_lowercase();
        if let Some(percent) = t.strip_suffix('%') {
            return percent.trim().parse::<f64>().ok().map(|p| Watermark::Used(p / 100.0));
        }
        if let Ok(ratio) = t.parse::<f64>() {
            return (ratio <= 1.0).then_some(Watermark::Used(ratio));
        }
        let digits = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
        let (number, unit) = t.split_at(digits);
        let scale: u64 = match unit.trim() {
            "b" | "" => 1,
            "kb" => 1 << 10,
            "mb" => 1 << 20,
            "gb" => 1 << 30,
            "tb" => 1 << 40,
            "pb" => 1 << 50,
            _ => return None,
        };
        number.parse::<f64>().ok().map(|n| Watermark::Free((n * scale as f64) as u64))
    }

    /// Whether a disk of `total` bytes with `available` free is below it.
    fn below(self, total: u64, available: u64) -> bool {
        match self {
            Watermark::Used(ratio) => total > 0 && 1.0 - (available as f64 / total as f64) < ratio,
            Watermark::Free(bytes) => available > bytes,
        }
    }

    fn shown(self) -> String {
        match self {
            Watermark::Used(ratio) => format!("{}% used", (ratio * 100.0).round()),
            Watermark::Free(bytes) => format!("{} MB free", bytes >> 20),
        }
    }
}

/// A cluster setting as it applies: transient, else persistent, else default.
fn setting<'a>(settings: &'a Value, key: &str) -> Option<&'a str> {
    ["transient", "persistent", "defaults"].iter().find_map(|level| settings[level][key].as_str())
}

/// Whether every node's disk is below the high watermark (or the disk
/// thresholds are off), with what was seen, for the line that says so.
async fn disk_is_fine(search: &Search) -> Result<(bool, String), SearchError> {
    let settings = search.get("/_cluster/settings?include_defaults=true&flat_settings=true").await?;
    if setting(&settings, "cluster.routing.allocation.disk.threshold_enabled") == Some("false") {
        return Ok((true, "the disk thresholds are off".into()));
    }
    let high = setting(&settings, "cluster.routing.allocation.disk.watermark.high").unwrap_or("90%");
    let Some(high) = Watermark::parse(high) else {
        return Ok((false, format!("the high watermark {high:?} was not understood")));
    };
    let stats = search.get("/_nodes/stats/fs").await?;
    let mut seen = Vec::new();
    let mut fine = true;
    for node in stats["nodes"].as_object().into_iter().flatten().map(|(_, n)| n) {
        let total = node["fs"]["total"]["total_in_bytes"].as_u64().unwrap_or(0);
        let available = node["fs"]["total"]["available_in_bytes"].as_u64().unwrap_or(0);
        fine &= high.below(total, available);
        let used = if total == 0 { 0.0 } else { 100.0 * (1.0 - available as f64 / total as f64) };
        seen.push(format!("{} {used:.0}% used", node["name"].as_str().unwrap_or("?")));
    }
    Ok((fine && !seen.is_empty(), format!("high watermark {}: {}", high.shown(), seen.join(", "))))
}

/// Lifts the block from this prefix's indices when every node's disk is
/// below the high watermark; returns the line that says what was done, or
/// that it was left, or `None` when no index of the prefix is blocked.
pub(super) async fn lift_if_disk_is_fine(search: &Search) -> Result<Option<String>, SearchError> {
    let indices = blocked(search).await?;
    if indices.is_empty() {
        return Ok(None);
    }
    let (fine, seen) = disk_is_fine(search).await?;
    let prefix = &search.names.prefix;
    let count = vibe_common::text::units::count(indices.len(), "index", "indices");
    if !fine {
        return Ok(Some(format!(
            "{count} of prefix {prefix} are read-only after a full disk, and a node's disk is still above its \
             high watermark ({seen}): left as they are"
        )));
    }
    let path = format!("/{}/_settings?expand_wildcards=all", indices.join(","));
    search.put(&path, &json!({ "index.blocks.read_only_allow_delete": null })).await?;
    Ok(Some(format!(
        "Lifted the read-only block a full disk left on {count} of prefix {prefix}: every node's disk is below \
         its high watermark ({seen})"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watermarks_read_as_opensearch_writes_them() {
        assert_eq!(Watermark::parse("90%"), Some(Watermark::Used(0.9)));
        assert_eq!(Watermark::parse("0.85"), Some(Watermark::Used(0.85)));
        assert_eq!(Watermark::parse("500mb"), Some(Watermark::Free(500 << 20)));
        assert_eq!(Watermark::parse("1.5gb"), Some(Watermark::Free(3 << 29)));
        assert_eq!(Watermark::parse("lots"), None);
        assert!(Watermark::Used(0.9).below(100, 20) && !Watermark::Used(0.9).below(100, 5));
        assert!(Watermark::Free(10).below(100, 11) && !Watermark::Free(10).below(100, 10));
    }

    #[test]
    fn a_setting_applies_transient_then_persistent_then_default() {
        let key = "cluster.routing.allocation.disk.watermark.high";
        let s = json!({ "persistent": { key: "80%" }, "transient": {}, "defaults": { key: "90%" } });
        assert_eq!(setting(&s, key), Some("80%"));
        let s = json!({ "transient": { key: "70%" }, "persistent": { key: "80%" } });
        assert_eq!(setting(&s, key), Some("70%"));
    }
}
