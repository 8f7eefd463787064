//! Short forms for search answers: a doc comment's first sentence, a
//! signature cut to a budget. Full texts stay in the AST (`get_file_ast`).

/// Longest doc summary, in characters.
pub const MAX_SUMMARY_CHARS: usize = 200;
/// Longest signature in a search answer, in characters.
pub const MAX_SIGNATURE_CHARS: usize = 200;

/// The first sentence of a doc comment (its lines as extracted), without
/// `@param`-style tags, HTML tags or `{@code x}` markup, at most
/// [`MAX_SUMMARY_CHARS`] characters.
pub fn doc_summary(lines: &[String]) -> String {
    let mut words: Vec<String> = Vec::new();
    for line in lines {
        let l = line.trim();
        // Block tags end the description (`@param`, `:param x:`, `Args:`).
        if is_block_tag(l) {
            break;
        }
        if l.is_empty() {
            if !words.is_empty() {
                break;
            }
            continue;
        }
        words.extend(strip_markup(l).split_whitespace().map(str::to_string));
        if ends_sentence(words.last().map(String::as_str).unwrap_or("")) {
            break;
        }
    }
    let text = words.join(" ");
    let sentence = first_sentence(&text);
    cut(sentence, MAX_SUMMARY_CHARS)
}

/// The first paragraph of a doc comment (its lines up to the first blank
/// line or block tag such as `@param`, `:param x:` or `Args:`), markup
/// removed, at most `max` characters: what a definition's word search reads.
pub fn doc_paragraph(lines: &[String], max: usize) -> String {
    let mut words: Vec<String> = Vec::new();
    for line in lines {
        let l = line.trim();
        if is_block_tag(l) || l.ends_with(':') && !l.contains(' ') && !words.is_empty() {
            break;
        }
        if l.is_empty() {
            if words.is_empty() {
                continue;
            }
            break;
        }
        words.extend(strip_markup(l).split_whitespace().map(str::to_string));
    }
    cut(&words.join(" "), max)
}

fn is_block_tag(line: &str) -> bool {
    line.starts_with('@') || line.starts_with(":param") || line.starts_with(":return") || line.starts_with(":raises")
}

/// Cut `s` to `max` characters, marking the cut with an ellipsis.
pub fn cut(s: &str, max: usize) -> String {
    match cut_chars(s, max) {
        (whole, false) => whole.to_string(),
        _ => format!("{}…", cut_chars(s, max.saturating_sub(1)).0),
    }
}

/// The first `max` characters of `s` (the whole of it when shorter), and
/// whether it was cut: the one cut every shortening of a text starts from
/// (here a hard cut marked `…`, the gateway's `budget::shorten` at a word).
pub fn cut_chars(s: &str, max: usize) -> (&str, bool) {
    match s.char_indices().nth(max) {
        Some((i, _)) => (&s[..i], true),
        None => (s, false),
    }
}

/// Longest line of a [`code_lines`] excerpt, in characters.
pub const MAX_CODE_LINE_CHARS: usize = 160;

/// Lines `start..=end` (1-based, inclusive) of `text`: at most `max_lines`
/// lines and about `max_bytes` bytes (whole lines; the first is always
/// kept), each cut to [`MAX_CODE_LINE_CHARS`], with the indentation they
/// share removed. What a definition's first lines show in an answer.
pub fn code_lines(text: &str, start: u32, end: u32, max_lines: usize, max_bytes: usize) -> String {
    let count = (end.max(start) - start) as usize + 1;
    let lines: Vec<&str> = text.lines().skip(start.saturating_sub(1) as usize).take(count.min(max_lines)).collect();
    dedented(&lines, max_bytes)
}

/// `lines` with the indentation they share removed, each cut to
/// [`MAX_CODE_LINE_CHARS`], whole lines up to about `max_bytes`.
fn dedented(lines: &[&str], max_bytes: usize) -> String {
    let indent =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let line = cut(line.get(indent..).unwrap_or(line.trim_start()).trim_end(), MAX_CODE_LINE_CHARS);
        if i > 0 && out.len() + line.len() + 1 > max_bytes {
            break;
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&line);
    }
    out
}

/// A definition's first lines without the doc block at its head (a Python
/// docstring, a `/** … */` inside the body): the doc is summarized apart, and
/// its lines would take most of the excerpt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The lines shown, as [`code_lines`] gives them, the doc block left out.
    pub code: String,
    /// The lines of the doc block left out (1-based, inclusive).
    pub skipped: Option<(u32, u32)>,
}

/// Lines after a definition's first that may open its doc block.
const DOC_HEAD_LINES: usize = 4;

