//! What a definition is and what a use of a name is: one enum each, written
//! as their lowercase names everywhere (queries' captures, the AST export,
//! the indices, the tools' `kind` arguments and answers).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kind of a code element: the `@definition.<kind>` capture of a
/// language's query that found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ElementKind {
    #[default]
    Function,
    Method,
    Class,
    Type,
    Struct,
    Enum,
    Interface,
    Trait,
    Variable,
    Constant,
    Field,
}

impl ElementKind {
    pub const ALL: [ElementKind; 11] = [
        ElementKind::Function,
        ElementKind::Method,
        ElementKind::Class,
        ElementKind::Type,
        ElementKind::Struct,
        ElementKind::Enum,
        ElementKind::Interface,
        ElementKind::Trait,
        ElementKind::Variable,
        ElementKind::Constant,
        ElementKind::Field,
    ];

    /// Its name as written everywhere (`function`).
    pub fn name(self) -> &'static str {
        match self {
            ElementKind::Function => "function",
            ElementKind::Method => "method",
            ElementKind::Class => "class",
            ElementKind::Type => "type",
            ElementKind::Struct => "struct",
            ElementKind::Enum => "enum",
            ElementKind::Interface => "interface",
            ElementKind::Trait => "trait",
            ElementKind::Variable => "variable",
            ElementKind::Constant => "constant",
            ElementKind::Field => "field",
        }
    }

    /// The kind of that name (`None` for any other word).
    pub fn parse(name: &str) -> Option<ElementKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The list of the AST document that holds it (`functions` for a method).
    pub fn list(self) -> &'static str {
        match self {
            ElementKind::Function | ElementKind::Method => "functions",
            ElementKind::Class | ElementKind::Type => "classes",
            ElementKind::Struct => "structs",
            ElementKind::Enum => "enums",
            ElementKind::Interface | ElementKind::Trait => "interfaces",
            ElementKind::Variable | ElementKind::Constant | ElementKind::Field => "variables",
        }
    }

    /// A function or a method: it has a body that runs and calls.
    pub fn is_callable(self) -> bool {
        matches!(self, ElementKind::Function | ElementKind::Method)
    }

    /// A variable, a constant or a field: it holds a value.
    pub fn is_value(self) -> bool {
        matches!(self, ElementKind::Variable | ElementKind::Constant | ElementKind::Field)
    }
}

impl std::fmt::Display for ElementKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a use of a name: a call (also of a method or a
/// constructor), a type reference, an import, or a read of a named value
/// (a constant, a static, an enum member, a module-level upper-case name:
/// `MAX_RETRIES`, `Self::LIMIT`, `defaultTimeout` where the file defines it
/// as a constant) (`@reference.<kind>`); and a default, where a name
/// missing from options or arguments is given a literal (`opts.lingerMs ??
/// 5`, `kwargs.get("timeout", 30)`): stored for answers, never listed by
/// `find_references` (nor parsed from its `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ReferenceKind {
    #[default]
    Call,
    Type,
    Import,
    Read,
    /// Stored for answers; never in a `find_references` answer.
    Default,
}

/// The kinds an answer holds ([`ReferenceKind::ALL`]): `default` is
/// never listed.
impl JsonSchema for ReferenceKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ReferenceKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "enum": Self::ALL.map(ReferenceKind::name) })
    }
}

impl ReferenceKind {
    /// The uses `find_references` lists.
    pub const ALL: [ReferenceKind; 4] =
        [ReferenceKind::Call, ReferenceKind::Type, ReferenceKind::Import, ReferenceKind::Read];

    pub fn name(self) -> &'static str {
        match self {
            ReferenceKind::Call => "call",
            ReferenceKind::Type => "type",
            ReferenceKind::Import => "import",
            ReferenceKind::Read => "read",
            ReferenceKind::Default => "default",
        }
    }

    pub fn parse(name: &str) -> Option<ReferenceKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for ReferenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_and_parse() {
        for kind in ElementKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
            assert_eq!(ElementKind::parse(kind.name()), Some(kind));
            assert_eq!(serde_json::from_value::<ElementKind>(kind.name().into()).unwrap(), kind);
        }
        for kind in ReferenceKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
            assert_eq!(ReferenceKind::parse(kind.name()), Some(kind));
        }
        assert_eq!(ElementKind::parse("banana"), None);
        assert_eq!(ElementKind::Method.list(), "functions");
        assert_eq!(ElementKind::Trait.list(), "interfaces");
        assert!(ElementKind::Field.is_value() && !ElementKind::Field.is_callable());
    }
}
