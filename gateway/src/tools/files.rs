//! `get_file_content` and `get_file_ast`: one file, by exact, partial or
//! absolute path. Reads only from the index, so nothing outside the indexed
//! projects can be read.

use serde_json::{json, Value};

use super::answer::hits;
use crate::error::ToolError;
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::params;
use crate::target::{Project, Scope};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Want {
    Content,
    Ast,
}

pub async fn get(gw: &Gateway, want: Want, args: &Args) -> Result<Value, ToolError> {
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
    if hits(&response).is_empty() && !split_done && !path.starts_with('/') {
        if let Some((project, rel)) = split_in_scope(gw, &scope, &path).await? {
            (scope, path) = (Scope::One(project), rel);
            response = lookup(gw, want, &scope, &path).await?;
        }
    }
    let path = path.trim_start_matches('/').to_string();
    let found = hits(&response);
    let Some(best) = found.first() else {
        return Ok(not_found(want, &requested));
    };
    let level = |h: &Value| match_level(h["_source"]["path"].as_str().unwrap_or_default(), &path);
    if let Some(second) = found.get(1) {
        if level(second) == level(best) {
            let total = response["hits"]["total"]["value"].as_u64().unwrap_or(2);
            let candidates: Vec<String> = found
                .iter()
                .map(|h| {
                    format!(
                        "{} ({})",
                        h["_source"]["path"].as_str().unwrap_or_default(),
                        h["_source"]["project"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            return Err(ToolError::Ambiguous(format!(
                "path {requested:?} matches {total} files, e.g. {}; pass a longer path or a target project",
                candidates.join(", ")
            )));
        }
    }
    let s = &best["_source"];
    let mut answer = match want {
        Want::Content => content_answer(s, args)?,
        Want::Ast => json!({
            "root": s["root"],
            "path": s["path"],
            "language": s["language"],
            "ast": if s["ast"].is_object() { s["ast"].clone() } else { json!({}) },
        }),
    };
    if let Some(o) = answer.as_object_mut() {
        // A file answer says `stale: false` too, when the disk can tell.
        if super::freshness::add(o, s) == Some(false) {
            o.insert("stale".into(), json!(false));
        }
    }
    Ok(answer)
}

/// The project a path names and the path in it, when that project is in scope.
async fn split_in_scope(gw: &Gateway, scope: &Scope, path: &str) -> Result<Option<(Project, String)>, ToolError> {
    let split = gw.split_absolute(path).await?;
    Ok(split.filter(|(project, _)| scope.project().is_none() || scope.project() == Some(project)))
}

/// One file lookup through the stored template of what is wanted.
async fn lookup(gw: &Gateway, want: Want, scope: &Scope, path: &str) -> Result<Value, ToolError> {
    let names = gw.backend().names();
    let (template, index) = match (want, scope.project()) {
        (Want::Content, Some(p)) => ("get_file_content", names.files_alias(&p.hash)),
        (Want::Content, None) => ("get_file_content", all_files(gw)),
        (Want::Ast, Some(p)) => ("get_file_ast", names.analysis_alias(&p.hash)),
        (Want::Ast, None) => ("get_file_ast", names.all_analysis()),
    };
    Ok(gw.backend().run(template, &index, params::file(path.trim_start_matches('/'))).await?)
}

/// Every project's files alias (the analysis aliases share the prefix).
fn all_files(gw: &Gateway) -> String {
    let n = gw.backend().names();
    format!("{p}_files_*,-{p}_files_analysis_*", p = n.prefix)
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

fn not_found(want: Want, requested: &str) -> Value {
    let message = format!("no indexed file matches {requested:?}");
    match want {
        Want::Content => {
            json!({ "root": null, "path": requested, "language": null, "content": "", "message": message })
        }
        Want::Ast => json!({ "root": null, "path": requested, "language": null, "ast": {}, "message": message }),
    }
}

/// The content answer, or an error for a line range that cannot be served.
/// An empty file says why it is empty (binary, over the size limit, not
/// UTF-8); a range reaching past the end says where the file ends.
fn content_answer(s: &Value, args: &Args) -> Result<Value, ToolError> {
    let content = s["content"].as_str().unwrap_or_default();
    let mut answer = json!({ "root": s["root"], "path": s["path"], "language": s["language"] });
    if content.is_empty() {
        if let Some(why) = empty_reason(s) {
            answer["content"] = json!("");
            answer["message"] = json!(why);
            return Ok(answer);
        }
    }
    if let (Some(start), Some(end)) = (args.start_line, args.end_line) {
        if start > end {
            return Err(ToolError::Invalid(format!(
                "start_line {start} is after end_line {end}: pass start_line <= end_line"
            )));
        }
    }
    if args.start_line.is_none() && args.end_line.is_none() {
        answer["content"] = json!(content);
        return Ok(answer);
    }
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let total = lines.len() as u64;
    let start = args.start_line.unwrap_or(1).max(1);
    if start > total {
        return Err(ToolError::Invalid(format!(
            "start_line {start} is past the end of {}: it has {total} lines",
            s["path"].as_str().unwrap_or_default()
        )));
    }
    let end = args.end_line.unwrap_or(total).min(total);
    answer["content"] = json!(lines[(start - 1) as usize..end as usize].concat());
    answer["start_line"] = json!(start);
    answer["end_line"] = json!(end);
    answer["total_lines"] = json!(total);
    if args.end_line.is_some_and(|e| e > total) {
        answer["message"] = json!(format!("the file ends at line {total}"));
    }
    Ok(answer)
}

/// Why a file's content is not in the index, from what the indexer recorded.
fn empty_reason(s: &Value) -> Option<String> {
    let size = s["size"].as_u64().map(vibe_common::units::human_size).unwrap_or_else(|| "?".into());
    match s["skipped"].as_str()? {
        "binary" => Some(format!("binary file ({size}): its content is not indexed")),
        "too_large" => {
            Some(format!("file too large ({size}, over the indexer's size limit): its content is not indexed"))
        }
        "invalid_utf8" => Some(format!("not valid UTF-8 text ({size}): its content is not indexed")),
        other => Some(format!("content not indexed ({other})")),
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

    #[test]
    fn line_slices() {
        let s = json!({ "root": "/r", "path": "a.txt", "language": null, "content": "1\n2\n3\n4\n" });
        let a = |start, end| content_answer(&s, &Args { start_line: start, end_line: end, ..Args::default() });
        assert_eq!(a(Some(2), Some(3)).unwrap()["content"], "2\n3\n");
        assert_eq!(a(Some(3), None).unwrap()["content"], "3\n4\n");
        assert_eq!(a(None, Some(1)).unwrap()["content"], "1\n");
        assert_eq!(a(None, None).unwrap()["content"], "1\n2\n3\n4\n");
        // Out of range and inverted ranges say so.
        let past = a(Some(2), Some(99)).unwrap();
        assert_eq!((past["end_line"].clone(), past["message"].clone()), (json!(4), json!("the file ends at line 4")));
        let err = a(Some(9), None).unwrap_err().to_string();
        assert!(err.contains("past the end") && err.contains("4 lines"), "{err}");
        let err = a(Some(3), Some(2)).unwrap_err().to_string();
        assert!(err.contains("start_line 3 is after end_line 2"), "{err}");
    }

    #[test]
    fn empty_content_says_why() {
        for (skipped, words) in
            [("binary", "binary file"), ("too_large", "too large"), ("invalid_utf8", "not valid UTF-8")]
        {
            let s = json!({ "path": "x", "content": "", "size": 2048, "skipped": skipped });
            let a = content_answer(&s, &Args::default()).unwrap();
            let message = a["message"].as_str().unwrap();
            assert!(message.contains(words) && message.contains("2.00 KB"), "{message}");
        }
        // An empty text file is just empty.
        let a = content_answer(&json!({ "path": "x", "content": "" }), &Args::default()).unwrap();
        assert_eq!((a["content"].clone(), a.get("message")), (json!(""), None));
    }
}
