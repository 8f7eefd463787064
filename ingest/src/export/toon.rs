//! TOON via the `toon-format` crate. TOON writes array lengths up front, so
//! one source is kept as a value (metadata and AST of its files, never their
//! content) until it ends; the encoded sources are joined under
//! `sources[N]:` exactly as encoding the whole document would.

use super::{DocHeader, ExportError, FileRecord, FormatWriter, SourceHeader};
use crate::scanner::SourceStats;
use serde_json::{Map, Value};
use std::io::Write;

#[derive(Default)]
pub(super) struct ToonWriter {
    head: String,
    source: Map<String, Value>,
    files: Vec<Value>,
    /// Each finished source as the lines of a `sources` list item.
    items: Vec<String>,
}

impl FormatWriter for ToonWriter {
    fn begin(&mut self, _w: &mut dyn Write, doc: &DocHeader) -> Result<(), ExportError> {
        self.head = toon_format::encode_default(doc)?;
        Ok(())
    }

    fn begin_source(&mut self, _w: &mut dyn Write, _first: bool, src: &SourceHeader) -> Result<(), ExportError> {
        self.source = match serde_json::to_value(src)? {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        self.files.clear();
        Ok(())
    }

    fn file(&mut self, _w: &mut dyn Write, _first: bool, file: &FileRecord) -> Result<(), ExportError> {
        self.files.push(serde_json::to_value(file)?);
        Ok(())
    }

    fn end_source(&mut self, _w: &mut dyn Write, _files: usize, stats: &SourceStats) -> Result<(), ExportError> {
        let mut src = std::mem::take(&mut self.source);
        src.insert("files".into(), Value::Array(std::mem::take(&mut self.files)));
        src.insert("stats".into(), serde_json::to_value(stats)?);
        let one = serde_json::json!({ "sources": [Value::Object(src)] });
        let text = toon_format::encode_default(&one)?;
        // Drop the `sources[1]:` line; keep the list item.
        let item = text.split_once('\n').map(|(_, rest)| rest.to_owned()).unwrap_or_default();
        self.items.push(item);
        Ok(())
    }

    fn finish(&mut self, w: &mut dyn Write, sources: usize) -> Result<(), ExportError> {
        if sources == 0 {
            writeln!(w, "{}\nsources: []", self.head)?;
            return Ok(());
        }
        write!(w, "{}\nsources[{sources}]:", self.head)?;
        for item in &self.items {
            write!(w, "\n{item}")?;
        }
        writeln!(w)?;
        Ok(())
    }
}
