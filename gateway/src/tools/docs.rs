//! `search_documentation` (and its alias `search_knowledge`): Markdown files
//! ranked by headings, previews, links and tags, knowledge files boosted.
//! Each result answers with the part that matched: the document's title and
//! description (the rest of its frontmatter left out), the sections whose
//! heading or text holds the query's words with the passage that holds them
//! ([`super::passages`], read from the stored text), and a few other
//! headings as context.

use serde::Deserialize;

use vibe_common::document::ast::{AstData, AstHeading};

use super::answer::{paged, scope_index, stored_file};
use super::passages;
use super::sections::{sections, Section};
use crate::answers::{DocResult, DocSection, DocumentationAnswer, IndexedFile};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::Hit;
use crate::template_params;
use crate::tool_error::ToolError;

/// Matched sections reported per document.
pub const MAX_SECTIONS: usize = 2;
/// Other headings reported per document, as context.
pub const OTHER_HEADINGS: usize = 4;

pub async fn search(gw: &Gateway, args: &Args) -> Result<DocumentationAnswer, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let p = template_params::documentation(&args.query, args.limit, args.offset);
    let response = gw.backend().run("search_documentation", &index, p).await?;
    let terms = passages::terms(&args.query);
    let found = response.hits();
    let docs: Vec<DocumentSource> = found.iter().map(document).collect();
    let files: Vec<(String, String)> =
        docs.iter().map(|d| stored_file(gw, d.file.root.as_deref().unwrap_or_default(), &d.file.path)).collect();
    let texts = gw.backend().contents(&files).await?;
    let results = docs.into_iter().zip(&texts).map(|(d, text)| result(d, text.as_deref(), &terms)).collect();
    let mut answer: DocumentationAnswer = paged(&args.query, results, &response, args);
    answer.note = scope.note();
    Ok(answer)
}

/// What this reads of a document the template fetches: its file, and its
/// AST as the indexer's type (of which the template fetches the headings
/// and frontmatter alone).
#[derive(Deserialize, Default)]
#[serde(default)]
struct DocumentSource {
    #[serde(flatten)]
    file: IndexedFile,
    ast: AstData,
}

fn document(hit: &Hit) -> DocumentSource {
    hit.source_as().unwrap_or_else(|e| {
        tracing::warn!("a document's stored AST does not read as the indexer's type: {e}");
        DocumentSource::default()
    })
}

/// One document: its title and description, the sections that hold the
/// query's words with their passages, a few other headings, its freshness.
fn result(doc: DocumentSource, text: Option<&str>, terms: &[String]) -> DocResult {
    let all = match text {
        Some(t) if !t.is_empty() => sections(t),
        _ => doc.ast.headings.iter().map(from_heading).collect(),
    };
    let front = |key: &str| doc.ast.frontmatter.as_ref().and_then(|fm| fm.get(key));
    let title = front("title").cloned().or_else(|| all.iter().find(|x| x.level > 0).map(|x| x.title.clone()));
    // The best sections, reported in document order.
    let mut ranked: Vec<(usize, usize)> =
        all.iter().enumerate().map(|(i, x)| (passages::score(x, terms), i)).filter(|(sc, _)| *sc > 0).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = ranked.iter().take(MAX_SECTIONS).map(|(_, i)| *i).collect();
    if chosen.is_empty() {
        // Found by its tags, path or links: its opening.
        chosen.extend(all.iter().position(|x| !x.text.is_empty()));
    }
    chosen.sort_unstable();
    DocResult {
        title: title.filter(|t| !t.is_empty()).map(|t| crate::budget::shorten(&t, 200)),
        description: front("description").filter(|d| !d.is_empty()).map(|d| crate::budget::shorten(d, 300)),
        sections: chosen.iter().map(|i| section(&all[*i], terms)).collect(),
        more_sections: None,
        other_headings: all
            .iter()
            .enumerate()
            .filter(|(i, x)| x.level > 0 && !chosen.contains(i))
            .take(OTHER_HEADINGS)
            .map(|(_, x)| x.title.clone())
            .collect(),
        headings_total: all.iter().filter(|x| x.level > 0).count() as u64,
        freshness: super::stale_marks::freshness(&doc.file, false),
        project: doc.file.root.unwrap_or_default(),
        path: doc.file.path,
    }
}

/// A section: its heading (left out for a document's opening), lines and
/// the passage that holds the query's words.
fn section(x: &Section, terms: &[String]) -> DocSection {
    let passage = passages::passage(x, terms);
    DocSection {
        heading: (x.level > 0).then(|| x.title.clone()),
        lines: format!("{}-{}", x.start, x.end.max(x.start)),
        passage: (!passage.is_empty()).then_some(passage),
    }
}

/// A section from an indexed heading and its preview (a document whose
/// text is not stored).
fn from_heading(h: &AstHeading) -> Section {
    Section {
        level: h.level.clamp(1, 6),
        title: h.title.clone(),
        start: h.line.map_or(0, |l| l.start as usize),
        end: h.line.map_or(0, |l| l.end as usize),
        text: if h.preview.is_empty() { Vec::new() } else { vec![h.preview.clone()] },
    }
}
