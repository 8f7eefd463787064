//! Comment text: markers and documentation markup removed, as the
//! language's table entry (`languages.rs`) describes them.

use super::grammars::{DocMarkup, Language};

/// Comment text without its markers, one entry per non-empty line.
pub(crate) fn clean_comment(lang: &Language, raw: &str) -> Vec<String> {
    let starts = lang.comment_tokens.iter().copied().chain(lang.block_comment_tokens.iter().map(|b| b.start));
    let star_leaders = lang.doc_markup.contains(&DocMarkup::StarLeaders);
    let xml_tags = lang.doc_markup.contains(&DocMarkup::XmlTags);
    raw.lines()
        .filter_map(|line| {
            let mut l = line.trim();
            if let Some(rest) = starts.clone().find_map(|token| strip_token(l, token)) {
                l = rest;
            }
            if let Some(rest) = lang.block_comment_tokens.iter().find_map(|b| l.strip_suffix(b.end)) {
                l = rest;
            }
            let mut l = l.trim();
            if star_leaders {
                l = l.trim_start_matches('*').trim();
            }
            let l = if xml_tags { strip_xml_tags(l) } else { l.to_string() };
            let l = l.trim();
            (!l.is_empty()).then(|| l.to_string())
        })
        .collect()
}

/// Whether the text between two nodes holds a blank line (comments that
/// touch a definition document it; a blank line ends the run).
pub(crate) fn has_blank_line(between: &str) -> bool {
    let segments: Vec<&str> = between.split('\n').collect();
    segments.len() > 2 && segments[1..segments.len() - 1].iter().any(|l| l.trim().is_empty())
}

/// `line` without a leading comment token, matched ignoring ASCII case; a
/// token ending in a letter or a digit (`rem`) must end a word.
fn strip_token<'a>(line: &'a str, token: &str) -> Option<&'a str> {
    let head = line.get(..token.len())?;
    let rest = &line[token.len()..];
    let word = token.ends_with(|c: char| c.is_ascii_alphanumeric());
    (head.eq_ignore_ascii_case(token) && (!word || rest.is_empty() || rest.starts_with(char::is_whitespace)))
        .then_some(rest)
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
fn strip_xml_tags(line: &str) -> String {
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

    use crate::extract::grammars::by_id;

    fn clean(lang: &str, raw: &str) -> Vec<String> {
        clean_comment(by_id(lang).unwrap(), raw)
    }

    #[test]
    fn cleans_comment_markers() {
        assert_eq!(clean("rust", "/// Adds two numbers"), vec!["Adds two numbers"]);
        assert_eq!(clean("java", "/**\n * Line one\n * Line two\n */"), vec!["Line one", "Line two"]);
        assert_eq!(clean("python", "\"\"\"Adds two numbers\"\"\""), vec!["Adds two numbers"]);
        assert_eq!(clean("python", "#: An attribute"), vec!["An attribute"]);
        assert_eq!(clean("batch", "REM Builds it"), vec!["Builds it"]);
        assert_eq!(clean("batch", "@rem Builds it"), vec!["Builds it"]);
        assert_eq!(clean("batch", "rem"), Vec::<String>::new());
        assert_eq!(clean("batch", "remark"), vec!["remark"]);
        assert_eq!(clean("batch", ":: Builds it"), vec!["Builds it"]);
        assert_eq!(clean("bash", "# shell doc"), vec!["shell doc"]);
        assert_eq!(clean("csharp", "/// <summary>Adds two numbers.</summary>"), vec!["Adds two numbers."]);
        assert_eq!(clean("csharp", "/// <param name=\"a\">First.</param>"), vec!["a First."]);
        assert_eq!(clean("csharp", "/// Returns a Vec<String>."), vec!["Returns a Vec<String>."]);
    }

    #[test]
    fn markers_and_markup_are_the_language_s_own() {
        assert_eq!(clean("rust", "/// The default is 'a'"), vec!["The default is 'a'"]);
        assert_eq!(clean("rust", "/// <summary>"), vec!["<summary>"]);
        assert_eq!(clean("bash", "# :: not batch"), vec![":: not batch"]);
    }

    #[test]
    fn blank_line_detection() {
        assert!(!has_blank_line("\n"));
        assert!(!has_blank_line("\n#[derive(Debug)]\n"));
        assert!(has_blank_line("\n\n"));
        assert!(has_blank_line("\n   \n"));
    }
}
