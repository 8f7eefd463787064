//! The documents written to OpenSearch, built from scanned files.

use std::borrow::Cow;

use vibe_common::document::ast::AstData;
use vibe_common::document::content_doc::ContentDoc;
use vibe_common::document::shown::Shown;
use vibe_common::text::identifier::{joined_pairs, spaced_words};
use vibe_common::text::summary;

use super::tags::deterministic_tags;
use super::written::{AstDoc, GroupedReferences, StoredAst, Symbol};
use crate::scanner::{ScannedFile, SourceInfo};

/// Enrichment from the LLM, when there is any.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Enrichment {
    pub description: String,
    pub tags: Vec<String>,
}

/// Whether a scanned file gets documents at all (symlinks, special and
/// unreadable files do not).
pub fn indexable(file: &ScannedFile) -> bool {
    use crate::scanner::SkipReason::*;
    !matches!(file.skipped, Some(Symlink | Special | Unreadable | WalkError)) && !file.hash.is_empty()
}

/// The AST document: AST, metadata and tags.
pub fn ast_doc<'a>(source: &'a SourceInfo, file: &'a ScannedFile, enrichment: Option<&'a Enrichment>) -> AstDoc<'a> {
    let ast = file.ast.as_ref();
    let knowledge = ast
        .and_then(|a| a.frontmatter.as_ref())
        .and_then(|f| f.get("knowledge"))
        .is_some_and(|v| v.eq_ignore_ascii_case("true") || v == "yes");
    let mut tags = deterministic_tags(&file.rel_path, ast);
    let llm_tags: Vec<String> = enrichment.map(|e| e.tags.clone()).unwrap_or_default();
    for t in &llm_tags {
        let t = t.trim().to_lowercase();
        if !t.is_empty() && !tags.contains(&t) {
            tags.push(t);
        }
    }
    let about = spaced_words(&file_about(&file.rel_path, ast, enrichment)).into_owned();
    let extension = std::path::Path::new(&file.rel_path).extension().map(|e| e.to_string_lossy().to_lowercase());
    // The files `search_documentation` looks at (its filter: the language or the extension).
    let markdown = &vibe_common::files::languages::MARKDOWN;
    let documentation =
        file.language == Some(markdown.name) || extension.as_deref().is_some_and(|e| markdown.extensions.contains(&e));
    AstDoc {
        root: source.root.to_string_lossy(),
        project: &source.name,
        path: &file.rel_path,
        language: file.language,
        extension,
        lines: file.lines,
        size: file.size,
        mtime: file.mtime,
        hash: &file.hash,
        indexed_at: now_ms(),
        binary: file.binary,
        skipped: file.skipped.map(|s| s.as_str()),
        knowledge,
        ast_objects: ast.map_or(0, |a| a.object_count()),
        description: enrichment.map(|e| e.description.as_str()).filter(|d| !d.is_empty()),
        // Only `search_documentation` reads them, over Markdown files: on
        // code, three more analyses of every tag for no search (issue 33).
        doc_tags: documentation.then(|| tags.clone()),
        tags,
        llm_tags,
        symbols: ast.map(|a| symbols(a, &file.bodies, file.content.as_deref())).unwrap_or_default(),
        // What the file is about and its words, for questions in words.
        about_zh: cjk_only(&about),
        about,
        words: file.words.as_deref(),
        // One entry per name, kind and `in`, with its lines (`find_references`).
        references: GroupedReferences(ast.map_or(&[][..], |a| &a.references)),
        // Without its references (so `get_file_ast` answers stay small).
        ast: ast.map(StoredAst),
    }
}

/// Lines of a definition kept in its `code`.
pub const CODE_LINES: usize = 12;
/// About the most bytes of a definition's `code`.
pub const CODE_BYTES: usize = 900;

/// Longest doc paragraph a definition's `about` holds, in characters.
const MAX_ABOUT_DOC_CHARS: usize = 600;
/// Longest header comment text in a file's `about`, in characters.
const MAX_FILE_ABOUT_CHARS: usize = 800;

/// What a file is about: its path, its header comments (a module docstring,
/// a class Javadoc at the top, licences left out) and, after enrichment, the
/// LLM description and tags. Searched with stemming (`vibe_about`).
fn file_about(path: &str, ast: Option<&AstData>, enrichment: Option<&Enrichment>) -> String {
    let mut parts = vec![path.to_string()];
    if let Some(ast) = ast {
        parts.push(summary::cut(&ast.header_comments.join(" "), MAX_FILE_ABOUT_CHARS));
    }
    if let Some(e) = enrichment {
        parts.push(e.description.clone());
        parts.push(e.tags.join(", "));
    }
    parts.retain(|p| !p.trim().is_empty());
    parts.join("\n")
}

