//! `get_file_content` and `get_file_ast`: one file, by exact, partial or
//! absolute path. Reads only from the index, so nothing outside the indexed
//! projects can be read.

use serde_json::{json, Value};

use super::hits;
use super::ToolError;
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::params;
use crate::target::Scope;

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
    // An absolute path under a project root names the project too.
    let mut path = requested.clone();
    let mut scope = gw.resolve(args.target.as_deref()).await?;
    if let Some((project, rel)) = gw.split_absolute(&path).await? {
        if scope.project().is_none() || scope.project() == Some(&project) {
            scope = Scope::One(project);
            path = rel;
        }
    }
    let path = path.trim_start_matches('/').to_string();
    let (template, index) = match (want, scope.project()) {
        (Want::Content, Some(p)) => ("get_file_content", gw.backend().names().files_alias(&p.hash)),
        (Want::Content, None) => ("get_file_content", all_files(gw)),
        (Want::Ast, Some(p)) => ("get_file_ast", gw.backend().names().analysis_alias(&p.hash)),
        (Want::Ast, None) => ("get_file_ast", gw.backend().names().all_analysis()),
    };
    let response = gw.backend().run(template, &index, params::file(&path)).await?;
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
    Ok(match want {
        Want::Content => content_answer(s, args),
        Want::Ast => json!({
            "root": s["root"],
            "path": s["path"],
            "language": s["language"],
            "ast": if s["ast"].is_object() { s["ast"].clone() } else { json!({}) },
        }),
    })
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

fn content_answer(s: &Value, args: &Args) -> Value {
    let content = s["content"].as_str().unwrap_or_default();
    let mut answer = json!({ "root": s["root"], "path": s["path"], "language": s["language"] });
    if args.start_line.is_none() && args.end_line.is_none() {
        answer["content"] = json!(content);
        return answer;
    }
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let total = lines.len() as u64;
    let start = args.start_line.unwrap_or(1).max(1);
    let end = args.end_line.unwrap_or(total).min(total);
    let slice =
        if start <= end && start <= total { lines[(start - 1) as usize..end as usize].concat() } else { String::new() };
    answer["content"] = json!(slice);
    answer["start_line"] = json!(start);
    answer["end_line"] = json!(end.max(start.saturating_sub(1)));
    answer["total_lines"] = json!(total);
    answer
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
        assert_eq!(a(Some(2), Some(3))["content"], "2\n3\n");
        assert_eq!(a(Some(3), None)["content"], "3\n4\n");
        assert_eq!(a(None, Some(1))["content"], "1\n");
        assert_eq!(a(Some(9), None)["content"], "");
        assert_eq!(a(Some(2), Some(99))["end_line"], 4);
        assert_eq!(a(None, None)["content"], "1\n2\n3\n4\n");
    }
}
