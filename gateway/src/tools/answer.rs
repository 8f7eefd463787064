//! What every search tool's answer is made of: the index a scope searches,
//! the hits of a response, and a page of results. Uses no tool.

use vibe_common::document::shown::Shown;

use crate::answers::{IndexedFile, Page};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::{Hit, Response};
use crate::target::Scope;

/// The index expression a scope searches (AST documents).
pub fn scope_index(gw: &Gateway, scope: &Scope) -> String {
    let names = gw.backend().names();
    match scope.project() {
        Some(p) => names.ast_alias(&p.hash),
        None => names.all_ast(),
    }
}

/// A search answer: the results of one page, how many there are in all
/// (`total`), and whether more follow (`truncated`, with the `next_offset`).
pub fn paged<R, X: Default>(query: &str, results: Vec<R>, response: &Response, args: &Args) -> Page<R, X> {
    let total = response.total().unwrap_or(results.len() as u64);
    let end = args.offset as u64 + results.len() as u64;
    Page {
        query: query.to_string(),
        total,
        truncated: total > end,
        next_offset: (total > end).then_some(end),
        note: None,
        results,
        more: X::default(),
    }
}

/// What the index recorded of a hit's file ([`Hit::read`]); nothing but
/// the defaults when it does not read as one.
pub fn indexed_file(hit: &Hit) -> IndexedFile {
    hit.read().unwrap_or_default()
}

/// Where the text of the file `path` of the project at `root` is stored.
pub fn stored_file(gw: &Gateway, root: &str, path: &str) -> (String, String) {
    let index =
        gw.backend().names().files_alias(&vibe_common::backend::naming::project_hash(std::path::Path::new(root)));
    (index, path.to_string())
}

/// What an inner hit shows of its definition: `symbols.show`, read from
/// doc values ([`vibe_common::document::shown`]); `None` when it is
/// missing or unreadable.
pub(crate) fn shown(inner: &Hit) -> Option<Shown<'static>> {
    vibe_common::document::shown::read(inner.values("symbols.show").first()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_hit_reads_its_source_and_its_doc_values_alike() {
        let hit: Hit = serde_json::from_value(json!({ "_source": { "path": "a.py", "language": "python" },
            "fields": { "root": ["/p"], "indexed_at": ["1700000000000"], "size": [40], "mtime": ["x"] } }))
        .unwrap();
        let file = indexed_file(&hit);
        assert_eq!(
            (file.path.as_str(), file.root.as_deref(), file.language.as_deref()),
            ("a.py", Some("/p"), Some("python"))
        );
        assert_eq!((file.indexed_at, file.size, file.hash), (Some(1_700_000_000_000), Some(40), None));
        // A field of another shape reads as missing, not as a file without a path.
        assert_eq!((file.mtime, indexed_file(&Hit::default()).path.as_str()), (None, ""));
    }
}
