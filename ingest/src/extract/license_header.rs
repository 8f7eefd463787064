//! License headers: a comment block at the top of a file that states the
//! license is not a header comment worth reading; it is reported once, as an
//! SPDX id. Recognition is by phrases (cheap: it runs on every file), not by
//! comparing whole license texts.

/// Phrases that identify a license, most specific first, with its SPDX id.
const LICENSE_PHRASES: &[(&str, &str)] = &[
    ("apache license, version 2.0", "Apache-2.0"),
    ("apache license version 2.0", "Apache-2.0"),
    ("www.apache.org/licenses/license-2.0", "Apache-2.0"),
    ("gnu lesser general public license", "LGPL"),
    ("gnu library general public license", "LGPL"),
    ("gnu affero general public license", "AGPL"),
    ("gnu general public license", "GPL"),
    ("classpath\" exception", "GPL-2.0 WITH Classpath-exception-2.0"),
    ("mozilla public license", "MPL-2.0"),
    ("eclipse public license", "EPL"),
    ("permission is hereby granted, free of charge", "MIT"),
    ("permission to use, copy, modify, and/or distribute", "ISC"),
    ("redistribution and use in source and binary forms", "BSD"),
    ("this is free and unencumbered software", "Unlicense"),
    ("creative commons", "CC"),
    ("boost software license", "BSL-1.0"),
    ("python software foundation license", "PSF-2.0"),
];

/// Words of a copyright notice: such lines are dropped from a header.
const LICENSE_WORDS: &[&str] = &["copyright", "licensed under", "all rights reserved", "spdx-license-identifier"];

/// Split header blocks into the license (an SPDX id, when one is
/// recognised) and the header comment lines that remain.
pub fn split(blocks: Vec<Vec<String>>) -> (Option<String>, Vec<String>) {
    let mut license = None;
    let mut header = Vec::new();
    for block in blocks {
        let text = block.join(" ").to_lowercase();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if LICENSE_PHRASES.iter().any(|(p, _)| text.contains(p)) || text.contains("spdx-license-identifier") {
            // A license text: the whole block goes.
            license = license.or_else(|| spdx_id(&block));
        } else {
            // Copyright lines go, the description stays.
            header.extend(block.into_iter().filter(|l| {
                let l = l.to_lowercase();
                !LICENSE_WORDS.iter().any(|w| l.contains(w))
            }));
        }
    }
    (license, header)
}

/// The SPDX id of a license block: an explicit `SPDX-License-Identifier`, or
/// the first phrase that names a license.
fn spdx_id(block: &[String]) -> Option<String> {
    for line in block {
        if let Some(pos) = line.to_lowercase().find("spdx-license-identifier:") {
            let id = line[pos + "spdx-license-identifier:".len()..].trim().trim_end_matches("*/").trim();
            if !id.is_empty() {
                return Some(id.to_string());
            }
        }
    }
    let text = block.join(" ").to_lowercase();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    LICENSE_PHRASES.iter().find(|(p, _)| text.contains(p)).map(|(_, id)| (*id).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn apache_header_becomes_an_spdx_id() {
        let blocks = vec![
            lines("Copyright (C) 2007 The Android Open Source Project\nLicensed under the Apache License, Version 2.0 (the \"License\");\nyou may not use this file except in compliance with the License."),
            lines("Utilities for readers."),
        ];
        assert_eq!(split(blocks), (Some("Apache-2.0".to_string()), vec!["Utilities for readers.".to_string()]));
    }

    #[test]
    fn spdx_line_wins_and_plain_copyright_is_dropped() {
        assert_eq!(
            split(vec![lines("SPDX-License-Identifier: MIT OR Apache-2.0")]).0,
            Some("MIT OR Apache-2.0".into())
        );
        assert_eq!(split(vec![lines("Copyright 2020 Acme Inc.")]), (None, vec![]));
    }

    #[test]
    fn a_module_docstring_stays() {
        let doc = lines("Parse configuration files.\n\nThe format is described in the user guide.");
        assert_eq!(split(vec![doc.clone()]), (None, doc));
    }
}
