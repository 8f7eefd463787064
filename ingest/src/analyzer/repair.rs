//! Repair and validation of the model's JSON.
//!
//! [`clean_llm_json`] takes the JSON out of a fenced block (or out of the
//! surrounding prose), drops comments, quotes bare keys, turns single-quoted
//! strings into double-quoted ones, drops trailing commas and closes
//! unbalanced strings, brackets and braces. [`check_answer`] then validates
//! `{"files":[{"path","description","tags":[..]}]}` against the paths that
//! were sent.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::prompts::{DESCRIPTION_PLACEHOLDER, TAG_PLACEHOLDERS};
use crate::indexer::Enrichment;

/// At most this many LLM tags are kept per file (the deterministic tags are
/// bounded apart, `indexer::tags::MAX_DERIVED_TAGS`).
pub const MAX_LLM_TAGS: usize = 12;

/// The JSON text inside a fenced ```` ``` ```` block, if there is one holding a `{` or `[`.
fn fenced_block(raw: &str) -> Option<&str> {
    let mut rest = raw;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        // Skip the info string (e.g. `json`) up to the end of the line.
        let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
        let info = &after[..body_start];
        let (body, next) = if info.contains('{') || info.contains('[') {
            // ```{"files": …}``` on one line.
            match after.find("```") {
                Some(end) => (&after[..end], &after[end + 3..]),
                None => (after, ""),
            }
        } else {
            let body = &after[body_start..];
            match body.find("```") {
                Some(end) => (&body[..end], &body[end + 3..]),
                None => (body, ""),
            }
        };
        if body.contains('{') || body.contains('[') {
            return Some(body);
        }
        rest = next;
    }
    None
}

/// Best-effort repair of an LLM's JSON output; see the module docs.
pub fn clean_llm_json(raw: &str) -> String {
    let text = fenced_block(raw).unwrap_or(raw);
    let start = match text.find(['{', '[']) {
        Some(i) => i,
        None => return text.trim().to_string(),
    };
    let chars: Vec<char> = text[start..].chars().collect();
    let mut r = Repair { out: String::with_capacity(chars.len() + 16), chars, stack: Vec::new(), i: 0 };
    let n = r.chars.len();
    while r.i < n {
        let c = r.chars[r.i];
        match c {
            '"' | '\'' => r.string(c),
            '/' if r.comment_at(r.i) => r.i = r.skip_comment(r.i),
            '{' | '[' => {
                r.stack.push(c);
                r.out.push(c);
                r.i += 1;
            }
            '}' | ']' => {
                if r.close(c) {
                    // The top-level value is complete: ignore any trailing prose.
                    break;
                }
            }
            ',' => r.comma(),
            c if c.is_alphabetic() || c == '_' || c == '$' => r.word(),
            _ => {
                r.out.push(c);
                r.i += 1;
            }
        }
    }
    r.close_unbalanced();
    r.out
}

/// The state of [`clean_llm_json`]: the text, where it is, what it wrote and
/// the brackets and braces open.
struct Repair {
    chars: Vec<char>,
    i: usize,
    out: String,
    stack: Vec<char>,
}

impl Repair {
    /// Whether a `//` or `/*` comment starts at `j`.
    fn comment_at(&self, j: usize) -> bool {
        self.chars[j] == '/' && matches!(self.chars.get(j + 1), Some('/' | '*'))
    }

    /// Where the comment starting at `j` ends.
    fn skip_comment(&self, mut j: usize) -> usize {
        let (chars, n) = (&self.chars, self.chars.len());
        if chars[j + 1] == '/' {
            while j < n && chars[j] != '\n' {
                j += 1;
            }
        } else {
            j += 2;
            while j + 1 < n && !(chars[j] == '*' && chars[j + 1] == '/') {
                j += 1;
            }
            j += 2;
        }
        j
    }

    /// The next significant char from `j` (skipping whitespace and comments).
    fn next_significant(&self, mut j: usize) -> Option<char> {
        while j < self.chars.len() {
            let c = self.chars[j];
            if c.is_whitespace() {
                j += 1;
            } else if self.comment_at(j) {
                j = self.skip_comment(j);
            } else {
                return Some(c);
            }
        }
        None
    }

