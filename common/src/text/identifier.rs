//! The words of an identifier, for tags and for search by meaning.

/// Split an identifier into lower-case words: camelCase, PascalCase,
/// snake_case and kebab-case all split; acronyms stay together (`HTTPServer`
/// gives `http`, `server`).
pub fn split_identifier(ident: &str) -> Vec<String> {
    if ident.is_ascii() {
        return ascii_words(ident).map(str::to_ascii_lowercase).collect();
    }
    split_chars(ident)
}

/// [`split_identifier`] of any identifier, character by character.
fn split_chars(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars: Vec<(usize, char)> = Vec::new();
    for part in ident.split(|c: char| !c.is_alphanumeric()) {
        chars.clear();
        chars.extend(part.char_indices());
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, cur) = (chars[i - 1].1, chars[i].1);
            if word_boundary(prev, cur, chars.get(i + 1).map(|c| c.1)) || (prev.is_numeric() && cur.is_alphabetic()) {
                words.push(part[chars[start].0..chars[i].0].to_lowercase());
                start = i;
            }
        }
        if start < chars.len() {
            words.push(part[chars[start].0..].to_lowercase());
        }
    }
    words
}

/// The words of an ASCII identifier, as [`split_identifier`] splits it
/// (not lower-cased): slices of it, nothing allocated.
fn ascii_words(ident: &str) -> impl Iterator<Item = &str> {
    let bytes = ident.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        i += 1;
        // A byte after the part (not alphanumeric) is never lower-case: as
        // no next character at all.
        while i < bytes.len()
            && bytes[i].is_ascii_alphanumeric()
            && !ascii_boundary(bytes[i - 1], bytes[i], bytes.get(i + 1).copied())
        {
            i += 1;
        }
        Some(&ident[start..i])
    })
}

/// [`word_boundary`] of ASCII letters and digits, or a letter after a
/// digit: where [`split_identifier`] splits.
fn ascii_boundary(prev: u8, cur: u8, next: Option<u8>) -> bool {
    (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
        || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
        || (prev.is_ascii_alphabetic() && cur.is_ascii_digit())
        || (prev.is_ascii_digit() && cur.is_ascii_alphabetic())
}

/// Whether a word starts at `cur`, between `prev` and `next`: after a
/// lower-case letter (`fetch|User`), at the last capital of a run that a
/// lower-case letter follows (`HTTP|Server`), at a digit after a letter
/// (`utf|8`). The boundaries of [`spaced_words`] and of the analyzer's char
/// filters; [`split_identifier`] also splits a letter after a digit.
fn word_boundary(prev: char, cur: char, next: Option<char>) -> bool {
    (prev.is_lowercase() && cur.is_uppercase())
        || (prev.is_uppercase() && cur.is_uppercase() && next.is_some_and(char::is_lowercase))
        || (prev.is_alphabetic() && cur.is_numeric())
}

/// The adjacent words of an identifier joined in pairs (`hex_dump` gives
/// `hexdump`; `SubTypeValidator` gives `subtype`, `typevalidator`); none
/// for a one-word identifier, and none with a number (`0x1F`, `v2`). The
/// analyzer splits an identifier into its words, so without these a
/// question's compound word ("hexdump", "filename", "subtype") would not
/// find it.
pub fn joined_pairs(ident: &str) -> Vec<String> {
    if ident.is_ascii() {
        let alphabetic = |w: &str| w.bytes().all(|b| b.is_ascii_alphabetic());
        let mut pairs = Vec::new();
        let mut prev: Option<&str> = None;
        for word in ascii_words(ident) {
            if let Some(p) = prev.filter(|p| alphabetic(p) && alphabetic(word)) {
                let mut pair = String::with_capacity(p.len() + word.len());
                pair.push_str(p);
                pair.push_str(word);
                pair.make_ascii_lowercase();
                pairs.push(pair);
            }
            prev = Some(word);
        }
        return pairs;
    }
    pairs_of_chars(ident)
}

/// [`joined_pairs`] of any identifier, from [`split_chars`].
fn pairs_of_chars(ident: &str) -> Vec<String> {
    let alphabetic = |w: &String| w.chars().all(char::is_alphabetic);
    split_chars(ident)
        .windows(2)
        .filter(|w| alphabetic(&w[0]) && alphabetic(&w[1]))
        .map(|w| format!("{}{}", w[0], w[1]))
        .collect()
}

/// Whether `c` is written in a CJK script (kana, Han, Hangul): what the
/// CJK analyzer makes bigrams of. The gateway tells a query's scripts by it,
/// and the indexer writes the CJK analyzer's fields of a text holding one.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // CJK Extensions B..
}

