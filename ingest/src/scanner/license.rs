//! License detection: find the license file at a source's root and identify
//! it with askalono against a store built at compile time (see `build.rs`);
//! nothing is downloaded at run time.

use askalono::{Store, TextData};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

/// The askalono cache built by `build.rs`.
static STORE_CACHE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/askalono-cache.bin.zstd"));

/// Matches scoring below this are not reported as an SPDX id.
pub const MIN_SCORE: f32 = 0.8;

/// License files are read up to this size.
const MAX_LICENSE_BYTES: u64 = 256 * 1024;

/// The license of a source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LicenseInfo {
    /// The license file, relative to the source root.
    pub path: String,
    /// The SPDX id, when the best match scored at least [`MIN_SCORE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spdx_id: Option<String>,
    /// Similarity of the best match, 0.0 to 1.0.
    pub score: f32,
}

/// The askalono store, loaded once. `None` if the embedded cache is unusable.
pub fn store() -> Option<&'static Store> {
    static STORE: OnceLock<Option<Store>> = OnceLock::new();
    STORE
        .get_or_init(|| match Store::from_cache(STORE_CACHE) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::warn!("license store unusable: {e}");
                None
            }
        })
        .as_ref()
}

/// Identify a license text: the best match's SPDX id and score.
pub fn identify(text: &str) -> Option<(String, f32)> {
    let store = store()?;
    let m = store.analyze(&TextData::from(text));
    Some((m.name.to_string(), m.score))
}

/// Rank of a license file name (lower is better), or `None` if it is not one.
pub fn license_file_rank(name: &str) -> Option<u8> {
    fn base_rank(base: &str) -> Option<u8> {
        match base {
            "LICENSE" | "LICENCE" => Some(0),
            "COPYING" => Some(1),
            b if ["LICENSE-", "LICENCE-", "COPYING-"].iter().any(|p| b.starts_with(p)) => Some(2),
            _ => None,
        }
    }
    let upper = name.to_uppercase();
    if let Some((base, ext)) = upper.rsplit_once('.') {
        let ext_rank = match ext {
            "MD" | "MARKDOWN" => Some(1),
            "TXT" => Some(2),
            "RST" => Some(3),
            _ => None,
        };
        if let (Some(b), Some(e)) = (base_rank(base), ext_rank) {
            return Some(b * 4 + e);
        }
    }
    // No (known) extension: `LICENSE`, `COPYING`, `LICENSE-MIT`, `LICENSE-APACHE-2.0`.
    match base_rank(&upper)? {
        2 => Some(8),
        b if !upper.contains('.') => Some(b * 4),
        _ => None,
    }
}

/// Find the license file at `root` (LICENSE, LICENSE.md, LICENSE.txt,
/// COPYING, … case-insensitive; then LICENSE-* files) and identify it.
pub fn detect_license(root: &Path) -> Option<LicenseInfo> {
    let mut best: Option<(u8, String)> = None;
    for entry in fs::read_dir(root).ok()?.flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if let Some(rank) = license_file_rank(&name) {
            let cand = (rank, name);
            if best.as_ref().is_none_or(|b| cand < *b) {
                best = Some(cand);
            }
        }
    }
    let (_, name) = best?;
    let mut buf = Vec::new();
    fs::File::open(root.join(&name)).ok()?.take(MAX_LICENSE_BYTES).read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf);
    let (id, score) = identify(&text).unwrap_or_default();
    Some(LicenseInfo {
        path: name,
        spdx_id: (score >= MIN_SCORE && !id.is_empty()).then_some(id),
        score: (score * 1000.0).round() / 1000.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The MIT license of the bundled sample project.
    pub(crate) const MIT: &str = include_str!("../../../tests/fixtures/samples/LICENSE");

    #[test]
    fn file_name_ranks() {
        assert!(license_file_rank("LICENSE") < license_file_rank("license.md"));
        assert!(license_file_rank("LICENSE.md") < license_file_rank("LICENSE.txt"));
        assert!(license_file_rank("LICENSE.txt") < license_file_rank("COPYING"));
        assert!(license_file_rank("COPYING") < license_file_rank("LICENSE-MIT"));
        assert_eq!(license_file_rank("LICENSE.rs"), None);
        assert_eq!(license_file_rank("licenses"), None);
        assert_eq!(license_file_rank("LICENSE-APACHE-2.0"), Some(8));
    }

    #[test]
    fn detects_mit() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("LICENSE"), MIT).unwrap();
        let l = detect_license(dir.path()).unwrap();
        assert_eq!(l.path, "LICENSE");
        assert_eq!(l.spdx_id.as_deref(), Some("MIT"), "{l:?}");
        assert!(l.score > 0.9);
    }

    #[test]
    fn detects_apache_2() {
        let dir = tempfile::tempdir().unwrap();
        // The real text, as bundled with the spdx crate (a dev-dependency).
        fs::write(dir.path().join("LICENSE.txt"), spdx::license_id("Apache-2.0").unwrap().text()).unwrap();
        fs::write(dir.path().join("COPYING"), MIT).unwrap();
        let l = detect_license(dir.path()).unwrap();
        assert_eq!(l.path, "LICENSE.txt");
        assert_eq!(l.spdx_id.as_deref(), Some("Apache-2.0"), "{l:?}");
    }

    #[test]
    fn unknown_text_has_no_id() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("LICENSE.md"), "All rights reserved. Do not copy.\n").unwrap();
        let l = detect_license(dir.path()).unwrap();
        assert_eq!(l.spdx_id, None);
        assert!(detect_license(tempfile::tempdir().unwrap().path()).is_none());
    }
}