/// [`code_lines`] of `start..=end` without the doc block that opens within
/// its first [`DOC_HEAD_LINES`] lines after the first: at most `max_lines`
/// lines shown (the skipped ones do not count).
pub fn code_excerpt(text: &str, start: u32, end: u32, max_lines: usize, max_bytes: usize) -> Excerpt {
    lines_excerpt(&text.lines().collect::<Vec<_>>(), start, end, max_lines, max_bytes)
}

/// [`code_excerpt`] of a text already split into its lines (`str::lines`):
/// the indexer splits a file once for all its definitions (splitting it
/// for each was most of its CPU time on files of thousands of definitions).
pub fn lines_excerpt(all: &[&str], start: u32, end: u32, max_lines: usize, max_bytes: usize) -> Excerpt {
    let skipped = doc_block(all, start, end);
    let lines: Vec<&str> = (start.max(1)..=end)
        .filter(|n| skipped.is_none_or(|(a, b)| *n < a || *n > b))
        .filter_map(|n| all.get(n as usize - 1).copied())
        .take(max_lines)
        .collect();
    Excerpt { code: dedented(&lines, max_bytes), skipped }
}

/// What closes a doc block that `line` opens, and the opener's length
/// (`"""`, `\'\'\'` with an `r`/`u`/`b` prefix or not, `/**`).
fn doc_opener(line: &str) -> Option<(&'static str, usize)> {
    let t = line.trim_start();
    let prefix = t.len() - t.trim_start_matches(['r', 'u', 'b', 'R', 'U', 'B']).len();
    let rest = &t[prefix.min(2)..];
    if rest.starts_with("\"\"\"") {
        Some(("\"\"\"", prefix.min(2) + 3))
    } else if rest.starts_with("\'\'\'") {
        Some(("\'\'\'", prefix.min(2) + 3))
    } else if t.starts_with("/**") {
        Some(("*/", 3))
    } else {
        None
    }
}

/// The doc block (its first and last line) that opens within the
/// [`DOC_HEAD_LINES`] after the definition's first line `start`.
fn doc_block(all: &[&str], start: u32, end: u32) -> Option<(u32, u32)> {
    let after = all
        .iter()
        .copied()
        .enumerate()
        .skip(start as usize)
        .take((end.saturating_sub(start) as usize).min(DOC_HEAD_LINES));
    let (index, line, (closer, opener)) = after.filter_map(|(i, l)| doc_opener(l).map(|o| (i, l, o))).next()?;
    let first = index as u32 + 1;
    if line.trim_start()[opener..].contains(closer) {
        return Some((first, first));
    }
    let mut rest = all.iter().enumerate().skip(index + 1).take(end.saturating_sub(first) as usize);
    rest.find(|(_, l)| l.contains(closer)).map(|(i, _)| (first, i as u32 + 1))
}

fn ends_sentence(word: &str) -> bool {
    (word.ends_with('.') || word.ends_with('!') || word.ends_with('?') || word.ends_with('。'))
        && !matches!(word, "e.g." | "i.e." | "etc." | "vs." | "cf.")
}

/// The text up to its first sentence end: a word ending in `.`, `!` or
/// `?` before more text (not `e.g.`, `i.e.`, `etc.`, `vs.`, `cf.`), a `。`,
/// or a blank line. The one rule of a summary's first sentence, here and in
/// the gateway's answers.
pub fn first_sentence(text: &str) -> &str {
    let mut prev_word_start = 0;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            let word = &text[prev_word_start..i];
            if ends_sentence(word) || (c == '\n' && text[i + 1..].starts_with('\n')) {
                return &text[..i];
            }
            prev_word_start = i + c.len_utf8();
        } else if c == '。' {
            return &text[..i + c.len_utf8()];
        }
    }
    text
}

