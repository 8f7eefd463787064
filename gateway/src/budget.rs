//! The answer budget (`mcp.answer_budget`): the most bytes of one tool
//! answer's text, so that every answer fits a small model's context.
//!
//! Each tool shapes its answer to the budget itself (whole lines of a file,
//! an outline's elements, a tree's depth, whole results of a search) and
//! says how to get the rest (`next_start_line`, `next_offset`, a narrower
//! call). Below them, [`enforce`] is the guard every answer passes in
//! [`crate::dispatch`]: a list of results over the budget loses whole
//! results from its end (`truncated: true`, `next_offset`), an error message
//! is cut at a word, and an answer that still does not fit is replaced by a
//! note saying so. Nothing is cut inside a JSON value or a UTF-8 character.

use serde_json::{json, Value};

pub use vibe_common::config::DEFAULT_ANSWER_BUDGET;

/// Bytes kept free for the fields a cut adds (`truncated`, `next_offset`, a note).
pub const RESERVE: usize = 400;

/// Bytes of `v` as compact JSON (what the answer text is), counted without
/// building the text.
pub fn json_len<T: serde::Serialize + ?Sized>(v: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    // Writing to a counter cannot fail.
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// Bytes of `s` inside a JSON string, quotes left out (serde_json's escaping:
/// `"` `\` and `\n` `\r` `\t` `\b` `\f` take 2 bytes, other control
/// characters 6, everything else is written as it is).
pub fn escaped_len(s: &str) -> usize {
    s.bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum()
}

pub use vibe_common::text::summary::cut_chars;

/// The longest start of `s` of at most `max` bytes that ends on a character.
pub fn cut_bytes(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `s` cut to about `max` characters at a word boundary, with `…` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    let (head, cut) = cut_chars(s, max);
    if !cut {
        return s.to_string();
    }
    let at_word = head.rfind(char::is_whitespace).filter(|i| *i >= head.len() / 2).unwrap_or(head.len());
    format!("{}…", head[..at_word].trim_end())
}

/// The first sentence of a text (a doc comment's summary), at most `max` characters.
pub fn first_sentence(text: &str, max: usize) -> String {
    let sentence = vibe_common::text::summary::first_sentence(text.trim());
    shorten(&sentence.split_whitespace().collect::<Vec<_>>().join(" "), max)
}

/// Appends a sentence to the answer's `note`.
pub fn add_note(answer: &mut Value, note: &str) {
    let joined = match answer["note"].as_str() {
        Some(old) if !old.is_empty() => format!("{old}; {note}"),
        _ => note.to_string(),
    };
    answer["note"] = json!(joined);
}

/// Keeps the first results of `answer["results"]` that fit `budget`,
/// dropping whole results from the end. `next_offset(kept)` is the offset of
/// the first dropped result. A first result that alone is over the budget
/// keeps the first elements of its lists (counted in `more_<list>`). Says
/// whether anything was left out.
pub fn fit_results(answer: &mut Value, budget: usize, next_offset: impl Fn(usize) -> u64) -> bool {
    if json_len(answer) <= budget {
        return false;
    }
    let Some(results) = answer.get_mut("results").and_then(Value::as_array_mut).map(std::mem::take) else {
        return false;
    };
    let total = results.len();
    let base = json_len(answer) + RESERVE;
    let mut used = base;
    let mut kept = Vec::with_capacity(total);
    let mut trimmed = false;
    for mut r in results {
        let size = json_len(&r) + 1;
        if used + size > budget {
            if kept.is_empty() {
                // One result over the budget: its first elements.
                trim_lists(&mut r, budget.saturating_sub(base));
                kept.push(r);
                trimmed = true;
            }
            break;
        }
        used += size;
        kept.push(r);
    }
    let n = kept.len();
    answer["results"] = Value::Array(kept);
    if n < total {
        answer["truncated"] = json!(true);
        let next = next_offset(n);
        answer["next_offset"] = json!(next);
        add_note(
            answer,
            &format!(
                "{} more results on this page left out to keep within the answer budget ({budget} bytes): offset {next} goes on",
                total - n
            ),
        );
    }
    if trimmed {
        answer["truncated"] = json!(true);
        add_note(answer, "the first result's lists are cut to the answer budget (their more_* fields count the rest)");
    }
    true
}

/// Drops elements from the end of a result's lists until it fits `room`,
/// counting them in `more_<list>`.
fn trim_lists(result: &mut Value, room: usize) {
    const LISTS: &[(&str, &str)] = &[
        ("matches", "more_matches"),
        ("references", "more_references"),
        ("calls", "more_calls"),
        ("imports", "more_imports"),
        ("sections", "more_sections"),
    ];
    for (list, more) in LISTS {
        while json_len(result) > room {
            let Some(items) = result.get_mut(*list).and_then(Value::as_array_mut) else { break };
            if items.pop().is_none() {
                break;
            }
            let n = result[*more].as_u64().unwrap_or(0) + 1;
            result[*more] = json!(n);
        }
    }
}

/// An error message within the budget: cut at a word, saying so.
pub fn fit_message(message: &str, budget: usize) -> String {
    if message.len() <= budget.saturating_sub(RESERVE) {
        return message.to_string();
    }
    let head = cut_bytes(message, budget.saturating_sub(RESERVE));
    let end = head.len();
    let at = head.rfind([' ', ',', ';']).filter(|i| *i >= end / 2).unwrap_or(end);
    format!("{} … (message cut to the answer budget of {budget} bytes)", head[..at].trim_end())
}

/// The guard of every answer: within the budget as it is, or with whole
/// results dropped from its end (`next_offset(kept)` gives the next page),
/// or replaced by a note that says how large it was and how to narrow it.
pub fn enforce(mut answer: Value, budget: usize, next_offset: Option<&dyn Fn(usize) -> u64>) -> Value {
    if json_len(&answer) <= budget {
        return answer;
    }
    if let Some(next) = next_offset {
        fit_results(&mut answer, budget, next);
        if json_len(&answer) <= budget {
            return answer;
        }
    }
    let size = json_len(&answer);
    tracing::warn!(size, budget, "an answer over the budget was replaced by a note");
    json!({
        "truncated": true,
        "note": format!(
            "the answer ({size} bytes) is over the answer budget ({budget} bytes) and cannot be cut further; \
             narrow the call: a smaller limit, a target project, a path"
        ),
    })
}
