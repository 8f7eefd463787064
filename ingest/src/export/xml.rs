//! XML via `quick-xml`'s serde serializer, streamed element by element under
//! the root `<vibe_analyzer>`: each source is a `<sources>` element, each file
//! a `<files>` element (how quick-xml writes sequences).
//!
//! XML cannot hold every string and key: characters XML 1.0 forbids are
//! replaced by U+FFFD, and map keys that are not XML names (front matter keys
//! with spaces, say) become `<entry key="…">value</entry>` elements.

use super::{DocHeader, ExportError, FileRecord, FormatWriter, SourceHeader};
use crate::scanner::SourceStats;
use serde_json::{Map, Value};
use std::io::Write;

pub(super) struct XmlWriter;

/// True for a name quick-xml can write as an element name (conservative:
/// ASCII letters, digits, `_`, `-`, `.`; not starting with a digit, `-`, `.` or `xml`).
fn is_xml_name(k: &str) -> bool {
    let mut chars = k.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !k.to_ascii_lowercase().starts_with("xml")
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

fn clean_str(s: String) -> String {
    if s.chars().all(is_xml_char) {
        s
    } else {
        s.chars().map(|c| if is_xml_char(c) { c } else { '\u{FFFD}' }).collect()
    }
}

/// Make a JSON value writable as XML (see the module doc).
pub(crate) fn xml_safe(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(clean_str(s)),
        Value::Array(a) => Value::Array(a.into_iter().map(xml_safe).collect()),
        Value::Object(m) => {
            let mut out = Map::new();
            let mut entries = Vec::new();
            for (k, v) in m {
                let v = xml_safe(v);
                if is_xml_name(&k) && k != "entry" {
                    out.insert(k, v);
                } else {
                    let mut e = Map::new();
                    e.insert("@key".into(), Value::String(clean_str(k)));
                    match v {
                        Value::Object(_) | Value::Array(_) => e.insert("value".into(), v),
                        other => e.insert("$text".into(), other),
                    };
                    entries.push(Value::Object(e));
                }
            }
            if !entries.is_empty() {
                out.insert("entry".into(), Value::Array(entries));
            }
            Value::Object(out)
        }
        other => other,
    }
}

fn element<T: serde::Serialize>(w: &mut dyn Write, tag: &str, v: &T) -> Result<(), ExportError> {
    let value = xml_safe(serde_json::to_value(v)?);
    let s = quick_xml::se::to_string_with_root(tag, &value)?;
    w.write_all(s.as_bytes())?;
    Ok(())
}

impl FormatWriter for XmlWriter {
    fn begin(&mut self, w: &mut dyn Write, doc: &DocHeader) -> Result<(), ExportError> {
        w.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<vibe_analyzer>\n")?;
        element(w, "version", &doc.version)?;
        w.write_all(b"\n")?;
        element(w, "generated_at", &doc.generated_at)?;
        w.write_all(b"\n")?;
        Ok(())
    }

    fn begin_source(&mut self, w: &mut dyn Write, _first: bool, src: &SourceHeader) -> Result<(), ExportError> {
        w.write_all(b"<sources>\n")?;
        let value = xml_safe(serde_json::to_value(src)?);
        if let Value::Object(m) = value {
            for (k, v) in m {
                element(w, &k, &v)?;
                w.write_all(b"\n")?;
            }
        }
        Ok(())
    }

    fn file(&mut self, w: &mut dyn Write, _first: bool, file: &FileRecord) -> Result<(), ExportError> {
        element(w, "files", file)?;
        w.write_all(b"\n")?;
        Ok(())
    }

    fn end_source(&mut self, w: &mut dyn Write, _files: usize, stats: &SourceStats) -> Result<(), ExportError> {
        element(w, "stats", stats)?;
        w.write_all(b"\n</sources>\n")?;
        Ok(())
    }

    fn finish(&mut self, w: &mut dyn Write, _sources: usize) -> Result<(), ExportError> {
        w.write_all(b"</vibe_analyzer>\n")?;
        Ok(())
    }
}
