//! The tool registry: every tool declared once, here.
//!
//! A [`ToolSpec`] holds a tool's name, title, description, parameters, the
//! stored template it runs, the code that shapes its answer ([`Run`], which
//! also decides the answer's schema, [`crate::answer_schema`]), the sentence
//! the server instructions give it, and what its name means
//! ([`ToolSpec::meaning`], read by the name resolver). `tools/list`
//! ([`definitions`]), dispatch ([`crate::dispatch::run`]), the server
//! instructions ([`instructions`]), the alias table's tool names and the
//! tests all derive from [`TOOLS`]. Adding a tool touches this table, its
//! template and its tests.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Map};
use vibe_common::document::kinds::ElementKind;

pub use crate::tool_inputs::{DEFAULT_LIMIT, MAX_LIMIT};
/// Deepest page a search reaches (`search_code_text` counts candidate
/// files: its next page can start past a thousand). Every `from + size`
/// stays under OpenSearch's `index.max_result_window` (10,000).
pub const MAX_OFFSET: u32 = 9000;

pub use crate::answer_schema::Run;

pub use crate::tool_inputs::Param;

/// One tool, declared once.
#[derive(Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
    /// Canonical names of the required parameters.
    pub required: &'static [&'static str],
    /// The stored search template it runs (`search-templates/<name>.mustache`), if any.
    pub template: Option<&'static str>,
    pub run: Run,
    /// Only reads the index (every tool but `admin_sync`).
    pub read_only: bool,
    /// Element kinds a [`Run::Symbols`] tool searches.
    pub kinds: &'static [ElementKind],
    /// What questions it answers, for the server instructions.
    pub use_for: &'static str,
    /// What the tool's name means: concepts of `gateway/data/tool_words.tsv`
    /// (or `a+b`, both present) with their weight. An object concept a tool
    /// does not list counts against it (see `normalize::meaning`).
    pub meaning: &'static [(&'static str, i32)],
    /// The words that ask a code search for a listing instead of a match
    /// (see [`crate::template_params::listing`]).
    pub listing: Option<ListingWords>,
}

/// Words that ask a code search for a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingWords {
    /// The AST categories it lists, by their tag names in every language
    /// ([`vibe_common::document::ast::CATEGORY_TAGS`]).
    pub categories: &'static [&'static str],
    /// Other words.
    pub others: &'static [&'static str],
}

const fn search(query: &'static str) -> [Param; 4] {
    [Param::Query(query), Param::Target, Param::Limit, Param::Offset]
}

