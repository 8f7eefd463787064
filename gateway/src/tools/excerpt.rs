//! The lines that answer: the best match of a code search carries its
//! definition's code, so that one call answers instead of a search and a
//! read. The index keeps each definition's first lines (`symbols.code`);
//! when the definition is longer than that, its lines are read from the
//! files index through the stored `get_file_content` template (one request,
//! for the best match only): the first [`NAME_LINES`] for a name, the
//! [`WINDOW_LINES`] where the question's words are densest for a question in
//! words.

use serde_json::{json, Value};
use vibe_common::naming::project_hash;

use super::answer::hits;
use crate::gateway::Gateway;
use crate::params;

/// Lines of a long definition shown for a name.
pub const NAME_LINES: u64 = 30;
/// Lines shown around a question's words in a long definition.
pub const WINDOW_LINES: u64 = 20;
/// Leading characters of a word that stand for its inflections.
const STEM_CHARS: usize = 5;

/// Gives the first match of the first result the lines that answer, when
/// its stored `code` is only the start of a longer definition. A file that
/// cannot be read (gone from the index) keeps the stored lines.
pub async fn complete(gw: &Gateway, answer: &mut Value, query: &str) {
    let Some(result) = answer["results"].get_mut(0) else { return };
    let (Some(root), Some(path)) = (result["project"].as_str(), result["path"].as_str()) else { return };
    let (root, path) = (root.to_string(), path.to_string());
    let Some(m) = result["matches"].get_mut(0) else { return };
    let Some((start, end)) = m["lines"].as_str().and_then(crate::render::span) else { return };
    let shown = m["code"].as_str().map_or(0, |c| c.lines().count() as u64);
    if shown == 0 || end - start < shown {
        return;
    }
    let index = gw.backend().names().files_alias(&project_hash(std::path::Path::new(&root)));
    let Some(content) = file_text(gw, &index, &path).await else { return };
    let lines: Vec<&str> = content.lines().collect();
    let (from, to) = if params::is_question(query) {
        densest(&lines, start, end, query)
    } else {
        (start, end.min(start + NAME_LINES - 1))
    };
    let text = vibe_common::summary::code_lines(&content, from as u32, to as u32, (to - from + 1) as usize, usize::MAX);
    m["code"] = json!(text);
    if from != start {
        m["code_lines"] = json!(format!("{from}-{to}"));
    }
}

/// Gives the element `get_file_ast` answers for `symbol` (the first of
/// its `matches`) its code: the first [`NAME_LINES`] of its lines.
pub async fn symbol_code(gw: &Gateway, answer: &mut Value) {
    let (Some(root), Some(path)) = (answer["root"].as_str(), answer["path"].as_str()) else { return };
    let index = gw.backend().names().files_alias(&project_hash(std::path::Path::new(root)));
    let path = path.to_string();
    let Some(m) = answer.get_mut("matches").and_then(|m| m.get_mut(0)) else { return };
    let Some((start, end)) = m["lines"].as_str().and_then(crate::render::span) else { return };
    let Some(content) = file_text(gw, &index, &path).await else { return };
    let to = end.min(start + NAME_LINES - 1);
    m["code"] =
        json!(vibe_common::summary::code_lines(&content, start as u32, to as u32, NAME_LINES as usize, usize::MAX));
}

/// Gives each use listed in the results (`references`, `calls`) the text
/// of its line, read from the files index (one `get_file_content` per
/// file, concurrently), so that a use needs no second read.
pub async fn use_lines(gw: &Gateway, answer: &mut Value) {
    let Some(results) = answer["results"].as_array_mut() else { return };
    let mut reads = tokio::task::JoinSet::new();
    for (i, r) in results.iter().enumerate() {
        let (Some(root), Some(path)) = (r["project"].as_str(), r["path"].as_str()) else { continue };
        let index = gw.backend().names().files_alias(&project_hash(std::path::Path::new(root)));
        let (gw, path) = (gw.clone(), path.to_string());
        reads.spawn(async move { (i, file_text(&gw, &index, &path).await) });
    }
    while let Some(Ok((i, Some(content)))) = reads.join_next().await {
        let lines: Vec<&str> = content.lines().collect();
        for list in ["references", "calls"] {
            let uses = results[i].get_mut(list).and_then(Value::as_array_mut);
            for u in uses.into_iter().flatten() {
                let text = u["line"].as_u64().and_then(|n| lines.get((n as usize).checked_sub(1)?));
                if let Some(text) = text {
                    u["text"] =
                        json!(vibe_common::summary::cut(text.trim(), vibe_common::summary::MAX_CODE_LINE_CHARS));
                }
            }
        }
    }
}

/// The content of the file at `path` in a files index, when it is there.
async fn file_text(gw: &Gateway, index: &str, path: &str) -> Option<String> {
    let response = gw.backend().run("get_file_content", index, params::file(path)).await.ok()?;
    hits(&response)
        .iter()
        .find(|h| h["_source"]["path"].as_str() == Some(path))
        .and_then(|h| h["_source"]["content"].as_str().map(str::to_string))
}

/// The [`WINDOW_LINES`] of `start..=end` holding most of the query's words
/// (the first such window; the definition's start when none holds any).
fn densest(lines: &[&str], start: u64, end: u64, query: &str) -> (u64, u64) {
    let stems: Vec<String> =
        params::analyze(query).words.iter().map(|w| w.word.chars().take(STEM_CHARS).collect()).collect();
    let hits_on = |n: u64| -> usize {
        let line = lines.get(n as usize - 1).map(|l| l.to_lowercase()).unwrap_or_default();
        stems.iter().filter(|s| line.contains(s.as_str())).count()
    };
    let per_line: Vec<usize> = (start..=end).map(hits_on).collect();
    let width = WINDOW_LINES.min(end - start + 1) as usize;
    let mut best = (0, 0usize);
    let mut sum: usize = per_line[..width].iter().sum();
    best.1 = sum;
    for i in 1..=per_line.len() - width {
        sum = sum + per_line[i + width - 1] - per_line[i - 1];
        if sum > best.1 {
            best = (i, sum);
        }
    }
    // A few lines of lead-in before the first line that holds a word.
    let first_hit = (best.0..best.0 + width).find(|i| per_line[*i] > 0).unwrap_or(best.0);
    let lead = first_hit.saturating_sub(LEAD_LINES).min(per_line.len() - width);
    let from = start + lead as u64;
    (from, from + width as u64 - 1)
}

/// Lines shown before the first line of a window that holds a word.
const LEAD_LINES: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_where_the_words_are() {
        let lines: Vec<String> =
            (1..=100).map(|n| if n == 70 { "delay = base * retries".into() } else { format!("x{n}") }).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(densest(&lines, 10, 90, "where is the retry delay computed"), (67, 86));
        assert_eq!(densest(&lines, 10, 90, "nothing here matches"), (10, 29));
        assert_eq!(densest(&lines, 10, 15, "retry delay"), (10, 15));
    }
}
