//! Comment text: markers and documentation tags removed.

/// Comment text without its markers, one entry per non-empty line.
pub(crate) fn clean_comment(raw: &str) -> Vec<String> {
    const PREFIXES: &[&str] =
        &["///", "//!", "//", "/**", "/*!", "/*", "#'", "#:", "#", "::", "r\"\"\"", "\"\"\"", "'''", "\"", "'"];
    const SUFFIXES: &[&str] = &["*/", "\"\"\"", "'''", "\"", "'"];
    raw.lines()
        .filter_map(|line| {
            let mut l = line.trim();
            for p in PREFIXES {
                if let Some(rest) = l.strip_prefix(p) {
                    l = rest;
                    break;
                }
            }
            let unat = l.strip_prefix('@').unwrap_or(l);
            if unat.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("rem ")) || unat.eq_ignore_ascii_case("rem") {
                l = &unat[3..];
            }
            for s in SUFFIXES {
                if let Some(rest) = l.strip_suffix(s) {
                    l = rest;
                    break;
                }
            }
            let l = strip_doc_tags(l.trim().trim_start_matches('*').trim());
            let l = l.trim();
            (!l.is_empty()).then(|| l.to_string())
        })
        .collect()
}

/// XML documentation tags (C#) that carry no text of their own.
const DOC_TAGS: &[&str] = &[
    "summary",
    "remarks",
    "returns",
    "param",
    "typeparam",
    "paramref",
    "typeparamref",
    "see",
    "seealso",
    "value",
    "example",
    "code",
    "c",
    "exception",
    "para",
    "inheritdoc",
    "list",
    "item",
    "description",
    "term",
];

/// Remove XML documentation tags, keeping their text and `name`/`cref` values.
fn strip_doc_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else { break };
        let tag = &rest[open + 1..open + close];
        let name = tag.trim_start_matches('/').split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("");
        out.push_str(&rest[..open]);
        if DOC_TAGS.contains(&name) {
            if let Some(v) = tag.split('"').nth(1).filter(|_| tag.contains("name=") || tag.contains("cref=")) {
                out.push_str(v);
                out.push(' ');
            }
        } else {
            out.push_str(&rest[open..=open + close]);
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_comment_markers() {
        assert_eq!(clean_comment("/// Adds two numbers"), vec!["Adds two numbers"]);
        assert_eq!(clean_comment("/**\n * Line one\n * Line two\n */"), vec!["Line one", "Line two"]);
        assert_eq!(clean_comment("\"\"\"Adds two numbers\"\"\""), vec!["Adds two numbers"]);
        assert_eq!(clean_comment("REM Builds it"), vec!["Builds it"]);
        assert_eq!(clean_comment("@rem Builds it"), vec!["Builds it"]);
        assert_eq!(clean_comment(":: Builds it"), vec!["Builds it"]);
        assert_eq!(clean_comment("# shell doc"), vec!["shell doc"]);
        assert_eq!(clean_comment("/// <summary>Adds two numbers.</summary>"), vec!["Adds two numbers."]);
        assert_eq!(clean_comment("/// <param name=\"a\">First.</param>"), vec!["a First."]);
        assert_eq!(clean_comment("/// Returns a Vec<String>."), vec!["Returns a Vec<String>."]);
    }
}