/// What a definition is about: its name, its owner, the joined pairs of
/// their words ([`joined_pairs`]: `hexDump` also as `hexdump`, which the
/// analyzer would split) and its doc's first paragraph.
fn symbol_about(name: &str, owner: Option<&str>, paragraph: &str) -> String {
    let owner = owner.unwrap_or("");
    let pairs = [joined_pairs(name), joined_pairs(owner)].concat().join(" ");
    [name, owner, pairs.as_str(), paragraph].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join(" ")
}

/// `text` again for the CJK analyzer (`about_zh`, `symbols.about_zh`), when
/// it holds a CJK character: other text gets the same words, unstemmed,
/// from the CJK analyzer, which cost as much OpenSearch CPU as the rest of
/// `about` for no question it answers (issue 33).
fn cjk_only(text: &str) -> Option<String> {
    text.chars().any(vibe_common::text::identifier::is_cjk).then(|| text.to_string())
}

/// The search form of a file's code elements: one flat entry per element
/// with its bare name, kind, owner and supertypes, and `show`: what a search
/// answer shows of it ([`shown`]). `about` (name, owner and the doc's first
/// paragraph), `body` (the word bag of its own lines, `bodies`, computed by
/// the scanner) are what questions in words are ranked on; `about_zh`
/// repeats `about` for the CJK analyzer when it holds a CJK character
/// ([`cjk_only`]). `symbols` is indexed but not kept in `_source`,
/// so an entry holds nothing else: what only `show` needs (signature, doc,
/// lines, code) would be parsed and dropped (full texts stay in `ast`).
pub fn symbols<'a>(ast: &'a AstData, bodies: &'a [String], content: Option<&str>) -> Vec<Symbol<'a>> {
    let docs: Vec<String> = ast.elements().map(|e| summary::doc_summary(&e.comments)).collect();
    let lines: Option<Vec<&str>> = content.map(|text| text.lines().collect());
    let calls = super::delegates::FileCalls::new(ast);
    let reads = super::named_values::FileReads::new(ast);
    ast.elements()
        .zip(bodies.iter().map(String::as_str).chain(std::iter::repeat("")))
        .zip(&docs)
        .filter(|((e, _), _)| !e.name.is_empty())
        .map(|((e, body), doc)| {
            let paragraph = summary::doc_paragraph(&e.comments, MAX_ABOUT_DOC_CHARS);
            let about = spaced_words(&symbol_about(&e.name, e.owner.as_deref(), &paragraph)).into_owned();
            Symbol {
                name: &e.name,
                kind: e.kind,
                show: vibe_common::document::shown::encode_serialized(&shown(
                    e,
                    doc,
                    lines.as_deref(),
                    (&calls, &reads),
                )),
                owner: e.owner.as_deref(),
                supertypes: &e.supertypes,
                about_zh: cjk_only(&about),
                about,
                body: Some(body).filter(|b| !b.is_empty()),
            }
        })
        .collect()
}

/// What a search answer shows of a definition, kept as JSON in binary
/// doc values (`symbols.show`, [`vibe_common::document::shown`]): `{name, kind, owner?, lines?, signature,
/// doc?, code?, code_skip?, calls?}`, the signature cut to a budget, `doc`
/// the doc comment's first sentence, `code` the definition's first lines
/// ([`CODE_LINES`], [`CODE_BYTES`]) from the file's `content`, and `calls`
/// the file's functions a short function hands its work to, `reads` the
/// named values a function reads: what the best
/// match of a search shows, so that one call answers. Searches read it
/// without loading the file's `_source`.
fn shown<'a>(
    e: &'a vibe_common::document::ast::AstElement,
    doc: &'a str,
    lines: Option<&[&str]>,
    (calls, reads): (&super::delegates::FileCalls<'a>, &super::named_values::FileReads<'a>),
) -> Shown<'a> {
    let excerpt = e
        .line
        .zip(lines)
        .map(|(line, lines)| summary::lines_excerpt(lines, line.start, line.end, CODE_LINES, CODE_BYTES));
    let (code, skipped) = excerpt.map_or((None, None), |x| (Some(x.code).filter(|c| !c.is_empty()), x.skipped));
    Shown {
        name: Cow::Borrowed(&e.name),
        kind: e.kind,
        owner: e.owner.as_deref().map(Cow::Borrowed),
        lines: e.line.map(|l| if l.start == l.end { l.start.to_string() } else { format!("{}-{}", l.start, l.end) }),
        signature: summary::cut(&e.signature, summary::MAX_SIGNATURE_CHARS),
        doc: Some(doc).filter(|d| !d.is_empty()).map(Cow::Borrowed),
        code,
        code_skip: skipped.map(|(a, b)| format!("{a}-{b}")),
        calls: lines.map(|lines| calls.of(e, lines)).unwrap_or_default().into_iter().map(Cow::Borrowed).collect(),
        reads: reads.of(e).into_iter().map(Cow::Borrowed).collect(),
    }
}