/// Remove HTML tags and inline doc markup: `{@code x}` / `{@link a.B#c}` keep
/// their text, `<p>` and `</b>` go.
fn strip_markup(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let next_tag = rest.find('<');
        let next_inline = rest.find("{@");
        match (next_tag, next_inline) {
            (Some(t), i) if i.is_none_or(|i| t < i) => {
                let Some(close) = rest[t..].find('>') else {
                    out.push_str(rest);
                    break;
                };
                let tag = &rest[t + 1..t + close];
                out.push_str(&rest[..t]);
                // Only tag-looking things are markup: `a < b` stays.
                if tag.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') && !tag.contains(' ')
                    || tag.starts_with("a ")
                {
                    out.push(' ');
                } else {
                    out.push_str(&rest[t..=t + close]);
                }
                rest = &rest[t + close + 1..];
            }
            (_, Some(i)) => {
                let Some(close) = rest[i..].find('}') else {
                    out.push_str(rest);
                    break;
                };
                let inner = &rest[i + 2..i + close];
                out.push_str(&rest[..i]);
                let (tag, text) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
                let text = text.trim();
                // `{@link Ref label}` reads as its label, `{@link Ref}` as the reference.
                let text = match text.split_once(char::is_whitespace) {
                    Some((_, label)) if tag.starts_with("link") => label.trim(),
                    _ => text,
                };
                out.push_str(text);
                rest = &rest[i + close + 1..];
            }
            _ => {
                out.push_str(rest);
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_first_sentence_ends_where_a_sentence_does() {
        assert_eq!(first_sentence("Split it, e.g. on commas. Then more."), "Split it, e.g. on commas.");
        assert_eq!(first_sentence("A list of items\n\nDetails follow."), "A list of items");
        assert_eq!(first_sentence("Ends here.\nNext line."), "Ends here.");
        assert_eq!(first_sentence("配置を読む。次へ"), "配置を読む。");
        assert_eq!(first_sentence("No end at all"), "No end at all");
    }

    #[test]
    fn javadoc_becomes_its_first_sentence() {
        let doc = lines("Reads a line of text. A line is considered to be terminated by any one\nof a line feed ('\\n').\n@param ignoreLF If true, the next '\\n' will be skipped\n@return A String containing the contents of the line");
        assert_eq!(doc_summary(&doc), "Reads a line of text.");
    }

    #[test]
    fn doc_paragraph_keeps_the_first_paragraph() {
        let doc = lines("Scan the string s for a JSON string. End is the\nindex of the quote.\n\nSecond paragraph.");
        assert_eq!(doc_paragraph(&doc, 500), "Scan the string s for a JSON string. End is the index of the quote.");
        let tagged = lines("Reads a line. A line ends at \\n.\n@param x ignored");
        assert_eq!(doc_paragraph(&tagged, 500), "Reads a line. A line ends at \\n.");
        let google = lines("Fetch rows.\nArgs:\n  table: the table");
        assert_eq!(doc_paragraph(&google, 500), "Fetch rows.");
        assert_eq!(doc_paragraph(&doc, 10), "Scan the …");
    }

    #[test]
    fn markup_is_removed_and_code_kept() {
        let doc = lines("<p>Returns the {@code int} value of {@link java.lang.Integer#MAX_VALUE the max}</p>");
        assert_eq!(doc_summary(&doc), "Returns the int value of the max");
        assert_eq!(doc_summary(&lines("True when a < b and c > d.")), "True when a < b and c > d.");
    }

    #[test]
    fn tags_only_and_long_docs() {
        assert_eq!(doc_summary(&lines("@param x the value")), "");
        let long = "word ".repeat(100);
        let s = doc_summary(&[long]);
        assert_eq!(s.chars().count(), MAX_SUMMARY_CHARS);
        assert!(s.ends_with('…'));
        assert_eq!(doc_summary(&lines("Use e.g. this one. Not this.")), "Use e.g. this one.");
        assert_eq!(doc_summary(&lines("First paragraph\ncontinues\n\nSecond.")), "First paragraph continues");
    }

    #[test]
    fn code_lines_are_dedented_and_capped() {
        let text = "class A:\n    def f(self):\n        x = 1\n        return x\n\n    def g(self): pass\n";
        assert_eq!(code_lines(text, 2, 4, 12, 900), "def f(self):\n    x = 1\n    return x");
        assert_eq!(code_lines(text, 2, 4, 2, 900), "def f(self):\n    x = 1");
        assert_eq!(code_lines(text, 2, 4, 12, 25), "def f(self):\n    x = 1");
        assert_eq!(code_lines(text, 6, 6, 12, 900), "def g(self): pass");
        assert_eq!(code_lines(text, 9, 9, 12, 900), "");
    }

    #[test]
    fn a_docstring_at_the_head_is_left_out() {
        let text = "def f(x):\n    \"\"\"Doc.\n\n    More doc.\n    \"\"\"\n    y = x + 1\n    return y\n";
        let e = code_excerpt(text, 1, 7, 12, 900);
        assert_eq!(e.skipped, Some((2, 5)));
        assert_eq!(e.code, "def f(x):\n    y = x + 1\n    return y");
        let one = "def g():\n    '\'\'One line.'\'\'\n    return 2\n";
        assert_eq!(
            code_excerpt(one, 1, 3, 12, 900),
            Excerpt { code: "def g():\n    return 2".into(), skipped: Some((2, 2)) }
        );
        let plain = "fn h() {\n    1\n}\n";
        assert_eq!(code_excerpt(plain, 1, 3, 12, 900), Excerpt { code: "fn h() {\n    1\n}".into(), skipped: None });
    }
}
