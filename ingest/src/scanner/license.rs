//! License detection: find the license file at a source's root and identify
//! it with askalono against a store built at compile time (see `build.rs`);
//! nothing is downloaded at run time. Loading the store costs ~0.1 s of CPU
//! (most of it allocating its n-gram tables), so the commands remember what
//! a license text was identified as, by the text's BLAKE3, in the config
//! directory ([`remember_in`]).

use askalono::{Store, TextData};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The askalono cache built by `build.rs`.
static STORE_CACHE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/askalono-cache.bin.zstd"));

/// Matches scoring below this are not reported as an SPDX id.
pub const MIN_SCORE: f32 = 0.8;

/// License files are read up to this size.
const MAX_LICENSE_BYTES: u64 = 256 * 1024;

pub use vibe_common::document::project_meta::LicenseInfo;

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

/// Where identified license texts are remembered, once set.
static REMEMBERED: OnceLock<PathBuf> = OnceLock::new();

/// Remember identified license texts in `<config_dir>/cache/licenses.json`
/// (for this process; the first call wins).
pub fn remember_in(config_dir: &Path) {
    let _ = REMEMBERED.set(config_dir.join("cache").join("licenses.json"));
}

/// The file of [`remember_in`]: identifications by the BLAKE3 of the text,
/// valid for one store (a build with another store starts afresh).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Remembered {
    store: String,
    ids: BTreeMap<String, (String, f32)>,
}

/// Texts remembered at most; past this the file starts afresh.
const MAX_REMEMBERED: usize = 256;

/// [`identify`], through the file at `path`: a text seen before (with the
/// same store) is not identified again. The file is best effort: unreadable
/// or stale, it is rewritten; unwritable, the answer is still returned.
fn identify_remembered(path: &Path, text: &str) -> Option<(String, f32)> {
    static STORE_ID: OnceLock<String> = OnceLock::new();
    let store_id = STORE_ID.get_or_init(|| blake3::hash(STORE_CACHE).to_hex()[..16].to_string());
    let key = blake3::hash(text.as_bytes()).to_hex().to_string();
    let mut known: Remembered = fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .filter(|r: &Remembered| r.store == *store_id && r.ids.len() < MAX_REMEMBERED)
        .unwrap_or_default();
    if let Some(hit) = known.ids.get(&key) {
        return Some(hit.clone());
    }
    let found = identify(text)?;
    known.store.clone_from(store_id);
    known.ids.insert(key, found.clone());
    let bytes = serde_json::to_vec_pretty(&known).unwrap_or_default();
    let written = match path.parent().map_or(Ok(()), fs::create_dir_all) {
        Ok(()) => vibe_common::config::write_atomic(path, &bytes).map_err(|e| e.to_string()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    };
    if let Err(e) = written {
        tracing::debug!("license not remembered: {e}");
    }
    Some(found)
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
    let found = match REMEMBERED.get() {
        Some(path) => identify_remembered(path, &text),
        None => identify(&text),
    };
    let (id, score) = found.unwrap_or_default();
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
    fn identifications_are_remembered_per_text_and_store() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache").join("licenses.json");
        let (id, score) = identify_remembered(&path, MIT).unwrap();
        assert_eq!(id, "MIT");
        let mut known: Remembered = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(known.ids.len(), 1);
        // What the file says is the answer: the store is not asked again.
        known.ids.values_mut().for_each(|v| *v = ("Remembered".into(), 0.5));
        fs::write(&path, serde_json::to_vec(&known).unwrap()).unwrap();
        assert_eq!(identify_remembered(&path, MIT).unwrap(), ("Remembered".into(), 0.5));
        // Another text is identified and added.
        let apache = spdx::license_id("Apache-2.0").unwrap().text();
        assert_eq!(identify_remembered(&path, apache).unwrap().0, "Apache-2.0");
        let known: Remembered = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(known.ids.len(), 2);
        // A file written with another store, or unreadable, is started afresh.
        let stale = Remembered { store: "other".into(), ids: known.ids.clone() };
        fs::write(&path, serde_json::to_vec(&stale).unwrap()).unwrap();
        assert_eq!(identify_remembered(&path, MIT).unwrap(), (id.clone(), score));
        fs::write(&path, b"{not json").unwrap();
        assert_eq!(identify_remembered(&path, MIT).unwrap(), (id, score));
        let known: Remembered = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(known.ids.len(), 1);
    }

    #[test]
    fn unwritable_cache_still_identifies() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        fs::write(&blocker, "").unwrap();
        let (id, _) = identify_remembered(&blocker.join("licenses.json"), MIT).unwrap();
        assert_eq!(id, "MIT");
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