/// `text` with a space at each word boundary inside its identifiers, where
/// the char filters of the search analyzer `vibe_about_search` put one:
/// between a lower-case and an upper-case letter (`fetch User`), before the
/// last capital of a run that a lower-case letter follows (`HTTP Server`),
/// and between a letter and a digit (`utf 8`; not between a digit and a
/// letter: `2beta` stays). The indexer sends the word fields so spaced and
/// their index analyzer `vibe_about` has no char filters: three regular
/// expressions over every indexed text were half of OpenSearch's analysis
/// time for them (issue 33). The text is returned as is when it needs no
/// space.
pub fn spaced_words(text: &str) -> std::borrow::Cow<'_, str> {
    match first_boundary(text, text.is_ascii()) {
        None => std::borrow::Cow::Borrowed(text),
        Some(_) => {
            let mut out = String::with_capacity(text.len() + text.len() / 8);
            push_spaced_words(&mut out, text);
            std::borrow::Cow::Owned(out)
        }
    }
}

/// Appends [`spaced_words`]`(text)` to `out`.
pub fn push_spaced_words(out: &mut String, mut text: &str) {
    let ascii = text.is_ascii();
    while let Some(at) = first_boundary(text, ascii) {
        out.push_str(&text[..at]);
        out.push(' ');
        text = &text[at..];
    }
    out.push_str(text);
}

/// The byte offset of the first word boundary inside `text` (never 0);
/// `ascii` says whether `text` is ASCII.
fn first_boundary(text: &str, ascii: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    if ascii {
        // The same rule on bytes: a boundary is never at 0.
        return (1..bytes.len()).find(|&i| {
            let (prev, cur, next) = (bytes[i - 1], bytes[i], bytes.get(i + 1).copied());
            (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
                || (prev.is_ascii_uppercase()
                    && cur.is_ascii_uppercase()
                    && next.is_some_and(|n| n.is_ascii_lowercase()))
                || (prev.is_ascii_alphabetic() && cur.is_ascii_digit())
        });
    }
    let mut chars = text.char_indices().peekable();
    let mut prev: Option<char> = None;
    while let Some((at, cur)) = chars.next() {
        if prev.is_some_and(|p| word_boundary(p, cur, chars.peek().map(|c| c.1))) {
            return Some(at);
        }
        prev = Some(cur);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(split_identifier("fetchUserData"), ["fetch", "user", "data"]);
        assert_eq!(split_identifier("MAX_AST_FILE_SIZE"), ["max", "ast", "file", "size"]);
        assert_eq!(split_identifier("HTTPServer"), ["http", "server"]);
        assert_eq!(split_identifier("kebab-case-name"), ["kebab", "case", "name"]);
    }

    #[test]
    fn ascii_identifiers_split_and_space_as_character_by_character() {
        let alphabet = ['a', 'z', 'B', 'Q', '0', '7', '_', '-', ' '];
        let mut idents = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> =
                idents.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            idents.extend(longer);
            idents.dedup();
        }
        idents.extend(["getHTTPServer2", "utf8Decoder", "v2beta_X", "MAX_AST_FILE_SIZE", "a1B2c3"].map(String::from));
        for ident in &idents {
            assert_eq!(split_identifier(ident), split_chars(ident), "{ident:?}");
            assert_eq!(joined_pairs(ident), pairs_of_chars(ident), "{ident:?}");
            assert_eq!(first_boundary(ident, true), first_boundary(ident, false), "{ident:?}");
        }
    }

    #[test]
    fn word_boundaries_get_the_spaces_the_search_analyzer_puts() {
        assert_eq!(spaced_words("getHTTPServer2 parseConfigV2"), "get HTTP Server 2 parse Config V 2");
        assert_eq!(spaced_words("XMLHttpRequest base64Encode v2beta"), "XML Http Request base 64Encode v 2beta");
        assert_eq!(spaced_words("ConcurrentHashMap's"), "Concurrent Hash Map's");
        assert_eq!(spaced_words("ключЗначение ABC"), "ключ Значение ABC");
        assert!(matches!(spaced_words("plain words_here 42"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(spaced_words(""), "");
    }

    #[test]
    fn adjacent_words_join_in_pairs() {
        assert_eq!(joined_pairs("hex_dump"), ["hexdump"]);
        assert_eq!(joined_pairs("SubTypeValidator"), ["subtype", "typevalidator"]);
        assert_eq!(joined_pairs("fileName"), ["filename"]);
        assert!(joined_pairs("dump").is_empty());
        assert!(joined_pairs("0x1F").is_empty() && joined_pairs("utf8").is_empty());
        assert!(joined_pairs("").is_empty());
    }
}
