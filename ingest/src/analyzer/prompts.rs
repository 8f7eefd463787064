//! The prompts: handlebars templates kept as files in `ingest/prompts/` and
//! embedded into the binary.
//!
//! * `files.hbs`: one request for a batch of files. It carries each file's
//!   AST (declarations, never the source), filtered by the host's
//!   `ast_imports`, `ast_variables`, `ast_functions`, `ast_enums` and
//!   `ast_interfaces`, and the JSON skeleton the model must fill in.
//! * `project.hbs`: turns the README into a 2–3 sentence summary.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::json;
use vibe_common::config::OllamaHost;
use vibe_common::document::ast::{AstData, AstElement};

use crate::scanner::ScannedFile;

pub const FILES_TEMPLATE: &str = include_str!("../../prompts/files.hbs");
pub const PROJECT_TEMPLATE: &str = include_str!("../../prompts/project.hbs");

/// Placeholder the model replaces with a description.
pub const DESCRIPTION_PLACEHOLDER: &str = "FILL_DESCRIPTION";
/// Placeholders the model replaces with tags.
pub const TAG_PLACEHOLDERS: [&str; 3] = ["TAG1", "TAG2", "TAG3"];

/// Longest rendering of one element (signature plus first doc line).
const MAX_ITEM_CHARS: usize = 240;

/// Which AST elements go into the file prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AstSelection {
    pub imports: bool,
    pub variables: bool,
    pub functions: bool,
    pub enums: bool,
    pub interfaces: bool,
}

impl AstSelection {
    pub fn from_config(cfg: &OllamaHost) -> Self {
        Self {
            imports: cfg.ast_imports,
            variables: cfg.ast_variables,
            functions: cfg.ast_functions,
            enums: cfg.ast_enums,
            interfaces: cfg.ast_interfaces,
        }
    }

    /// Everything any of `hosts` sends (used to size batches).
    pub fn union(hosts: &[OllamaHost]) -> Self {
        let mut s = Self { imports: false, variables: false, functions: false, enums: false, interfaces: false };
        for h in hosts {
            let o = Self::from_config(h);
            s.imports |= o.imports;
            s.variables |= o.variables;
            s.functions |= o.functions;
            s.enums |= o.enums;
            s.interfaces |= o.interfaces;
        }
        s
    }
}

/// One titled list of a file's declarations, as rendered in the prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    pub name: &'static str,
    pub items: Vec<String>,
}

/// The sections of `ast` sent to the model, cut to about `budget` characters.
/// Header comments, classes, structs, Markdown front matter and headings are
/// always sent; the rest follows `sel`.
pub fn ast_sections(ast: &AstData, sel: &AstSelection, budget: usize) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut push = |name: &'static str, items: Vec<String>| {
        if !items.is_empty() {
            sections.push(Section { name, items });
        }
    };
    push("header comments", ast.header_comments.iter().map(|c| clip(&first_line(c), MAX_ITEM_CHARS)).collect());
    if let Some(fm) = &ast.frontmatter {
        push("front matter", fm.iter().map(|(k, v)| clip(&format!("{k}: {v}"), MAX_ITEM_CHARS)).collect());
    }
    if sel.imports {
        push("imports", ast.imports.iter().map(|i| clip(i, MAX_ITEM_CHARS)).collect());
    }
    if sel.variables {
        push("variables", elements(&ast.variables));
    }
    push("classes", elements(&ast.classes));
    push("structs", elements(&ast.structs));
    if sel.interfaces {
        push("interfaces", elements(&ast.interfaces));
    }
    if sel.enums {
        push("enums", elements(&ast.enums));
    }
    if sel.functions {
        push("functions", elements(&ast.functions));
    }
    push(
        "headings",
        ast.headings
            .iter()
            .map(|h| clip(&format!("{} {}", "#".repeat(h.level.max(1) as usize), h.title), MAX_ITEM_CHARS))
            .collect(),
    );
    cut_to_budget(&mut sections, budget);
    sections
}

fn elements(list: &[AstElement]) -> Vec<String> {
    list.iter()
        .map(|e| {
            let sig = e.signature.split_whitespace().collect::<Vec<_>>().join(" ");
            let sig = match &e.owner {
                Some(o) if !sig.contains(o.as_str()) => format!("{o}: {sig}"),
                _ => sig,
            };
            let text = match e.comments.iter().map(|c| first_line(c)).find(|c| !c.is_empty()) {
                Some(doc) => format!("{sig} // {doc}"),
                None => sig,
            };
            clip(&text, MAX_ITEM_CHARS)
        })
        .collect()
}

fn first_line(s: &str) -> String {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").to_string()
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max.saturating_sub(1)).collect::<String>() + "…"
    }
}

/// Approximate size of sections in the prompt.
pub fn sections_chars(sections: &[Section]) -> usize {
    sections.iter().map(|s| s.name.len() + 2 + s.items.iter().map(|i| i.len() + 3).sum::<usize>()).sum()
}

