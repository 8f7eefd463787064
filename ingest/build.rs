//! Builds askalono's license store from the SPDX license texts bundled with
//! the `spdx` crate (feature `text`) and writes it as a cache file to
//! OUT_DIR, where `scanner::license` embeds it with `include_bytes!`.
//! Nothing is downloaded, at build time or at run time.
//!
//! To keep the build step fast only non-deprecated licenses that are OSI
//! approved, FSF free/libre or in the COMMON list are included (about a
//! third of the SPDX list); licenses sharing one text (`GPL-3.0-only` and
//! `GPL-3.0-or-later`) are stored once, under the first id.

use askalono::{Store, TextData};
use std::collections::HashSet;
use std::path::PathBuf;

/// Common licenses that are neither OSI approved nor FSF free.
const COMMON: &[&str] = &[
    "CC-BY-4.0",
    "CC-BY-SA-4.0",
    "CC-BY-NC-4.0",
    "CC-BY-NC-SA-4.0",
    "CC-BY-ND-4.0",
    "CC-BY-3.0",
    "CC-PDDL",
    "CC0-1.0",
    "Unlicense",
    "WTFPL",
    "BSD-2-Clause-Patent",
    "BSD-3-Clause-Clear",
    "BUSL-1.1",
    "Elastic-2.0",
    "SSPL-1.0",
    "PolyForm-Noncommercial-1.0.0",
    "PolyForm-Small-Business-1.0.0",
    "Commons-Clause",
    "JSON",
    "Beerware",
    "blessing",
    "MIT-0",
    "ISC",
    "Zlib",
    "curl",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));

    let mut store = Store::new();
    let mut seen_texts = HashSet::new();
    for lic in spdx::identifiers::LICENSES {
        let Some(id) = spdx::license_id(lic.name) else {
            continue;
        };
        if id.is_deprecated() {
            continue;
        }
        if !(id.is_osi_approved() || id.is_fsf_free_libre() || COMMON.contains(&lic.name)) {
            continue;
        }
        let text = id.text();
        if text.trim().is_empty() || !seen_texts.insert(text) {
            continue;
        }
        store.add_license(lic.name.to_string(), TextData::from(text));
    }

    let path = out.join("askalono-cache.bin.zstd");
    write_cache(&store, &path);
}

/// The header `Store::from_cache` expects (askalono 0.5).
const CACHE_VERSION: &[u8] = b"askalono-04";

/// What `Store::to_cache` writes (header, then the MessagePack store in a
/// zstd stream), but at zstd level 3 instead of 21: level 21 takes over ten
/// seconds in an unoptimized build script, level 3 a fraction of one, for a
/// cache about 1.5x larger. `Store::from_cache` reads either.
fn write_cache(store: &Store, path: &std::path::Path) {
    use serde::Serialize;
    use std::io::Write;
    let mut buf = Vec::with_capacity(4 << 20);
    store.serialize(&mut rmp_serde::Serializer::new(&mut buf)).expect("serialize askalono store");
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create askalono cache"));
    file.write_all(CACHE_VERSION).expect("write askalono cache");
    let mut enc = zstd::Encoder::new(file, 3).expect("zstd encoder");
    enc.write_all(&buf).expect("write askalono cache");
    enc.finish().expect("finish askalono cache").flush().expect("flush askalono cache");
}
