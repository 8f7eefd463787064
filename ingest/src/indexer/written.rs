//! The documents as the bulk body holds them: serialized straight from the
//! scanned file ([`super::documents`] fills them), without building a
//! `serde_json::Value` of each document first (a copy of every text, and
//! a second walk to write it). Each struct's fields are in the order the
//! JSON has always had: the documents written are byte for byte those of
//! the `json!` values they replace.

use std::borrow::Cow;
use std::collections::hash_map::{Entry, HashMap};

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use vibe_common::document::ast::{AstData, AstReference};
use vibe_common::document::kinds::{ElementKind, ReferenceKind};

/// The AST document of a file (`ast_doc`).
#[derive(Serialize)]
pub struct AstDoc<'a> {
    pub root: Cow<'a, str>,
    pub project: &'a str,
    pub path: &'a str,
    pub language: Option<&'static str>,
    pub extension: Option<String>,
    pub lines: u64,
    pub size: u64,
    pub mtime: u64,
    pub hash: &'a str,
    pub indexed_at: u64,
    pub binary: bool,
    pub skipped: Option<&'static str>,
    pub knowledge: bool,
    pub ast_objects: usize,
    pub description: Option<&'a str>,
    pub tags: Vec<String>,
    /// The tags again for the English, Russian and Chinese analyzers of
    /// `search_documentation`, on Markdown files only ([`super::documents`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_tags: Option<Vec<String>>,
    pub llm_tags: Vec<String>,
    pub symbols: Vec<Symbol<'a>>,
    pub about: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about_zh: Option<String>,
    pub words: Option<&'a str>,
    pub references: GroupedReferences<'a>,
    pub ast: Option<StoredAst<'a>>,
}

/// One entry of `symbols`.
#[derive(Serialize)]
pub struct Symbol<'a> {
    pub name: &'a str,
    pub kind: ElementKind,
    pub show: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub supertypes: &'a [String],
    pub about: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about_zh: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<&'a str>,
}

/// A file's references as the index keeps them: one entry per name, kind
/// and enclosing definition, with every line that use is on, in the order
/// of first use (`{name, kind, line: [3, 9], in?}`). Each entry is a
/// nested Lucene document: one per use, the 743,523 uses of the throughput
/// corpus were a fifth of OpenSearch's indexing CPU (issue 33); they are
/// 533,004 entries. Searches filter by name, kind and `in` as before; a
/// line range matches an entry with any line in it.
pub struct GroupedReferences<'a>(pub &'a [AstReference]);

/// One entry of [`GroupedReferences`].
#[derive(Serialize)]
struct ReferenceEntry<'a> {
    name: &'a str,
    kind: ReferenceKind,
    line: Vec<u32>,
    /// How many lines, when more than one (`find_references` ranks a file
    /// by its uses: `missing` counts 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    uses: Option<usize>,
    #[serde(rename = "in", skip_serializing_if = "Option::is_none")]
    enclosing: Option<&'a str>,
}

impl<'a> GroupedReferences<'a> {
    fn entries(&self) -> Vec<ReferenceEntry<'a>> {
        let mut entries: Vec<ReferenceEntry<'a>> = Vec::new();
        let mut at: HashMap<(&str, ReferenceKind, Option<&str>), usize> = HashMap::new();
        for r in self.0 {
            match at.entry((r.name.as_str(), r.kind, r.enclosing.as_deref())) {
                Entry::Occupied(e) => entries[*e.get()].line.push(r.line),
                Entry::Vacant(e) => {
                    e.insert(entries.len());
                    let enclosing = r.enclosing.as_deref();
                    entries.push(ReferenceEntry {
                        name: &r.name,
                        kind: r.kind,
                        line: vec![r.line],
                        uses: None,
                        enclosing,
                    });
                }
            }
        }
        for e in entries.iter_mut().filter(|e| e.line.len() > 1) {
            e.uses = Some(e.line.len());
        }
        entries
    }
}

impl Serialize for GroupedReferences<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.entries())
    }
}