/// Drop items from the end of the longest sections until the total fits,
/// leaving a "… N more" marker.
fn cut_to_budget(sections: &mut [Section], budget: usize) {
    if sections_chars(sections) <= budget {
        return;
    }
    // Give each section an equal share, lending unused share to the others.
    let n = sections.len().max(1);
    let mut share = budget / n;
    let mut small = 0;
    let mut large = 0;
    for s in sections.iter() {
        let c = sections_chars(std::slice::from_ref(s));
        if c <= share {
            small += c;
        } else {
            large += 1;
        }
    }
    if let Some(s) = budget.saturating_sub(small).checked_div(large) {
        share = s;
    }
    for s in sections.iter_mut() {
        let mut used = s.name.len() + 2;
        let mut keep = 0;
        for item in &s.items {
            if used + item.len() + 3 > share && keep > 0 {
                break;
            }
            used += item.len() + 3;
            keep += 1;
        }
        let dropped = s.items.len() - keep;
        if dropped > 0 {
            s.items.truncate(keep);
            s.items.push(format!("… {dropped} more"));
        }
    }
}

#[derive(Serialize)]
struct FileCtx<'a> {
    path: &'a str,
    language: Option<&'a str>,
    sections: Vec<Section>,
}

/// The embedded templates, ready to render.
pub struct Prompts {
    hb: Handlebars<'static>,
}

impl std::fmt::Debug for Prompts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Prompts")
    }
}

impl Prompts {
    pub fn new() -> anyhow::Result<Self> {
        let mut hb = Handlebars::new();
        hb.set_strict_mode(true);
        hb.register_escape_fn(handlebars::no_escape);
        hb.register_template_string("files", FILES_TEMPLATE)?;
        hb.register_template_string("project", PROJECT_TEMPLATE)?;
        Ok(Self { hb })
    }

    /// The JSON the model must fill in, one entry per path, in order.
    pub fn skeleton(paths: &[&str]) -> String {
        // One compact line per file keeps the prompt short.
        let lines: Vec<String> = paths
            .iter()
            .map(|p| {
                let path = serde_json::to_string(p).unwrap_or_default();
                let tags = serde_json::to_string(&TAG_PLACEHOLDERS).unwrap_or_default();
                format!("    {{\"path\": {path}, \"description\": \"{DESCRIPTION_PLACEHOLDER}\", \"tags\": {tags}}}")
            })
            .collect();
        format!("{{\n  \"files\": [\n{}\n  ]\n}}", lines.join(",\n"))
    }

    /// The prompt for a batch of files, with each file's AST cut to `budget`
    /// characters. With `skeleton`, the model is asked to fill in a JSON
    /// skeleton; without, the answer's shape is left to the schema sent with
    /// the request (a small model copies a skeleton's placeholders).
    pub fn files(
        &self,
        project: &str,
        files: &[&FileInput],
        sel: &AstSelection,
        budget: usize,
        skeleton: bool,
    ) -> anyhow::Result<String> {
        let ctx_files: Vec<FileCtx> = files
            .iter()
            .map(|f| FileCtx {
                path: &f.path,
                language: f.language.as_deref(),
                sections: ast_sections(&f.ast, sel, budget),
            })
            .collect();
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let data = json!({
            "project": project,
            "count": files.len(),
            "files": ctx_files,
            "skeleton": if skeleton { Self::skeleton(&paths) } else { String::new() },
        });
        Ok(self.hb.render("files", &data)?)
    }

    /// The prompt that turns a README (cut to `max_chars`) into a summary;
    /// `skeleton` as in [`Prompts::files`].
    pub fn project(&self, project: &str, readme: &str, max_chars: usize, skeleton: bool) -> anyhow::Result<String> {
        let data = json!({ "project": project, "readme": clip(readme.trim(), max_chars), "skeleton": skeleton });
        Ok(self.hb.render("project", &data)?)
    }
}

/// What the analyzer knows of one file: its path and AST (never its source).
#[derive(Debug, Clone, PartialEq)]
pub struct FileInput {
    /// Path relative to the source root; the model must return it unchanged.
    pub path: String,
    pub language: Option<String>,
    pub ast: AstData,
}

impl FileInput {
    /// The file's input, when it has an AST.
    pub fn from_scanned(file: &ScannedFile) -> Option<Self> {
        file.ast.as_ref().map(|ast| Self {
            path: file.rel_path.clone(),
            language: file.language.map(str::to_string),
            ast: ast.clone(),
        })
    }

