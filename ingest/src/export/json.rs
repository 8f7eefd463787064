//! JSON, streamed: serde_json's pretty layout for the document, except that
//! each element of a file's AST lists (a function, a reference, a link) is
//! written on one line, `{"name": "x", "kind": "import", "line": 8}`.
//! References are most of an export: one line each instead of five to eight
//! halves its size and the time spent writing it.

use super::{indent_tail, DocHeader, ExportError, FileRecord, FormatWriter, SourceHeader};
use crate::scanner::SourceStats;
use serde::Serialize;
use std::io::Write;

#[derive(Default)]
pub(super) struct JsonWriter {
    /// One file's text, reused from file to file.
    buf: Vec<u8>,
}

/// serde_json's pretty layout (two spaces a level) for a value that starts
/// `base` levels deep, written in one pass; containers opened at
/// [`INLINE_LEVEL`] or deeper are written on one line.
struct Indented {
    level: usize,
    has_value: bool,
    /// How many one-line containers are open.
    inline: usize,
}

/// The level of the elements of a file's AST lists (sources 2, files 4, the
/// file's fields 5, the AST's lists 6).
const INLINE_LEVEL: usize = 7;

impl Indented {
    fn new(base: usize) -> Self {
        Indented { level: base, has_value: false, inline: 0 }
    }
}

fn newline_indent<W: ?Sized + Write>(w: &mut W, first: bool, level: usize) -> std::io::Result<()> {
    const SPACES: &[u8] = &[b' '; 64];
    w.write_all(if first { b"\n" } else { b",\n" })?;
    let mut n = level * 2;
    while n > 0 {
        let k = n.min(SPACES.len());
        w.write_all(&SPACES[..k])?;
        n -= k;
    }
    Ok(())
}

impl Indented {
    /// `[` or `{`: one level deeper, nothing in it yet.
    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        if self.inline > 0 || self.level >= INLINE_LEVEL {
            self.inline += 1;
        }
        self.level += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    /// `]` or `}`: on a line of its own when the container holds something.
    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.level -= 1;
        if self.inline > 0 {
            self.inline -= 1;
        } else if self.has_value {
            newline_indent(w, true, self.level)?;
        }
        w.write_all(bracket)
    }

    /// Before a value or key: a new line, or `, ` on a one-line container.
    fn separate<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        match (self.inline > 0, first) {
            (true, true) => Ok(()),
            (true, false) => w.write_all(b", "),
            (false, _) => newline_indent(w, first, self.level),
        }
    }
}

impl serde_json::ser::Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.separate(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.separate(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The object without its closing brace, so fields can follow.
fn open_object<T: serde::Serialize>(v: &T) -> Result<String, ExportError> {
    Ok(super::without_closing_brace(serde_json::to_string_pretty(v)?))
}

impl FormatWriter for JsonWriter {
    fn begin(&mut self, w: &mut dyn Write, doc: &DocHeader) -> Result<(), ExportError> {
        let head = open_object(doc)?;
        write!(w, "{head},\n  \"sources\": [")?;
        Ok(())
    }

    fn begin_source(&mut self, w: &mut dyn Write, first: bool, src: &SourceHeader) -> Result<(), ExportError> {
        let head = indent_tail(&open_object(src)?, 4);
        write!(w, "{}\n    {head},\n      \"files\": [", if first { "" } else { "," })?;
        Ok(())
    }

    fn file(&mut self, w: &mut dyn Write, first: bool, file: &FileRecord) -> Result<(), ExportError> {
        // Pretty JSON indented by four levels, serialized into a reused
        // buffer (no intermediate string, no indenting pass).
        self.buf.clear();
        self.buf.extend_from_slice(if first { b"\n        " } else { b",\n        " });
        file.serialize(&mut serde_json::Serializer::with_formatter(&mut self.buf, Indented::new(4)))?;
        w.write_all(&self.buf)?;
        Ok(())
    }

    fn end_source(&mut self, w: &mut dyn Write, files: usize, stats: &SourceStats) -> Result<(), ExportError> {
        let stats = indent_tail(&serde_json::to_string_pretty(stats)?, 6);
        let close = if files > 0 { "\n      ]" } else { "]" };
        write!(w, "{close},\n      \"stats\": {stats}\n    }}")?;
        Ok(())
    }

    fn finish(&mut self, w: &mut dyn Write, sources: usize) -> Result<(), ExportError> {
        let close = if sources > 0 { "\n  ]" } else { "]" };
        write!(w, "{close}\n}}\n")?;
        Ok(())
    }
}