/// When a document is written (epoch milliseconds): answers say how fresh they are.
fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// The content document: the full text, stored for `get_file_content`, and
/// its grams, which narrow `search_code_text`.
pub fn content_doc<'a>(source: &'a SourceInfo, file: &'a ScannedFile) -> ContentDoc<'a> {
    ContentDoc {
        root: source.root.to_string_lossy(),
        project: Cow::Borrowed(&source.name),
        path: Cow::Borrowed(&file.rel_path),
        language: file.language.map(Cow::Borrowed),
        hash: Cow::Borrowed(&file.hash),
        indexed_at: now_ms(),
        lines: file.lines,
        size: file.size,
        mtime: file.mtime,
        // Why `content` is empty: binary, too_large or invalid_utf8 (get_file_content says so).
        skipped: file.skipped.filter(|s| s.explains_empty_content()).map(|s| Cow::Borrowed(s.as_str())),
        content: file.content.as_deref().map(Cow::Borrowed),
        grams: file.grams.as_deref().map(Cow::Borrowed),
    }
}

/// Characters of a project summary taken from its README.
const README_SUMMARY_CHARS: usize = 300;

/// A short deterministic summary: the README's first prose paragraph, as
/// text (no Markdown marks, entities decoded, badges and headings left
/// out; an reStructuredText or plain README without its title underlines
/// and directives), at most [`README_SUMMARY_CHARS`] characters.
pub fn readme_summary(readme: &crate::scanner::Readme) -> String {
    let markdown = [".md", ".markdown"].iter().any(|e| readme.path.to_ascii_lowercase().ends_with(e));
    let text = if markdown { markdown_paragraph(&readme.content) } else { plain_paragraph(&readme.content) };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > README_SUMMARY_CHARS {
        text.chars().take(README_SUMMARY_CHARS).collect::<String>() + "…"
    } else {
        text
    }
}

/// The first paragraph of Markdown with words of its own (not only
/// badges, images or links), as text.
fn markdown_paragraph(markdown: &str) -> String {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let (mut text, mut own_words, mut in_paragraph, mut in_image, mut in_link) = (String::new(), false, false, 0, 0);
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Paragraph) => (text, own_words, in_paragraph) = (String::new(), false, true),
            Event::End(TagEnd::Paragraph) if own_words => return text,
            Event::End(TagEnd::Paragraph) => in_paragraph = false,
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image -= 1,
            Event::Start(Tag::Link { .. }) => in_link += 1,
            Event::End(TagEnd::Link) => in_link -= 1,
            Event::Text(t) | Event::Code(t) if in_paragraph && in_image == 0 => {
                own_words |= in_link == 0 && t.chars().any(char::is_alphanumeric);
                text.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak if in_paragraph => text.push(' '),
            _ => {}
        }
    }
    String::new()
}