    /// A string opened by `quote`; single quotes become double quotes, an
    /// unclosed string is closed.
    fn string(&mut self, quote: char) {
        let (chars, n, out) = (&self.chars, self.chars.len(), &mut self.out);
        let mut i = self.i;
        out.push('"');
        i += 1;
        let mut closed = false;
        while i < n {
            let d = chars[i];
            if d == '\\' && i + 1 < n {
                if quote == '\'' && chars[i + 1] == '\'' {
                    out.push('\'');
                } else {
                    out.push(d);
                    out.push(chars[i + 1]);
                }
                i += 2;
                continue;
            }
            if d == quote {
                closed = true;
                out.push('"');
                i += 1;
                break;
            }
            match d {
                '"' => out.push_str("\\\""),
                '\n' => out.push_str("\\n"),
                '\r' => {}
                '\t' => out.push_str("\\t"),
                _ => out.push(d),
            }
            i += 1;
        }
        if !closed {
            if out.ends_with('\\') {
                out.pop();
            }
            out.push('"');
        }
        self.i = i;
    }

    /// A closing `}` or `]`: closes whatever was left open inside first; a
    /// stray one is dropped. Returns whether the top-level value is complete.
    fn close(&mut self, c: char) -> bool {
        let open = if c == '}' { '{' } else { '[' };
        if self.stack.contains(&open) {
            while let Some(top) = self.stack.pop() {
                trim_trailing_comma(&mut self.out);
                self.out.push(if top == '{' { '}' } else { ']' });
                if top == open {
                    break;
                }
            }
        }
        self.i += 1;
        self.stack.is_empty()
    }

    /// A comma, dropped before a closer, another comma or the end.
    fn comma(&mut self) {
        match self.next_significant(self.i + 1) {
            Some('}') | Some(']') | None => {}
            Some(',') => {}
            _ => self.out.push(','),
        }
        self.i += 1;
    }

    /// A bare word: a key is quoted, Python's and JavaScript's constants become JSON's.
    fn word(&mut self) {
        let begin = self.i;
        while self.i < self.chars.len()
            && (self.chars[self.i].is_alphanumeric() || matches!(self.chars[self.i], '_' | '$' | '-' | '.'))
        {
            self.i += 1;
        }
        let word: String = self.chars[begin..self.i].iter().collect();
        let in_object = self.stack.last() == Some(&'{');
        if in_object && self.next_significant(self.i) == Some(':') {
            self.out.push('"');
            self.out.push_str(&word);
            self.out.push('"');
        } else {
            match word.as_str() {
                "True" => self.out.push_str("true"),
                "False" => self.out.push_str("false"),
                "None" | "undefined" => self.out.push_str("null"),
                _ => self.out.push_str(&word),
            }
        }
    }

    /// Unbalanced: drop a dangling comma or key, then close what is open.
    fn close_unbalanced(&mut self) {
        if self.stack.is_empty() {
            return;
        }
        let out = &mut self.out;
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        if out.ends_with(':') {
            out.push_str("null");
        }
        while let Some(top) = self.stack.pop() {
            trim_trailing_comma(out);
            out.push(if top == '{' { '}' } else { ']' });
        }
    }
}

fn trim_trailing_comma(out: &mut String) {
    let trimmed = out.trim_end().len();
    if out[..trimmed].ends_with(',') {
        out.truncate(trimmed - 1);
    }
}

/// Parse the model's output as JSON, repairing it first.
pub fn parse_llm_json(raw: &str) -> Result<Value, String> {
    parse_counted(raw).map(|(v, _)| v)
}

/// [`parse_llm_json`], and whether the text needed repair.
fn parse_counted(raw: &str) -> Result<(Value, bool), String> {
    if let Ok(v) = serde_json::from_str::<Value>(raw.trim()) {
        return Ok((v, false));
    }
    let cleaned = clean_llm_json(raw);
    serde_json::from_str::<Value>(&cleaned)
        .or_else(|e| json5::from_str::<Value>(&cleaned).map_err(|_| e))
        .map(|v| (v, true))
        .map_err(|e| format!("not valid JSON even after repair ({e}): {}", preview(raw)))
}

fn preview(raw: &str) -> String {
    let one_line: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 200 {
        one_line.chars().take(200).collect::<String>() + "…"
    } else {
        one_line
    }
}

/// The result of checking one answer against the paths that were sent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// Files answered correctly, by path.
    pub matched: HashMap<String, Enrichment>,
    /// Sent paths without a usable answer, in the order they were sent.
    pub missing: Vec<String>,
    /// Paths in the answer that were not sent (changed paths).
    pub unexpected: Vec<String>,
    /// The answer was JSON only after [`clean_llm_json`] repaired it.
    pub repaired: bool,
}