    /// Characters this file adds to a file prompt (its AST sections, its
    /// header line and its entry of the JSON skeleton).
    pub fn prompt_chars(&self, sel: &AstSelection, max_chars: usize) -> usize {
        const OVERHEAD: usize = 120;
        sections_chars(&ast_sections(&self.ast, sel, max_chars)) + 2 * self.path.len() + OVERHEAD
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_common::document::ast::AstHeading;

    fn el(sig: &str, doc: &str) -> AstElement {
        AstElement {
            signature: sig.into(),
            comments: if doc.is_empty() { vec![] } else { vec![doc.into()] },
            ..Default::default()
        }
    }

    fn input() -> FileInput {
        FileInput {
            path: "src/main.rs".into(),
            language: Some("Rust".into()),
            ast: AstData {
                imports: vec!["use std::io;".into()],
                variables: vec![el("static X: u8", "")],
                functions: vec![el("fn main()", "Entry point.\nMore.")],
                enums: vec![el("enum Mode", "")],
                interfaces: vec![el("trait Run", "")],
                structs: vec![el("struct Cli", "")],
                ..Default::default()
            },
        }
    }

    #[test]
    fn selection_filters_elements() {
        let f = input();
        let all = AstSelection { imports: true, variables: true, functions: true, enums: true, interfaces: true };
        let names: Vec<_> = ast_sections(&f.ast, &all, 10_000).iter().map(|s| s.name).collect();
        assert_eq!(names, ["imports", "variables", "structs", "interfaces", "enums", "functions"]);
        let cfg = OllamaHost::default(); // functions, enums, interfaces
        let names: Vec<_> =
            ast_sections(&f.ast, &AstSelection::from_config(&cfg), 10_000).iter().map(|s| s.name).collect();
        assert_eq!(names, ["structs", "interfaces", "enums", "functions"]);
        let none = AstSelection { imports: false, variables: false, functions: false, enums: false, interfaces: false };
        let names: Vec<_> = ast_sections(&f.ast, &none, 10_000).iter().map(|s| s.name).collect();
        assert_eq!(names, ["structs"]);
    }

    #[test]
    fn file_prompt_has_ast_and_skeleton() {
        let p = Prompts::new().unwrap();
        let f = input();
        let text = p.files("demo", &[&f], &AstSelection::from_config(&OllamaHost::default()), 4000, true).unwrap();
        assert!(text.contains("=== FILE src/main.rs (Rust) ==="), "{text}");
        assert!(text.contains("- fn main() // Entry point."), "{text}");
        assert!(!text.contains("use std::io"), "imports are off by default: {text}");
        assert!(text.contains("{\"path\": \"src/main.rs\", \"description\": \"FILL_DESCRIPTION\""), "{text}");
        let skeleton: serde_json::Value = serde_json::from_str(&Prompts::skeleton(&["a", "b\"c"])).unwrap();
        assert_eq!(skeleton["files"][1]["path"], "b\"c");
        assert!(text.contains(DESCRIPTION_PLACEHOLDER));
        assert!(!text.contains("&quot;"), "no HTML escaping: {text}");
        let schema_led =
            p.files("demo", &[&f], &AstSelection::from_config(&OllamaHost::default()), 4000, false).unwrap();
        assert!(!schema_led.contains(DESCRIPTION_PLACEHOLDER), "nothing for a small model to copy: {schema_led}");
        assert!(schema_led.contains("each \"path\" exactly as given"), "{schema_led}");
    }

    #[test]
    fn markdown_and_empty_files() {
        let p = Prompts::new().unwrap();
        let md = FileInput {
            path: "docs/a b.md".into(),
            language: None,
            ast: AstData {
                headings: vec![AstHeading { level: 2, title: "Usage".into(), ..Default::default() }],
                ..Default::default()
            },
        };
        let empty = FileInput { path: "x.sh".into(), language: Some("Bash".into()), ast: AstData::default() };
        let sel = AstSelection::from_config(&OllamaHost::default());
        let text = p.files("demo", &[&md, &empty], &sel, 4000, false).unwrap();
        assert!(text.contains("- ## Usage"), "{text}");
        assert!(text.contains("=== FILE x.sh (Bash) ===\n(no declarations extracted)"), "{text}");
    }

    #[test]
    fn long_asts_are_cut() {
        let mut f = input();
        f.ast.functions = (0..500).map(|i| el(&format!("fn function_number_{i}(a: u32, b: u32) -> u32"), "")).collect();
        let sel = AstSelection::from_config(&OllamaHost::default());
        let sections = ast_sections(&f.ast, &sel, 1000);
        assert!(sections_chars(&sections) <= 1100, "{}", sections_chars(&sections));
        let funcs = sections.iter().find(|s| s.name == "functions").unwrap();
        assert!(funcs.items.last().unwrap().ends_with("more"));
        assert!(sections.iter().any(|s| s.name == "structs"));
    }

    #[test]
    fn project_prompt() {
        let p = Prompts::new().unwrap();
        let text = p.project("demo", "# Demo\n\nA <tool> & more.", 4000, true).unwrap();
        assert!(text.contains("A <tool> & more."), "{text}");
        assert!(text.contains("\"summary\": \"YOUR 2-3 SENTENCES\""), "{text}");
        let schema_led = p.project("demo", "# Demo", 4000, false).unwrap();
        assert!(schema_led.contains("\"summary\"") && !schema_led.contains("YOUR"), "{schema_led}");
        let long = "x".repeat(10_000);
        assert!(p.project("demo", &long, 1000, false).unwrap().len() < 2000);
    }
}
