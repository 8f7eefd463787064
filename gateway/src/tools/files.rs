//! `get_file_content` and `get_file_ast`: one file, by exact, partial or
//! absolute path. Reads only from the index, so nothing outside the indexed
//! projects can be read.

use vibe_common::document::content_doc::ContentDoc;

use crate::answers::{Answer, FileAnswer, IndexedFile};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::{Hit, Response};
use crate::target::{Project, Scope};
use crate::template_params;
use crate::tool_error::ToolError;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Want {
    Content,
    Ast,
}

pub async fn get(gw: &Gateway, want: Want, args: &Args) -> Result<Answer, ToolError> {
    // A model that puts the file name in `query` (or sends the arguments as
    // one plain string) still means the path.
    let from_query = || Some(crate::normalize::normalize_path(&args.query)).filter(|p| !p.is_empty());
    let Some(requested) = args.path.clone().or_else(from_query) else {
        return Err(ToolError::Invalid(
            "`path` is required: a file path relative to the project, e.g. \"src/main.rs\"".into(),
        ));
    };
    // An absolute path under a project root names the project too; so does a
    // relative one that starts with the root's last directories (split only
    // when it names no indexed file as it is).
    let mut scope = gw.resolve(args.target.as_deref()).await?;
    let mut path = requested.clone();
    let mut split_done = false;
    if path.starts_with('/') {
        if let Some((project, rel)) = split_in_scope(gw, &scope, &path).await? {
            (scope, path, split_done) = (Scope::One(project), rel, true);
        }
    }
    let mut response = lookup(gw, want, &scope, &path).await?;
    if response.hits().is_empty() && !split_done && !path.starts_with('/') {
        if let Some((project, rel)) = split_in_scope(gw, &scope, &path).await? {
            (scope, path) = (Scope::One(project), rel);
            response = lookup(gw, want, &scope, &path).await?;
        }
    }
    let path = path.trim_start_matches('/').to_string();
    if let Some(ambiguous) = ambiguity(&response, &path, &requested) {
        // Of several files the path names, the one that defines the symbol.
        let symbol = args.symbol.as_deref().map(symbol_name).filter(|n| want == Want::Ast && !n.is_empty());
        let Some(name) = symbol else { return Err(ToolError::Ambiguous(ambiguous)) };
        response = lookup_with(gw, want, &scope, &path, Some(&name)).await?;
        if response.hits().is_empty() {
            return Err(ToolError::Ambiguous(ambiguous));
        }
        if let Some(still) = ambiguity(&response, &path, &requested) {
            return Err(ToolError::Ambiguous(format!("{still} (of those defining {name:?})")));
        }
    }
    let Some(best) = response.hits().first() else {
        return Err(ToolError::Failed(format!(
            "no indexed file matches {requested:?}; search_code_text (path: a glob) or show_tree finds a file's path"
        )));
    };
    let budget = gw.answer_budget();
    // A file answer says `stale: false` too, when the disk can tell.
    let fresh = |file: &IndexedFile| super::stale_marks::freshness(file, true);
    Ok(match want {
        Want::Content => {
            let doc = best
                .source_as::<ContentDoc>()
                .map_err(|e| ToolError::Failed(format!("the stored content of {path:?} cannot be read: {e}")))?;
            let file = IndexedFile::from(&doc);
            Answer::Content(FileAnswer {
                freshness: fresh(&file),
                ..super::content::answer(&doc, &file, args, budget)?
            })
        }
        Want::Ast => {
            let file = super::answer::indexed_file(best);
            let ast = best.source_as::<super::outline::AstSource>().unwrap_or_default().ast;
            let mut answer =
                FileAnswer { freshness: fresh(&file), ..super::outline::answer(&ast, &file, args, budget)? };
            if args.symbol.is_some() {
                super::excerpt::symbol_code(gw, &mut answer).await;
            }
            Answer::Outline(answer)
        }
    })
}

/// The project a path names and the path in it, when that project is in scope.
async fn split_in_scope(gw: &Gateway, scope: &Scope, path: &str) -> Result<Option<(Project, String)>, ToolError> {
    let split = gw.split_absolute(path).await?;
    Ok(split.filter(|(project, _)| scope.project().is_none() || scope.project() == Some(project)))
}

/// What is wrong with a lookup whose best two files match the path equally
/// well: a few of them named, and how to choose.
fn ambiguity(response: &Response, path: &str, requested: &str) -> Option<String> {
    let found = response.hits();
    let level = |h: &Hit| match_level(h.source_text("path").unwrap_or_default(), path);
    let (best, second) = (found.first()?, found.get(1)?);
    if level(second) != level(best) {
        return None;
    }
    let total = response.total().unwrap_or(2);
    let candidates: Vec<String> = found
        .iter()
        .map(|h| {
            let (path, project) = (h.source_text("path"), h.source_text("project"));
            format!("{} ({})", path.unwrap_or_default(), project.unwrap_or_default())
        })
        .collect();
    Some(format!(
        "path {requested:?} matches {total} files, e.g. {}; pass a longer path or a target project",
        candidates.join(", ")
    ))
}

/// The element name a `symbol` ends with (`Map.put`, `Map::put`, `Map#put`:
/// `put`), lowercased as `symbols.name.lower` holds it.
fn symbol_name(symbol: &str) -> String {
    let last = symbol.trim().rsplit(['.', ':', '#']).next().unwrap_or_default();
    last.to_lowercase()
}

/// One file lookup through the stored template of what is wanted: the
/// path as it is (or but for case), else as a suffix or substring.
async fn lookup(gw: &Gateway, want: Want, scope: &Scope, path: &str) -> Result<Response, ToolError> {
    lookup_with(gw, want, scope, path, None).await
}

/// [`lookup`] among the files that define an element named `symbol_name`
/// (`get_file_ast` only).
async fn lookup_with(
    gw: &Gateway,
    want: Want,
    scope: &Scope,
    path: &str,
    symbol_name: Option<&str>,
) -> Result<Response, ToolError> {
    let names = gw.backend().names();
    let (template, index) = match (want, scope.project()) {
        (Want::Content, Some(p)) => ("get_file_content", names.files_alias(&p.hash)),
        (Want::Content, None) => ("get_file_content", names.all_files()),
        (Want::Ast, Some(p)) => ("get_file_ast", names.ast_alias(&p.hash)),
        (Want::Ast, None) => ("get_file_ast", names.all_ast()),
    };
    let path = path.trim_start_matches('/');
    let exact = gw.backend().run(template, &index, template_params::file(path, false, symbol_name)).await?;
    if !exact.hits().is_empty() {
        return Ok(exact);
    }
    Ok(gw.backend().run(template, &index, template_params::file(path, true, symbol_name)).await?)
}

/// 3 exact, 2 exact but for case, 1 a path suffix, 0 a substring.
fn match_level(found: &str, wanted: &str) -> u8 {
    if found == wanted {
        3
    } else if found.eq_ignore_ascii_case(wanted) {
        2
    } else if found.to_lowercase().ends_with(&format!("/{}", wanted.to_lowercase())) {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(match_level("src/main.rs", "src/main.rs"), 3);
        assert_eq!(match_level("src/Main.rs", "src/main.rs"), 2);
        assert_eq!(match_level("a/src/main.rs", "src/main.rs"), 1);
        assert_eq!(match_level("src/domain.rs", "main.rs"), 0);
    }
}