impl Checked {
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// What was wrong, for logs and errors.
    pub fn problem(&self) -> String {
        let mut s = format!("missing {}", self.missing.join(", "));
        if !self.unexpected.is_empty() {
            s += &format!("; unexpected (changed?) paths {}", self.unexpected.join(", "));
        }
        s
    }
}

/// Validate an answer: `{"files":[{"path","description","tags":[..]}]}`
/// (a bare array of files is accepted too). Paths must be unchanged; a file
/// without a real description counts as missing. Errors when the output is
/// not JSON at all.
pub fn check_answer(raw: &str, expected: &[&str]) -> Result<Checked, String> {
    let (value, repaired) = parse_counted(raw)?;
    let entries: Vec<&Value> = match &value {
        Value::Array(a) => a.iter().collect(),
        Value::Object(o) => match o.get("files") {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(f @ Value::Object(_)) => vec![f],
            _ if o.contains_key("path") => vec![&value],
            _ => return Err(format!("the answer has no \"files\" list: {}", preview(raw))),
        },
        _ => return Err(format!("the answer is not a JSON object: {}", preview(raw))),
    };
    let wanted: HashSet<&str> = expected.iter().copied().collect();
    let mut checked = Checked { repaired, ..Checked::default() };
    for entry in entries {
        let Some(path) = entry.get("path").and_then(Value::as_str).map(str::trim) else {
            continue;
        };
        if !wanted.contains(path) {
            checked.unexpected.push(path.to_string());
            continue;
        }
        if checked.matched.contains_key(path) {
            continue;
        }
        let description = match entry.get("description") {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "),
            _ => String::new(),
        };
        if description.is_empty() || description.contains(DESCRIPTION_PLACEHOLDER) {
            continue;
        }
        let raw_tags: Vec<String> = match entry.get("tags") {
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            Some(Value::String(s)) => s.split(',').map(str::to_string).collect(),
            _ => Vec::new(),
        };
        let mut tags: Vec<String> = Vec::new();
        for t in raw_tags {
            let t = t.trim().trim_start_matches('#').trim().to_string();
            if t.is_empty() || is_placeholder_tag(&t) || tags.iter().any(|x| x.eq_ignore_ascii_case(&t)) {
                continue;
            }
            tags.push(t);
            if tags.len() == MAX_LLM_TAGS {
                break;
            }
        }
        checked.matched.insert(path.to_string(), Enrichment { description, tags });
    }
    checked.missing = expected.iter().filter(|p| !checked.matched.contains_key(**p)).map(|p| p.to_string()).collect();
    Ok(checked)
}

/// A tag that only numbers tags: the prompt's `TAG1`, or a small model's `tag7`.
fn is_placeholder_tag(tag: &str) -> bool {
    let lower = tag.to_ascii_lowercase();
    TAG_PLACEHOLDERS.iter().any(|p| p.eq_ignore_ascii_case(tag))
        || lower
            .strip_prefix("tag")
            .is_some_and(|n| !n.is_empty() && n.trim_start_matches(['_', ' ']).parse::<u32>().is_ok())
}

