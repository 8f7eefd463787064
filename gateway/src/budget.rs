//! The answer budget (`mcp.answer_budget`): the most bytes of one tool
//! answer's text, so that every answer fits a small model's context.
//!
//! Each tool shapes its answer to the budget itself (whole lines of a file,
//! an outline's elements, a tree's depth, whole results of a search) and
//! says how to get the rest (`next_start_line`, `next_offset`, a narrower
//! call). Below them, [`Answer::within`](crate::answers::Answer::within) is the guard every answer passes in
//! [`crate::dispatch`]: a list of results over the budget loses whole
//! results from its end (`truncated: true`, `next_offset`), an error message
//! is cut at a word, and an answer that still does not fit is replaced by a
//! note saying so. Nothing is cut inside a JSON value or a UTF-8 character.

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