/// Every tool, in listing order.
pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "admin_sync",
        title: "Re-index all projects",
        description: "Re-index all projects in the background; only when asked.",
        params: &[],
        required: &[],
        template: None,
        run: Run::AdminSync,
        read_only: false,
        kinds: &[],
        use_for: "update or reindex",
        // A name that asks to see something (`show_sync`) does not start a run.
        meaning: &[("sync", 10), ("index", 4), ("project", 1), ("read", -6), ("list", -6)],
        listing: None,
    },
    ToolSpec {
        name: "get_file_content",
        title: "File content",
        description: "Numbered lines of a file; long files come in pages (next_start_line).",
        params: &[Param::Path, Param::Target, Param::StartLine, Param::EndLine, Param::StartChar],
        required: &["path"],
        template: Some("get_file_content"),
        run: Run::FileContent,
        read_only: true,
        kinds: &[],
        use_for: "a file's text",
        meaning: &[
            ("file", 6),
            ("content", 8),
            ("lines", 6),
            ("code", 0),
            ("read", 2),
            ("search", -3),
            ("read+file", 3),
            ("read+code", 4),
            ("read+text", 4),
        ],
        listing: None,
    },
    ToolSpec {
        name: "get_file_ast",
        title: "File structure (AST)",
        description: "Outline of a file: its functions, classes and headings with lines. symbol: one with its code.",
        params: &[Param::Path, Param::Target, Param::Symbol, Param::ListOffset],
        required: &["path"],
        template: Some("get_file_ast"),
        run: Run::FileAst,
        read_only: true,
        kinds: &[],
        use_for: "a file's structure",
        meaning: &[
            ("ast", 10),
            ("file", 2),
            ("symbol", 3),
            ("file+symbol", 5),
            ("definition", 1),
            ("file+definition", 5),
            ("structure", 3),
            ("file+structure", 6),
            ("tree", 2),
            ("code", 0),
            ("read", 1),
        ],
        listing: None,
    },
    ToolSpec {
        name: "show_projects",
        title: "List projects",
        description: "The indexed projects: name, path, summary, last indexing.",
        params: &[Param::ListOffset],
        required: &[],
        template: Some("show_projects"),
        run: Run::Projects,
        read_only: true,
        kinds: &[],
        use_for: "projects",
        meaning: &[("project", 8), ("info", 2), ("index", 1), ("list", 2), ("read", 1)],
        listing: None,
    },
    ToolSpec {
        name: "show_stats",
        title: "Project statistics",
        description: "Languages, files, lines and size of projects.",
        params: &[Param::Target],
        required: &[],
        template: Some("show_stats"),
        run: Run::Stats,
        read_only: true,
        kinds: &[],
        use_for: "statistics",
        meaning: &[("stats", 10), ("info", 3), ("project", 1), ("index", 1), ("code", 0), ("read", 1)],
        listing: None,
    },
    ToolSpec {
        name: "show_tree",
        title: "Project file tree",
        description: "File tree of a project or directory; symbols: most-used definitions.",
        params: &[Param::Target, Param::Dir, Param::Depth, Param::Symbols],
        required: &[],
        template: Some("show_tree"),
        run: Run::Tree,
        read_only: true,
        kinds: &[],
        use_for: "file tree",
        meaning: &[
            ("tree", 10),
            ("structure", 3),
            ("project+structure", 6),
            ("project", 1),
            ("file", 0),
            ("list+file", 6),
            ("list", 2),
            ("read", 1),
        ],
        listing: None,
    },
    ToolSpec {
        name: "search_by_code_imports",
        title: "Search imports",
        description: "Files importing a module or package (\"*\": all imports).",
        params: &search("Module or package name"),
        required: &["query"],
        template: Some("search_by_code_imports"),
        run: Run::Imports,
        read_only: true,
        kinds: &[],
        use_for: "imports or dependencies",
        meaning: &[("import", 10), ("module", 5), ("code", 0), ("search", 2), ("list", 1)],
        listing: Some(ListingWords {
            categories: &["imports"],
            others: &["all", "import", "dependencies", "all imports", "依赖"],
        }),
    },
    ToolSpec {
        name: "search_by_code_functions",
        title: "Search functions",
        description: "Functions and methods by name or by what they do in words. The best shows its code.",
        params: &search("A name (+ words: its lines with them), or what it does"),
        required: &["query"],
        template: Some("search_code_symbols"),
        run: Run::Symbols,
        read_only: true,
        kinds: &[ElementKind::Function, ElementKind::Method],
        use_for: "functions or methods",
        meaning: &[("function", 10), ("symbol", 3), ("definition", 3), ("code", 0), ("search", 2), ("list", 1)],
        listing: Some(ListingWords {
            categories: &["functions"],
            others: &["all", "function", "methods", "all functions"],
        }),
    },
    ToolSpec {
        name: "search_by_code_classes",
        title: "Search classes",
        description: "Classes, structs, interfaces, traits by name, or by purpose in words.",
        params: &search("A name, or what it is for in words"),
        required: &["query"],
        template: Some("search_code_symbols"),
        run: Run::Symbols,
        read_only: true,
        kinds: &[
            ElementKind::Class,
            ElementKind::Type,
            ElementKind::Struct,
            ElementKind::Interface,
            ElementKind::Trait,
            ElementKind::Enum,
        ],
        use_for: "classes, structs, interfaces",
        meaning: &[
            ("class", 10),
            ("enum", 6),
            ("symbol", 2),
            ("definition", 2),
            ("code", 0),
            ("search", 2),
            ("list", 1),
        ],
        listing: Some(ListingWords {
            categories: &["classes", "structs", "interfaces"],
            others: &["all", "class", "types", "all classes"],
        }),
    },
    ToolSpec {
        name: "search_by_code_variables",
        title: "Search variables",
        description: "Variables, constants, fields, enums by name or by what they hold in words.",
        params: &search("A name, or what it holds in words"),
        required: &["query"],
        template: Some("search_code_symbols"),
        run: Run::Symbols,
        read_only: true,
        kinds: &[ElementKind::Variable, ElementKind::Constant, ElementKind::Field, ElementKind::Enum],
        use_for: "variables, constants, enums",
        meaning: &[
            ("variable", 10),
            ("enum", 9),
            ("symbol", 1),
            ("definition", 1),
            ("code", 0),
            ("search", 2),
            ("list", 1),
        ],
        listing: Some(ListingWords {
            categories: &["variables", "enums"],
            others: &["all", "constants", "all variables", "константы", "常量"],
        }),
    },
    ToolSpec {
        name: "search_code_text",
        title: "Search text in code",
        description: "Text or regex in code, like grep: matching lines and their function. For strings, messages.",
        params: &[
            Param::Query("Text to find"),
            Param::Target,
            Param::Regex,
            Param::CaseSensitive,
            Param::PathGlob,
            Param::Language,
            Param::Context,
            Param::Limit,
            Param::Offset,
        ],
        required: &["query"],
        template: Some("search_code_text"),
        run: Run::Text,
        read_only: true,
        kinds: &[],
        use_for: "a string, message or pattern in code (like grep)",
        meaning: &[
            ("text", 10),
            ("grep", 6),
            ("search+content", 9),
            ("search+code", 7),
            ("search+file", 3),
            ("content", 1),
            ("file", 0),
            ("code", 0),
            ("search", 1),
        ],
        listing: None,
    },
    ToolSpec {
        name: "find_references",
        title: "Find references",
        description:
            "Uses of a symbol (calls, types, imports, reads) with line and function; or callees, subtypes, supertypes.",
        params: &[
            Param::Query("Name or Owner.name"),
            Param::Target,
            Param::RefKind,
            Param::Direction,
            Param::Depth,
            Param::Limit,
            Param::Offset,
        ],
        required: &["query"],
        template: Some("find_references"),
        run: Run::References,
        read_only: true,
        kinds: &[],
        use_for: "where a symbol is used or called, who calls it, what it calls",
        meaning: &[
            ("reference", 10),
            ("function", 0),
            ("class", 0),
            ("variable", 0),
            ("symbol", 2),
            ("code", 0),
            ("search", 1),
            ("list", 1),
        ],
        listing: None,
    },
    ToolSpec {
        name: "search_documentation",
        title: "Search documentation",
        description: "Markdown docs and knowledge base: guides, rules, people. For non-code questions.",
        params: &search("Question or keywords, any language"),
        required: &["query"],
        template: Some("search_documentation"),
        run: Run::Documentation,
        read_only: true,
        kinds: &[],
        use_for: "questions about docs, guides, rules, processes or people (who is, what is, how to)",
        meaning: &[("docs", 10), ("question", 6), ("import", 0), ("search", 2)],
        listing: None,
    },
    ToolSpec {
        name: "search_knowledge",
        title: "Search knowledge base",
        description: "Alias of search_documentation.",
        params: &search("Question or keywords, any language"),
        required: &["query"],
        template: Some("search_documentation"),
        run: Run::Documentation,
        read_only: true,
        kinds: &[],
        use_for: "",
        // Reached by its name and the alias table; meaning resolves to search_documentation.
        meaning: &[],
        listing: None,
    },
];

