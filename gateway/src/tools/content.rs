//! `get_file_content`'s answer: whole lines from `start_line` up to the
//! answer budget, with `total_lines`, and `truncated: true` with
//! `next_start_line` when the file (or the range) goes on. A line longer
//! than [`LONG_LINE_CHARS`] (minified code) is shortened in a page of lines
//! and listed in `shortened_lines`; asked alone (`start_line` =
//! `end_line`), it comes whole, in parts of the budget (`start_char`,
//! `next_start_char`). Following the `next_*` fields gives the file byte for
//! byte.

use vibe_common::document::content_doc::ContentDoc;

use crate::answers::{Content, FileAnswer, IndexedFile, Line, NoMore};
use crate::budget::{escaped_len, RESERVE};
use crate::normalize::Args;
use crate::tool_error::ToolError;

/// A line longer than this many characters is shortened in a page of lines.
pub const LONG_LINE_CHARS: usize = 2000;
/// Bytes kept for the fields around the content (the header's freshness,
/// the line numbers, a note).
const OVERHEAD: usize = RESERVE + 200;

/// The content answer, or an error for a line range that cannot be served.
/// An empty file says why it is empty (binary, over the size limit, not
/// UTF-8); a range reaching past the end says where the file ends.
pub fn answer(
    doc: &ContentDoc,
    file: &IndexedFile,
    args: &Args,
    budget: usize,
) -> Result<FileAnswer<Content>, ToolError> {
    let content = doc.content.as_deref().unwrap_or_default();
    let mut answer = FileAnswer::of(file, Content::default());
    if content.is_empty() {
        if let Some(why) = empty_reason(doc) {
            answer.message = Some(why);
            return Ok(answer);
        }
    }
    if let (Some(start), Some(end)) = (args.start_line, args.end_line) {
        if start > end {
            return Err(ToolError::Invalid(format!(
                "start_line {start} is after end_line {end}: pass start_line <= end_line"
            )));
        }
    }
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let total = lines.len() as u64;
    let start = args.start_line.unwrap_or(1).max(1);
    if start > total.max(1) {
        return Err(ToolError::Invalid(format!(
            "start_line {start} is past the end of {}: it has {total} lines",
            answer.path
        )));
    }
    let end = args.end_line.unwrap_or(total).min(total);
    // The header's bytes: the content goes in the room left.
    let header = crate::budget::json_len(&FileAnswer::of(file, NoMore {}));
    let room = budget.saturating_sub(header + OVERHEAD);
    answer.body.total_lines = Some(total);
    let alone = args.start_line.is_some() && args.start_line == args.end_line;
    let first = lines.get(start as usize - 1).copied().unwrap_or_default();
    // A first line over the room even shortened (control characters take 6 bytes each).
    let over = if alone { escaped_len(first) } else { escaped_len(&shortened(first).0) } > room;
    if total > 0 && (args.start_char.is_some() || over) {
        let goes_on = (!alone && start < end).then_some(start + 1);
        answer.message = part(&mut answer.body, first, start, args.start_char.unwrap_or(1), room, goes_on);
        return Ok(answer);
    }
    let page = page(&lines, start, end, room, !alone);
    answer.message = lines_page(&mut answer.body, page, args, (start, end, total), budget);
    Ok(answer)
}

