//! The index format: a fingerprint of everything that decides what an
//! indexed document holds (the index templates, every language's query
//! file, the extraction engine's version). It is stored in each project's
//! meta document; a project built with another format is rebuilt by the next
//! `scan index` through a new generation, without `--force`.

use std::sync::OnceLock;

use vibe_common::naming::IndexNames;
use vibe_common::templates;

use crate::extract::{languages, LANGUAGES};

/// Bump when the engine or the documents change what is extracted or
/// stored, without a template or query file changing.
const EXTRACTION_VERSION: u32 = 11;

/// The current index format (16 hex digits).
pub fn current() -> &'static str {
    static FORMAT: OnceLock<String> = OnceLock::new();
    FORMAT.get_or_init(|| {
        let mut h = blake3::Hasher::new();
        h.update(&EXTRACTION_VERSION.to_le_bytes());
        for t in templates::index_templates(&IndexNames::new("vibe")) {
            h.update(t.name.as_bytes());
            h.update(t.body.to_string().as_bytes());
        }
        for lang in LANGUAGES {
            h.update(lang.id.as_bytes());
            h.update(languages::query_source(lang).unwrap_or_default().as_bytes());
        }
        h.finalize().to_hex()[..16].to_string()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn format_is_stable_and_short() {
        assert_eq!(super::current().len(), 16);
        assert_eq!(super::current(), super::current());
    }
}