/// The canonical tool names, in listing order.
pub const TOOL_NAMES: [&str; TOOLS.len()] = {
    let mut names = [""; TOOLS.len()];
    let mut i = 0;
    while i < TOOLS.len() {
        names[i] = TOOLS[i].name;
        i += 1;
    }
    names
};

/// The tool of a canonical name.
pub fn spec(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

impl ToolSpec {
    /// Whether the tool takes a parameter of this canonical name.
    pub fn takes(&self, name: &str) -> bool {
        self.params.iter().any(|p| p.name() == name)
    }

    /// The input JSON Schema.
    pub fn input_schema(&self) -> Arc<JsonObject> {
        let mut properties = Map::new();
        for p in self.params {
            properties.insert(p.name().to_string(), p.schema().to_value());
        }
        let mut s = json!({ "type": "object", "properties": properties });
        if !self.required.is_empty() {
            s["required"] = json!(self.required);
        }
        Arc::new(s.as_object().cloned().unwrap_or_default())
    }

    /// The output JSON Schema: the shape of the answers of its [`Run`],
    /// derived once per process.
    pub fn output_schema(&self) -> Arc<JsonObject> {
        static DERIVED: LazyLock<std::sync::Mutex<std::collections::HashMap<Run, Arc<JsonObject>>>> =
            LazyLock::new(Default::default);
        let mut derived = DERIVED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let schema = derived.entry(self.run).or_insert_with(|| {
            Arc::new(crate::answer_schema::output_schema(self.run).as_object().cloned().unwrap_or_default())
        });
        Arc::clone(schema)
    }

    /// The MCP tool definition; with its `outputSchema` when `typed`.
    pub fn definition(&self, typed: bool) -> Tool {
        let annotations = ToolAnnotations::with_title(self.title)
            .read_only(self.read_only)
            .destructive(false)
            .idempotent(true)
            .open_world(false);
        let tool = Tool::new(Cow::Borrowed(self.name), Cow::Borrowed(self.description), self.input_schema())
            .with_title(self.title)
            .with_annotations(annotations);
        if typed {
            tool.with_raw_output_schema(self.output_schema())
        } else {
            tool
        }
    }
}

/// Tools that answer to their name but are not listed: aliases of a listed
/// tool (every listed tool costs tokens in each request a client sends).
pub const UNLISTED: &[&str] = &["search_knowledge"];

/// Every listed tool definition, in listing order (`tools/list`); with
/// their `outputSchema` when `typed`.
pub fn definitions(typed: bool) -> Vec<Tool> {
    TOOLS.iter().filter(|t| !UNLISTED.contains(&t.name)).map(|t| t.definition(typed)).collect()
}

/// One tool definition.
pub fn definition(name: &str, typed: bool) -> Option<Tool> {
    spec(name).map(|t| t.definition(typed))
}

/// `ServerInfo.instructions`: how a model should use the tools, built from
/// each tool's [`ToolSpec::use_for`]; the shared endpoint's.
pub fn instructions() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        compose_instructions(
            "`target` is a project name or path: pass the project you work in when you know it (sharper, faster answers), \
             omit it to search every project",
        )
    });
    &TEXT
}