/// The first paragraph of a README that is not Markdown: its lines up to a
/// blank one, without title adornments (`=====`), directives (`.. image::`)
/// and HTML.
fn plain_paragraph(text: &str) -> String {
    let adornment = |l: &str| {
        let mut chars = l.chars();
        let first = chars.next().filter(|c| c.is_ascii_punctuation());
        l.len() >= 3 && first.is_some_and(|f| chars.all(|c| c == f))
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut para: Vec<&str> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // A title is the line its adornment underlines.
        let title = lines.get(i + 1).is_some_and(|next| adornment(next));
        let markup = adornment(line) || line.starts_with("..") || line.starts_with(['<', ':']);
        if line.is_empty() || title || markup {
            if !para.is_empty() {
                break;
            }
            continue;
        }
        para.push(line);
    }
    para.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vibe_common::document::kinds::ReferenceKind;

    #[test]
    fn a_definitions_about_joins_the_words_of_its_names() {
        assert_eq!(
            symbol_about("hexDump", Some("SubType"), "Writes a hex dump."),
            "hexDump SubType hexdump subtype Writes a hex dump."
        );
        assert_eq!(symbol_about("dump", None, ""), "dump");
    }

    #[test]
    fn references_are_a_top_level_field_grouped_by_name_kind_and_in_and_not_in_the_stored_ast() {
        use vibe_common::document::ast::AstReference;
        let source = SourceInfo { name: "p".into(), root: "/p".into(), readme: None, license: None };
        let call = AstReference { name: "f".into(), kind: ReferenceKind::Call, line: 3, enclosing: Some("A.g".into()) };
        let import = AstReference { name: "os".into(), kind: ReferenceKind::Import, line: 1, enclosing: None };
        let again = AstReference { line: 5, ..call.clone() };
        let elsewhere = AstReference { line: 8, enclosing: Some("A.h".into()), ..call.clone() };
        let as_type = AstReference { kind: ReferenceKind::Type, line: 9, ..call.clone() };
        let references = vec![import, call, again, elsewhere, as_type];
        let file = ScannedFile {
            rel_path: "a.py".into(),
            hash: "h".into(),
            ast: Some(AstData { references, references_omitted: 2, ..Default::default() }),
            ..Default::default()
        };
        let doc = serde_json::to_value(ast_doc(&source, &file, None)).unwrap();
        assert_eq!(
            doc["references"],
            json!([
                { "name": "os", "kind": "import", "line": [1] },
                { "name": "f", "kind": "call", "line": [3, 5], "uses": 2, "in": "A.g" },
                { "name": "f", "kind": "call", "line": [8], "in": "A.h" },
                { "name": "f", "kind": "type", "line": [9], "in": "A.g" }
            ])
        );
        assert!(doc["ast"].get("references").is_none(), "{}", doc["ast"]);
        assert_eq!(doc["ast"]["references_omitted"], json!(2));
    }

    #[test]
    fn only_markdown_files_repeat_their_tags_for_the_documentation_analyzers() {
        let source = SourceInfo { name: "p".into(), root: "/p".into(), readme: None, license: None };
        let file = |path: &str| ScannedFile { rel_path: path.into(), hash: "h".into(), ..Default::default() };
        for (path, documentation) in [("docs/Guide.MD", true), ("notes.markdown", true), ("src/guide.py", false)] {
            let doc = serde_json::to_value(ast_doc(&source, &file(path), None)).unwrap();
            assert!(!doc["tags"].as_array().unwrap().is_empty(), "{doc}");
            match documentation {
                true => assert_eq!(doc["doc_tags"], doc["tags"], "{path}"),
                false => assert!(doc.get("doc_tags").is_none(), "{path}: {doc}"),
            }
        }
    }

    #[test]
    fn only_text_with_a_cjk_character_is_repeated_for_the_cjk_analyzer() {
        assert_eq!(cjk_only("parse Config file"), None);
        assert_eq!(cjk_only("разобрать конфигурацию"), None);
        for text in ["load 读取配置文件", "設定を読む", "설정 읽기"] {
            assert_eq!(cjk_only(text).as_deref(), Some(text), "{text}");
        }
    }

    fn readme(path: &str, content: &str) -> crate::scanner::Readme {
        crate::scanner::Readme { path: path.into(), content: content.into(), truncated: false }
    }

    #[test]
    fn summary_is_first_paragraph() {
        let md = "# Title\n\n![badge](x)\n\nA tool that does things.\nSecond line.\n\n## More\nignored";
        assert_eq!(readme_summary(&readme("README.md", md)), "A tool that does things. Second line.");
    }

    #[test]
    fn a_summary_is_text_without_markdown() {
        let md = "Title\n=====\n\n[![CI](https://ci/x.svg)](https://ci) [![docs](d.svg)](d)\n\n\
                  <p align=\"center\"><img src=\"logo.png\"></p>\n\n\
                  A **fast** `grep`&ensp;for [code](https://x), *really*.\n\nMore.";
        assert_eq!(readme_summary(&readme("README.md", md)), "A fast grep for code, really.");
    }

    #[test]
    fn a_summary_of_restructured_text_has_no_adornments() {
        let rst = "=======\nProject\n=======\n\n.. image:: https://badge/x.svg\n   :target: x\n\n\
                   Project parses things.\nQuickly.\n\nMore.";
        assert_eq!(readme_summary(&readme("README.rst", rst)), "Project parses things. Quickly.");
    }
}