/// The AST as stored in the document: without its references, which live
/// in the top-level `references` field only (so `get_file_ast` answers stay
/// small).
///
/// The fields are [`AstData`]'s, in the order the stored AST has always
/// had: it was the AST's `serde_json::Value` with `references` removed, and
/// `Map::remove` (with `preserve_order`) is a swap-remove, which put the
/// last field present (`tags`) where `references` stood. The test
/// `the_stored_ast_is_the_ast_value_without_its_references` lists every
/// field of [`AstData`] (a new one does not compile until it is here too).
pub struct StoredAst<'a>(pub &'a AstData);

impl Serialize for StoredAst<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// An entry, unless the field is empty (as the derive of [`AstData`] leaves it out).
        fn entry<M: SerializeMap>(m: &mut M, key: &str, value: &impl Serialize, empty: bool) -> Result<(), M::Error> {
            if empty {
                return Ok(());
            }
            m.serialize_entry(key, value)
        }
        let a = self.0;
        let mut m = serializer.serialize_map(None)?;
        entry(&mut m, "header_comments", &a.header_comments, a.header_comments.is_empty())?;
        entry(&mut m, "license", &a.license, a.license.is_none())?;
        entry(&mut m, "imports", &a.imports, a.imports.is_empty())?;
        entry(&mut m, "variables", &a.variables, a.variables.is_empty())?;
        entry(&mut m, "functions", &a.functions, a.functions.is_empty())?;
        entry(&mut m, "classes", &a.classes, a.classes.is_empty())?;
        entry(&mut m, "structs", &a.structs, a.structs.is_empty())?;
        entry(&mut m, "enums", &a.enums, a.enums.is_empty())?;
        entry(&mut m, "interfaces", &a.interfaces, a.interfaces.is_empty())?;
        entry(&mut m, "frontmatter", &a.frontmatter, a.frontmatter.is_none())?;
        entry(&mut m, "headings", &a.headings, a.headings.is_empty())?;
        entry(&mut m, "links", &a.links, a.links.is_empty())?;
        entry(&mut m, "code_blocks", &a.code_blocks, a.code_blocks.is_empty())?;
        // `references` is left out; `tags`, the last field, took its place.
        let tags_moved = !a.references.is_empty();
        entry(&mut m, "tags", &a.tags, !tags_moved || a.tags.is_empty())?;
        entry(&mut m, "references_omitted", &a.references_omitted, a.references_omitted == 0)?;
        entry(&mut m, "tags", &a.tags, tags_moved || a.tags.is_empty())?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_common::document::ast::{AstElement, AstHeading, AstLink};

    /// What the stored AST was: the AST's `Value`, `references` removed.
    fn as_value_without_references(ast: &AstData) -> String {
        let mut v = serde_json::to_value(ast).unwrap();
        v.as_object_mut().unwrap().remove("references");
        v.to_string()
    }

    #[test]
    fn the_stored_ast_is_the_ast_value_without_its_references() {
        let element =
            |name: &str| AstElement { name: name.into(), signature: format!("fn {name}()"), ..Default::default() };
        let reference =
            AstReference { name: "f".into(), kind: ReferenceKind::Call, line: 3, enclosing: Some("A.g".into()) };
        // Every field, none left to `..Default::default()`: a field added to
        // `AstData` does not compile here until `StoredAst` writes it too.
        let full = AstData {
            header_comments: vec!["Header.".into()],
            license: Some("MIT".into()),
            imports: vec!["os".into()],
            variables: vec![element("v")],
            functions: vec![element("f")],
            classes: vec![element("C")],
            structs: vec![element("S")],
            enums: vec![element("E")],
            interfaces: vec![element("I")],
            frontmatter: Some([("knowledge".to_string(), "yes".to_string())].into()),
            headings: vec![AstHeading { level: 1, title: "T".into(), ..Default::default() }],
            links: vec![AstLink::default()],
            code_blocks: vec!["x = 1".into()],
            references: vec![reference],
            references_omitted: 7,
            tags: vec!["functions".into()],
        };
        let mut cases = vec![full.clone(), AstData::default()];
        for strip in 0..4 {
            let mut a = full.clone();
            (strip & 1 == 1).then(|| a.tags.clear());
            (strip & 2 == 2).then(|| a.references_omitted = 0);
            cases.push(a.clone());
            a.references.clear();
            cases.push(a);
        }
        for ast in &cases {
            assert_eq!(serde_json::to_string(&StoredAst(ast)).unwrap(), as_value_without_references(ast));
        }
    }
}
