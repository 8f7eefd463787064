//! The AST document model (`AstData`): what the scanner extracts from one file.
//!
//! This is a contract: it is exported by `scan ast`, stored in the AST
//! index and returned by `get_file_ast`. Empty collections are omitted when
//! serialized so that answers stay small.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::document::kinds::{ElementKind, ReferenceKind};

/// Start and end line (1-based, inclusive) of an element in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct LineRange {
    pub start: u32,
    pub end: u32,
}

/// A function, class, struct, enum, interface or variable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AstElement {
    /// The bare name (`read_line`, `Writer`), as written in the source.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// What it is.
    #[serde(default)]
    pub kind: ElementKind,
    /// Declaration cut before its body (`{`, `=`, `:` or `;`).
    #[serde(default)]
    pub signature: String,
    /// Doc comments attached to the element, comment markers stripped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// The enclosing classes and functions, outermost first, joined by `.`
    /// (`Outer.Inner.method`'s owner is `Outer.Inner`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Where the element stands in the file (an addition to the product description).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<LineRange>,
    /// The types a class, interface, struct, trait or enum extends or
    /// implements (Rust: the traits of `impl Trait for Type` in the same
    /// file; Go: embedded types), as bare names without generic arguments or
    /// qualifiers (`Map` of `java.util.Map<K, V>`), in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supertypes: Vec<String>,
}

impl AstElement {
    /// `Owner.name`, or the bare name of an element without an owner.
    pub fn qualified_name(&self) -> String {
        self.owner.as_ref().map_or_else(|| self.name.clone(), |o| format!("{o}.{}", self.name))
    }
}

/// A Markdown heading with the first words of its section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AstHeading {
    pub level: u8,
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub preview: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<LineRange>,
}

/// A Markdown link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AstLink {
    pub text: String,
    pub url: String,
}

/// A use of a name: a call (function, method or constructor), a type
/// reference or an import, taken from the `@reference.*` captures of the
/// language's query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AstReference {
    /// The name used, as written (`parse_config`, `Writer`), without its
    /// receiver or qualifier; an imported module keeps its path (`os.path`).
    pub name: String,
    pub kind: ReferenceKind,
    /// The line of the name (1-based).
    pub line: u32,
    /// The innermost function, method or class around the use, as
    /// `Owner.name` (`Writer.write`); absent at file level. Shared by the
    /// references of one function.
    #[serde(
        rename = "in",
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "shared_str::serialize",
        deserialize_with = "shared_str::deserialize"
    )]
    pub enclosing: Option<Arc<str>>,
}

/// Serde for `Option<Arc<str>>` (serde's own needs its `rc` feature).
mod shared_str {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<Arc<str>>, s: S) -> Result<S::Ok, S::Error> {
        v.as_deref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Arc<str>>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(Arc::from))
    }
}

/// Everything extracted from one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AstData {
    /// The file's leading comments, license text left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub header_comments: Vec<String>,
    /// The SPDX id of a license header at the top of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<AstElement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<AstElement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<AstElement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structs: Vec<AstElement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enums: Vec<AstElement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interfaces: Vec<AstElement>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontmatter: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headings: Vec<AstHeading>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<AstLink>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_blocks: Vec<String>,
    /// Uses of names (calls, type references, imports), in file order, at
    /// most one per name, kind and line. Indexed apart from the AST (the
    /// top-level `references` field), never returned by `get_file_ast`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<AstReference>,
    /// References left out of `references` because the file has more than
    /// the per-file cap.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub references_omitted: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Element categories with their tag names in English, Russian and Chinese.
/// The order is the order in which tags are emitted.
pub const CATEGORY_TAGS: &[(&str, &str, &str)] = &[
    ("header_comments", "", ""),
    ("imports", "импорты", "导入"),
    ("variables", "переменные", "变量"),
    ("functions", "функции", "函数"),
    ("classes", "классы", "类"),
    ("structs", "структуры", "结构体"),
    ("enums", "перечисления", "枚举"),
    ("interfaces", "интерфейсы", "接口"),
    ("frontmatter", "метаданные", "元数据"),
    ("headings", "заголовки", "标题"),
    ("links", "ссылки", "链接"),
    ("code_blocks", "блоки_кода", "代码块"),
];

impl AstData {
    /// The list that holds elements of `kind` ([`ElementKind::list`]).
    pub fn list_mut(&mut self, kind: ElementKind) -> &mut Vec<AstElement> {
        match kind.list() {
            "functions" => &mut self.functions,
            "classes" => &mut self.classes,
            "structs" => &mut self.structs,
            "enums" => &mut self.enums,
            "interfaces" => &mut self.interfaces,
            _ => &mut self.variables,
        }
    }

    /// Every code element, list by list.
    pub fn elements(&self) -> impl Iterator<Item = &AstElement> {
        [&self.functions, &self.classes, &self.structs, &self.enums, &self.interfaces, &self.variables]
            .into_iter()
            .flatten()
    }

    /// Number of AST objects, as counted by `stats info` and `show_stats`.
    pub fn object_count(&self) -> usize {
        self.imports.len()
            + self.variables.len()
            + self.functions.len()
            + self.classes.len()
            + self.structs.len()
            + self.enums.len()
            + self.interfaces.len()
            + self.headings.len()
            + self.links.len()
            + self.code_blocks.len()
    }

    fn category_present(&self, name: &str) -> bool {
        match name {
            "header_comments" => !self.header_comments.is_empty(),
            "imports" => !self.imports.is_empty(),
            "variables" => !self.variables.is_empty(),
            "functions" => !self.functions.is_empty(),
            "classes" => !self.classes.is_empty(),
            "structs" => !self.structs.is_empty(),
            "enums" => !self.enums.is_empty(),
            "interfaces" => !self.interfaces.is_empty(),
            "frontmatter" => self.frontmatter.as_ref().is_some_and(|f| !f.is_empty()),
            "headings" => !self.headings.is_empty(),
            "links" => !self.links.is_empty(),
            "code_blocks" => !self.code_blocks.is_empty(),
            _ => false,
        }
    }

    /// Recompute `tags`: for every category present, its English, Russian and
    /// Chinese names (`header_comments` has only the English one).
    pub fn with_tags(mut self) -> Self {
        let mut tags = Vec::new();
        for (en, ru, zh) in CATEGORY_TAGS {
            if self.category_present(en) {
                for t in [*en, *ru, *zh] {
                    if !t.is_empty() {
                        tags.push(t.to_string());
                    }
                }
            }
        }
        self.tags = tags;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_follow_present_categories() {
        let ast = AstData {
            functions: vec![AstElement { signature: "fn a()".into(), ..Default::default() }],
            header_comments: vec!["x".into()],
            ..Default::default()
        }
        .with_tags();
        assert_eq!(ast.tags, vec!["header_comments", "functions", "функции", "函数"]);
        assert_eq!(ast.object_count(), 1);
    }

    #[test]
    fn empty_fields_are_omitted() {
        let json = serde_json::to_value(AstData::default()).unwrap();
        assert_eq!(json, serde_json::json!({}));
    }
}