/// A page of whole lines in the answer; its message, if any: where the page
/// goes on, which lines were shortened, where the file ends.
fn lines_page(
    body: &mut Content,
    page: Page,
    args: &Args,
    (start, end, total): (u64, u64, u64),
    budget: usize,
) -> Option<String> {
    let ranged = args.start_line.is_some() || args.end_line.is_some();
    let cut = page.last < end;
    body.content = page.text;
    if ranged || cut {
        body.start_line = Some(Line(start));
        body.end_line = Some(Line(page.last));
    }
    let mut notes = Vec::new();
    if cut {
        body.truncated = Some(true);
        body.next_start_line = Some(Line(page.last + 1));
        notes.push(format!(
            "lines {start}-{} of {total} (the answer budget is {budget} bytes): start_line {} goes on",
            page.last,
            page.last + 1
        ));
    }
    if let Some(&first) = page.shortened.first() {
        notes.push(format!(
            "lines longer than {LONG_LINE_CHARS} characters are shortened (shortened_lines); start_line {first} with end_line {first} returns line {first} whole"
        ));
        body.shortened_lines = page.shortened.into_iter().map(Line).collect();
    }
    if args.end_line.is_some_and(|e| e > total) {
        notes.push(format!("the file ends at line {total}"));
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// Whole lines from `start` to at most `end` that fit `room` bytes (at
/// least one), long lines shortened.
struct Page {
    text: String,
    /// The last line given.
    last: u64,
    shortened: Vec<u64>,
}

fn page(lines: &[&str], start: u64, end: u64, room: usize, shorten: bool) -> Page {
    let mut out = Page { text: String::new(), last: start.saturating_sub(1), shortened: Vec::new() };
    let mut used = 0;
    for n in start..=end {
        let line = lines[n as usize - 1];
        let (text, short) = if shorten { shortened(line) } else { (line.into(), false) };
        // The larger of the line in the JSON answer and in the text one
        // (`render`: `{n}: {line}`), so that either rendering keeps to the budget.
        let cost = escaped_len(&text).max(text.len() + n.to_string().len() + 2);
        if used + cost > room && n > start {
            break;
        }
        used += cost;
        out.text.push_str(&text);
        out.last = n;
        if short {
            out.shortened.push(n);
        }
    }
    out
}

/// A line, or its first [`LONG_LINE_CHARS`] characters with `…` before its
/// line ending.
fn shortened(line: &str) -> (std::borrow::Cow<'_, str>, bool) {
    let (head, cut) = crate::budget::cut_chars(line, LONG_LINE_CHARS);
    if !cut {
        return (line.into(), false);
    }
    let ending = if line.ends_with("\r\n") {
        "\r\n"
    } else if line.ends_with('\n') {
        "\n"
    } else {
        ""
    };
    (format!("{}…{ending}", head.trim_end_matches(['\r', '\n'])).into(), true)
}

/// A part of one line, from its character `from` (1-based), as much as
/// fits; `goes_on` is the next line to read once the line is done. Its
/// message, when the line goes on.
fn part(body: &mut Content, line: &str, n: u64, from: u64, room: usize, goes_on: Option<u64>) -> Option<String> {
    let chars = line.chars().count() as u64;
    let from = from.clamp(1, chars.max(1));
    let start_byte = line.char_indices().nth(from as usize - 1).map_or(line.len(), |(i, _)| i);
    let rest = &line[start_byte..];
    let (mut used, mut end_byte, mut taken) = (0, 0, 0u64);
    for (i, c) in rest.char_indices() {
        let mut buf = [0u8; 4];
        let cost = escaped_len(c.encode_utf8(&mut buf));
        if used + cost > room && taken > 0 {
            break;
        }
        used += cost;
        end_byte = i + c.len_utf8();
        taken += 1;
    }
    body.content = rest[..end_byte].to_string();
    (body.start_line, body.end_line) = (Some(Line(n)), Some(Line(n)));
    body.start_char = Some(Line(from));
    body.end_char = Some(from + taken - 1);
    body.line_chars = Some(chars);
    if from + taken <= chars {
        body.truncated = Some(true);
        body.next_start_line = Some(Line(n));
        body.next_start_char = Some(Line(from + taken));
        return Some(format!(
            "characters {from}-{} of line {n}'s {chars}: start_line {n}, end_line {n}, start_char {} goes on",
            from + taken - 1,
            from + taken
        ));
    }
    if let Some(next) = goes_on {
        body.truncated = Some(true);
        body.next_start_line = Some(Line(next));
    }
    None
}

/// Why a file's content is not in the index, from what the indexer recorded.
fn empty_reason(doc: &ContentDoc) -> Option<String> {
    let size = vibe_common::text::units::human_size(doc.size);
    match doc.skipped.as_deref()? {
        "binary" => Some(format!("binary file ({size}): its content is not indexed")),
        "too_large" => {
            Some(format!("file too large ({size}, over the indexer's size limit): its content is not indexed"))
        }
        "invalid_utf8" => Some(format!("not valid UTF-8 text ({size}): its content is not indexed")),
        other => Some(format!("content not indexed ({other})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::DEFAULT_ANSWER_BUDGET;
    use serde::{Deserialize, Deserializer};
    use serde_json::{json, Value};

    /// The answer to the content document `s`, as its JSON.
    fn answer<'de>(s: impl Deserializer<'de>, args: &Args, budget: usize) -> Result<Value, ToolError> {
        let doc = ContentDoc::deserialize(s).unwrap();
        super::answer(&doc, &IndexedFile::from(&doc), args, budget).map(|a| serde_json::to_value(a).unwrap())
    }

    fn at<'de>(s: impl Deserializer<'de>, start: Option<u64>, end: Option<u64>) -> Result<Value, ToolError> {
        answer(s, &Args { start_line: start, end_line: end, ..Args::default() }, DEFAULT_ANSWER_BUDGET)
    }

    #[test]
    fn line_slices() {
        let s = json!({ "root": "/r", "path": "a.txt", "language": null, "content": "1\n2\n3\n4\n" });
        assert_eq!(at(&s, Some(2), Some(3)).unwrap()["content"], "2\n3\n");
        assert_eq!(at(&s, Some(3), None).unwrap()["content"], "3\n4\n");
        assert_eq!(at(&s, None, Some(1)).unwrap()["content"], "1\n");
        let whole = at(&s, None, None).unwrap();
        assert_eq!((whole["content"].clone(), whole["total_lines"].clone()), (json!("1\n2\n3\n4\n"), json!(4)));
        assert_eq!(whole.get("truncated"), None);
        // Out of range and inverted ranges say so.
        let past = at(&s, Some(2), Some(99)).unwrap();
        assert_eq!((past["end_line"].clone(), past["message"].clone()), (json!(4), json!("the file ends at line 4")));
        let err = at(&s, Some(9), None).unwrap_err().to_string();
        assert!(err.contains("past the end") && err.contains("4 lines"), "{err}");
        let err = at(&s, Some(3), Some(2)).unwrap_err().to_string();
        assert!(err.contains("start_line 3 is after end_line 2"), "{err}");
    }

    /// Follows `next_start_line` / `next_start_char` (and reads shortened
    /// lines alone) and gives the content back byte for byte.
    fn reassemble(content: &str, budget: usize) -> (String, usize) {
        let s = json!({ "root": "/r", "path": "big.txt", "language": null, "content": content });
        let (mut out, mut calls, mut args) = (String::new(), 0, Args::default());
        loop {
            let a = answer(&s, &args, budget).unwrap();
            calls += 1;
            assert!(crate::budget::json_len(&a) <= budget, "{} > {budget}", crate::budget::json_len(&a));
            let mut text = a["content"].as_str().unwrap().to_string();
            if let Some(short) = a["shortened_lines"].as_array() {
                let first = a["start_line"].as_u64().unwrap_or(1);
                let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
                for n in short.iter().map(|n| n.as_u64().unwrap()) {
                    let (mut whole, mut from) = (String::new(), None);
                    loop {
                        let one = Args { start_line: Some(n), end_line: Some(n), start_char: from, ..Args::default() };
                        let p = answer(&s, &one, budget).unwrap();
                        calls += 1;
                        whole.push_str(p["content"].as_str().unwrap());
                        match p["next_start_char"].as_u64() {
                            Some(c) => from = Some(c),
                            None => break,
                        }
                    }
                    lines[(n - first) as usize] = whole;
                }
                text = lines.concat();
            }
            out.push_str(&text);
            match a["next_start_line"].as_u64() {
                Some(n) => {
                    assert_eq!(a["truncated"], true);
                    args = Args { start_line: Some(n), start_char: a["next_start_char"].as_u64(), ..Args::default() };
                }
                None => return (out, calls),
            }
        }
    }

    #[test]
    fn pages_of_whole_lines_give_the_file_back() {
        let generated: String =
            (1..=20_000).map(|i| format!("    public static final int CONST_{i} = {i}; // \"é\"\n")).collect();
        let (back, calls) = reassemble(&generated, 12_000);
        assert_eq!(back, generated);
        assert!(calls > 50, "{calls}");
        // A minified bundle: long lines without a final line break, escapes, multi-byte characters.
        let minified = format!(
            "/*! b */\n{}\r\n{}",
            "var a=\"x\\\"\";function f(){return 1}ü中".repeat(3000),
            "\u{1}\t".repeat(9000)
        );
        let (back, _) = reassemble(&minified, 12_000);
        assert_eq!(back, minified);
        // Lines of control characters (6 bytes each in JSON): over the room even shortened.
        let controls = format!("a\n{}\nb\n{}", "\u{1}".repeat(1990), "\u{2}".repeat(1500));
        let (back, _) = reassemble(&controls, 4_000);
        assert_eq!(back, controls);
        let s = json!({ "path": "m.js", "content": minified });
        let first = answer(&s, &Args::default(), 12_000).unwrap();
        assert_eq!(first["shortened_lines"], json!([2, 3]));
        assert!(first["message"].as_str().unwrap().contains("shortened"), "{first}");
        // An explicit range that fits is returned whole.
        let a = at(json!({ "path": "g", "content": generated }), Some(100), Some(120)).unwrap();
        assert_eq!(a["content"].as_str().unwrap().lines().count(), 21);
        assert_eq!(a.get("truncated"), None);
    }

    #[test]
    fn empty_content_says_why() {
        for (skipped, words) in
            [("binary", "binary file"), ("too_large", "too large"), ("invalid_utf8", "not valid UTF-8")]
        {
            let s = json!({ "path": "x", "content": "", "size": 2048, "skipped": skipped });
            let a = at(&s, None, None).unwrap();
            let message = a["message"].as_str().unwrap();
            assert!(message.contains(words) && message.contains("2.00 KB"), "{message}");
        }
        // An empty text file is just empty.
        let a = at(json!({ "path": "x", "content": "" }), None, None).unwrap();
        assert_eq!((a["content"].clone(), a.get("message")), (json!(""), None));
    }
}