/// The instructions on a project's own endpoint (`/mcp/<project>`): its
/// calls need no `target`, so the model is told not to guess one.
pub fn endpoint_instructions(project: &str) -> String {
    compose_instructions(&format!(
        "this endpoint answers from the project {project:?}: omit `target`; \
         pass another project's name or path, or \"all\", only to search elsewhere"
    ))
}

fn compose_instructions(target_rule: &str) -> String {
    let which: Vec<String> =
        TOOLS.iter().filter(|t| !t.use_for.is_empty()).map(|t| format!("{} -> {}", t.use_for, t.name)).collect();
    format!(
        "Vibe Analyzer searches indexed code projects and knowledge bases. \
         An answer is compact text: a code search's best match shows its code (of a long one, the lines holding your words), \
         the others their path, lines and signature; an answer that leaves something out says so and which call gives the rest. \
         If the line you need is not shown, read it with get_file_content (path and start_line) instead of searching again. \
         Use only the tools listed here. \
         Which tool: {}. The code searches take a name, a name then the words you look for in it (only its lines holding them, e.g. `Config.load path`), or a description in words. \
         {target_rule}; `limit` is 1-{MAX_LIMIT} (default {DEFAULT_LIMIT}).",
        which.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_declared_once_with_its_required_parameters() {
        let mut seen = std::collections::HashSet::new();
        for t in TOOLS {
            assert!(seen.insert(t.name), "{} declared twice", t.name);
            for r in t.required {
                assert!(t.takes(r), "{}: required {r} is not a parameter", t.name);
            }
            assert_eq!(t.read_only, t.run != Run::AdminSync, "{}", t.name);
            assert_eq!(t.run == Run::Symbols, !t.kinds.is_empty(), "{}", t.name);
        }
    }

    #[test]
    fn instructions_name_every_tool_but_the_alias() {
        let text = instructions();
        for t in TOOLS.iter().filter(|t| t.name != "search_knowledge") {
            assert!(text.contains(&format!("-> {}", t.name)), "{}: {text}", t.name);
        }
    }

    #[test]
    fn a_project_endpoint_tells_the_model_to_omit_target() {
        let text = endpoint_instructions("billing");
        assert!(text.contains("answers from the project \"billing\": omit `target`"), "{text}");
        assert!(!text.contains("pass the project you work in"), "{text}");
        assert!(instructions().contains("omit it to search every project"));
        // Same rules and tool guide otherwise.
        assert!(text.starts_with(instructions().split("`target`").next().unwrap()));
    }

    #[test]
    fn limits_in_schemas_follow_the_constants() {
        let s = Param::Limit.schema();
        assert!(s.get("description").and_then(|d| d.as_str()).unwrap().contains(&format!("1-{MAX_LIMIT}")));
        assert_eq!(s.get("default").unwrap(), DEFAULT_LIMIT);
    }

    #[test]
    fn aliases_resolve_but_are_not_listed() {
        let listed: Vec<String> = definitions(false).iter().map(|t| t.name.to_string()).collect();
        assert_eq!(listed.len(), TOOLS.len() - UNLISTED.len());
        for alias in UNLISTED {
            assert!(spec(alias).is_some() && !listed.iter().any(|n| n == alias), "{alias}");
        }
    }
}