/// The summary of a project-prompt answer: `{"summary": ".."}`, or the plain
/// text when the model did not answer JSON.
pub fn parse_summary(raw: &str) -> Option<String> {
    let text = match parse_llm_json(raw) {
        Ok(Value::Object(o)) => o
            .get("summary")
            .or_else(|| o.values().find(|v| v.is_string()))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_default(),
        Ok(Value::String(s)) => s,
        _ => raw.trim().trim_matches('`').to_string(),
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty() && !text.contains("YOUR 2-3 SENTENCES")).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(raw: &str) -> Value {
        serde_json::from_str(&clean_llm_json(raw)).unwrap_or_else(|e| panic!("{e}: {}", clean_llm_json(raw)))
    }

    #[test]
    fn fenced_block() {
        let raw = "Here you go:\n```json\n{\"files\": [{\"path\": \"a.rs\", \"description\": \"A\", \"tags\": [\"x\"]}]}\n```\nHope it helps!";
        assert_eq!(parse(raw)["files"][0]["path"], "a.rs");
        let raw = "```\n{\"a\": 1}\n```";
        assert_eq!(parse(raw), json!({"a": 1}));
        let raw = "```{\"a\": 1}```";
        assert_eq!(parse(raw), json!({"a": 1}));
    }

    #[test]
    fn bare_keys_single_quotes_and_comments() {
        let raw = "{files: [{path: 'src/a.rs', description: 'It\\'s \"A\"', tags: ['x', 'y'], // note\n}]}";
        let v = parse(raw);
        assert_eq!(v["files"][0]["path"], "src/a.rs");
        assert_eq!(v["files"][0]["description"], "It's \"A\"");
        assert_eq!(v["files"][0]["tags"], json!(["x", "y"]));
        let v = parse("{ /* c */ ok: True, none: None, n: -1.5e3 }");
        assert_eq!(v, json!({"ok": true, "none": null, "n": -1500.0}));
    }

    #[test]
    fn trailing_commas() {
        let v = parse("{\"files\": [{\"path\": \"a\", \"tags\": [\"x\", \"y\",],},],}");
        assert_eq!(v, json!({"files": [{"path": "a", "tags": ["x", "y"]}]}));
        assert_eq!(parse("[1,,2]"), json!([1, 2]));
    }

    #[test]
    fn unbalanced_braces() {
        let v = parse("{\"files\": [{\"path\": \"a\", \"description\": \"cut off");
        assert_eq!(v, json!({"files": [{"path": "a", "description": "cut off"}]}));
        let v = parse("{\"files\": [{\"path\": \"a\", \"tags\": [\"x\",");
        assert_eq!(v, json!({"files": [{"path": "a", "tags": ["x"]}]}));
        let v = parse("{\"a\": {\"b\": 1]}");
        assert_eq!(v, json!({"a": {"b": 1}}));
        let v = parse("{\"a\":");
        assert_eq!(v, json!({"a": null}));
        // Prose after the value is ignored.
        assert_eq!(parse("{\"a\": 1} and {\"b\": 2}"), json!({"a": 1}));
    }

    #[test]
    fn strings_keep_their_content() {
        let v = parse(r#"{"d": "a, } ] // not a comment, 'q' \"x\" \\"}"#);
        assert_eq!(v["d"], "a, } ] // not a comment, 'q' \"x\" \\");
        let v = parse("{\"d\": \"line\nbreak\"}");
        assert_eq!(v["d"], "line\nbreak");
    }

    #[test]
    fn check_matches_paths() {
        let raw = r#"{"files": [
            {"path": "a.rs", "description": "A file", "tags": ["x", "TAG2", "X", " y "]},
            {"path": "B.rs", "description": "renamed", "tags": []},
            {"path": "c.rs", "description": "FILL_DESCRIPTION", "tags": []}
        ]}"#;
        let c = check_answer(raw, &["a.rs", "b.rs", "c.rs"]).unwrap();
        assert_eq!(c.matched["a.rs"], Enrichment { description: "A file".into(), tags: vec!["x".into(), "y".into()] });
        assert_eq!(c.missing, ["b.rs", "c.rs"]);
        assert_eq!(c.unexpected, ["B.rs"]);
        assert!(!c.is_complete());
        assert!(c.problem().contains("B.rs"));
        // A bare array and comma-separated tags are accepted.
        let c = check_answer(r#"[{"path": "a.rs", "description": "A", "tags": "p, q"}]"#, &["a.rs"]).unwrap();
        assert!(c.is_complete());
        assert_eq!(c.matched["a.rs"].tags, ["p", "q"]);
        assert!(check_answer("I cannot do that.", &["a.rs"]).is_err());
        assert!(check_answer("{\"other\": 1}", &["a.rs"]).is_err());
    }

    #[test]
    fn numbered_placeholder_tags_are_dropped() {
        let raw = r#"{"files":[{"path":"a.go","description":"Adds numbers.","tags":["tag1","TAG2","tag 3","maths","tagging","tag"]}]}"#;
        let checked = check_answer(raw, &["a.go"]).unwrap();
        assert_eq!(checked.matched["a.go"].tags, ["maths", "tagging", "tag"]);
    }

    #[test]
    fn summaries() {
        assert_eq!(parse_summary("{\"summary\": \"A tool.  It works.\"}").as_deref(), Some("A tool. It works."));
        assert_eq!(parse_summary("```json\n{summary: 'X.'}\n```").as_deref(), Some("X."));
        assert_eq!(parse_summary("Just text.").as_deref(), Some("Just text."));
        assert_eq!(parse_summary("{\"summary\": \"\"}"), None);
    }
}
