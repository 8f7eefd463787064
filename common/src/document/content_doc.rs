//! A file's content document (the files index): the indexer writes it,
//! borrowing from the scan; the gateway reads it back, owning it
//! (`get_file_content`, `search_code_text`).

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize};

/// The content document of a file: where it is, what the indexer recorded
/// of it (hash, size, modification time, when), its text and its 3-grams.
/// A field a search leaves out of `_source` reads as its default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContentDoc<'a> {
    pub root: Cow<'a, str>,
    pub project: Cow<'a, str>,
    pub path: Cow<'a, str>,
    pub language: Option<Cow<'a, str>>,
    pub hash: Cow<'a, str>,
    /// When it was written, in epoch milliseconds.
    pub indexed_at: u64,
    pub lines: u64,
    pub size: u64,
    /// The file's modification time, in epoch milliseconds.
    pub mtime: u64,
    /// Why `content` is empty: `binary`, `too_large` or `invalid_utf8`.
    pub skipped: Option<Cow<'a, str>>,
    /// Its text, borrowed from what it is read from when it can be.
    #[serde(borrow, deserialize_with = "borrowed")]
    pub content: Option<Cow<'a, str>>,
    /// Its distinct case-folded 3-grams ([`super::grams`]).
    #[serde(borrow, deserialize_with = "borrowed")]
    pub grams: Option<Cow<'a, str>>,
}

/// A text that is borrowed from the input when it holds it unescaped
/// (serde borrows a `Cow` field, not one inside an `Option`).
fn borrowed<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, str>>, D::Error> {
    #[derive(Deserialize)]
    struct Text<'a>(#[serde(borrow)] Cow<'a, str>);
    Ok(Option::<Text>::deserialize(d)?.map(|t| t.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_indexer_writes_the_gateway_reads() {
        let written = ContentDoc {
            root: Cow::Borrowed("/p"),
            project: Cow::Borrowed("p"),
            path: Cow::Borrowed("a.py"),
            language: Some(Cow::Borrowed("python")),
            hash: Cow::Borrowed("abc"),
            indexed_at: 5,
            lines: 1,
            size: 6,
            mtime: 4,
            skipped: None,
            content: Some(Cow::Borrowed("x = 1\n")),
            grams: None,
        };
        let json = serde_json::to_value(&written).unwrap();
        assert_eq!(json["language"], "python");
        assert!(json["skipped"].is_null(), "written as null: {json}");
        let read = ContentDoc::deserialize(&json).unwrap();
        assert_eq!(read, written);
        assert!(matches!(read.content, Some(Cow::Borrowed(_))), "the text is not copied");
        // A search that reads a few fields of `_source`.
        let read = serde_json::json!({ "path": "a.py", "size": 6 });
        let some = ContentDoc::deserialize(&read).unwrap();
        assert_eq!((some.path.as_ref(), some.size, some.content), ("a.py", 6, None));
    }
}
