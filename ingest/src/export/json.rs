//! Pretty JSON, streamed: the same text `serde_json::to_string_pretty` gives
//! for the whole document.

use super::{indent_tail, DocHeader, ExportError, FileRecord, FormatWriter, SourceHeader};
use crate::scanner::SourceStats;
use std::io::Write;

pub(super) struct JsonWriter;

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
        let body = indent_tail(&serde_json::to_string_pretty(file)?, 8);
        write!(w, "{}\n        {body}", if first { "" } else { "," })?;
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
