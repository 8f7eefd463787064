//! The index format: a fingerprint of everything that decides what an
//! indexed document holds (the index templates, every language's query
//! file, the extraction engine's version). It is stored in each project's
//! meta document; a project built with another format is rebuilt by the next
//! `scan index` through a new generation, without `--force`.

use std::sync::OnceLock;

use vibe_common::backend::naming::IndexNames;
use vibe_common::backend::templates;

use crate::extract::{grammars, LANGUAGES};

/// Bump when the engine or the documents change what is extracted or
/// stored, without a template or query file changing.
const EXTRACTION_VERSION: u32 = 18;

/// The current index format (16 hex digits).
pub fn current() -> &'static str {
    static FORMAT: OnceLock<String> = OnceLock::new();
    FORMAT.get_or_init(|| format_of(EXTRACTION_VERSION))
}

/// The format of this build's templates and queries with the engine at
/// `extraction_version`.
fn format_of(extraction_version: u32) -> String {
    let mut h = blake3::Hasher::new();
    h.update(&extraction_version.to_le_bytes());
    for t in templates::index_templates(&IndexNames::new("vibe")) {
        h.update(t.name.as_bytes());
        h.update(indexed_part(t.body).to_string().as_bytes());
    }
    for lang in LANGUAGES {
        h.update(lang.id.as_bytes());
        h.update(grammars::query_source(lang).unwrap_or_default().as_bytes());
    }
    h.finalize().to_hex()[..16].to_string()
}

/// An index template without its version and `_meta`: a version bumped
/// for a search template alone (`search-templates/`) changes no indexed
/// document, so it rebuilds no project.
fn indexed_part(mut body: serde_json::Value) -> serde_json::Value {
    if let Some(o) = body.as_object_mut() {
        o.remove("version");
        o.remove("_meta");
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_is_short_and_follows_the_engine() {
        assert!(current().len() == 16 && current().chars().all(|c| c.is_ascii_hexdigit()), "{}", current());
        assert_eq!(format_of(EXTRACTION_VERSION), current(), "computed the same way each time");
        assert_ne!(format_of(EXTRACTION_VERSION + 1), current(), "a new engine version is a new format");
    }

    #[test]
    fn the_template_version_alone_is_not_the_format() {
        let body = serde_json::json!({ "version": 26, "_meta": { "vibe_version": 26 }, "template": { "a": 1 } });
        let bumped = serde_json::json!({ "version": 27, "_meta": { "vibe_version": 27 }, "template": { "a": 1 } });
        assert_eq!(indexed_part(body), indexed_part(bumped.clone()));
        assert_ne!(indexed_part(bumped), indexed_part(serde_json::json!({ "template": { "a": 2 } })));
    }
}
