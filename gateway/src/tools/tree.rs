//! `show_tree`: the file tree of a project, of a directory in it (`path`),
//! or of every project, drawn as deep as the answer budget allows (or as
//! `depth` asks, when that fits): a directory not opened shows `… N files`.
//! With `symbols: true`, the ranked map of what is defined there instead
//! ([`super::map`]).

use super::answer::scope_index;
use super::glob::{glob_regexp, wider_glob};
use crate::answers::TreeAnswer;
use crate::budget::{escaped_len, RESERVE};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::{Hit, Response};
use crate::target::Scope;
use crate::template_params;
use crate::tool_error::ToolError;
use crate::tree_at_depth::{depth_of, dir_count, render_at, MAX_DEPTH};

/// Most paths fetched for one tree (the index's default result window).
const MAX_TREE_FILES: u32 = 10_000;
/// Most project roots counted.
const MAX_ROOTS: u32 = 1000;
/// The deepest `depth` honoured.
const MAX_ASKED_DEPTH: u32 = 64;

/// One project's part of the tree: its name, root and paths (relative to the directory shown).
struct Block {
    name: String,
    root: String,
    paths: Vec<String>,
    /// Files of the project under the directory, fetched or not.
    files: u64,
}

pub async fn tree(gw: &Gateway, args: &Args) -> Result<TreeAnswer, ToolError> {
    let mut scope = gw.resolve(args.target.as_deref()).await?;
    let mut dir = args.path.clone().unwrap_or_default();
    // An absolute path: a project root, or a directory in one.
    if dir.starts_with('/') {
        match gw.split_absolute(&dir).await? {
            Some((project, rel)) if scope.project().is_none() || scope.project() == Some(&project) => {
                scope = Scope::One(project);
                dir = rel;
            }
            Some(_) => {}
            // A project's root itself.
            None if args.target.is_none() => {
                if let Scope::One(p) = gw.resolve(Some(&dir)).await? {
                    (scope, dir) = (Scope::One(p), String::new());
                }
            }
            None => {}
        }
    }
    let mut dir = dir.trim_matches('/').to_string();
    if args.symbols {
        return ranked_map(gw, &scope, &dir).await;
    }
    let mut response = fetch(gw, &scope, &dir).await?;
    // `{"path": "samples"}`: a project's name, when it is no directory.
    if !dir.is_empty() && response.hits().is_empty() && args.target.is_none() && !dir.contains('/') && !is_glob(&dir) {
        if let Scope::One(p) = gw.resolve(Some(&dir)).await? {
            (scope, dir) = (Scope::One(p), String::new());
            response = fetch(gw, &scope, &dir).await?;
        }
    }
    let glob = is_glob(&dir);
    let base = if glob { "" } else { dir.as_str() };
    let blocks = blocks(&response, base);
    let fetched: usize = blocks.iter().map(|b| b.paths.len()).sum();
    let total = response.total().unwrap_or(fetched as u64);
    let all_paths: Vec<String> = blocks.iter().flat_map(|b| b.paths.iter().cloned()).collect();
    let mut answer = TreeAnswer {
        target: scope.project().map(|p| p.name.clone()),
        path: (!dir.is_empty()).then(|| dir.clone()),
        total_files: Some(total),
        total_dirs: Some(blocks.iter().map(|b| dir_count(&b.paths)).sum::<usize>() as u64),
        ..TreeAnswer::default()
    };
    let deepest = depth_of(&all_paths);
    let asked = args.depth.map(|d| d.min(MAX_ASKED_DEPTH) as usize);
    // The header as written so far, without its `truncated` to come.
    let header = escaped_len(&serde_json::to_string(&answer).unwrap_or_default()) - escaped_len(",\"truncated\":false");
    let room = gw.answer_budget().saturating_sub(header + RESERVE + 200);
    let (text, depth, shown) = draw(&blocks, base, asked.unwrap_or(MAX_DEPTH).min(deepest), room);
    answer.tree = Some(text);
    answer.depth = Some(depth as u64);
    let mut notes = Vec::new();
    if glob && total == 0 {
        notes.push(unmatched_glob(gw, &scope, &dir).await);
    }
    let cut_depth = depth < deepest;
    if cut_depth {
        notes.push(depth_note(depth, asked));
    }
    if shown < blocks.len() {
        notes.push(format!(
            "{} more projects left out to keep within the answer budget: show_projects lists them, target one",
            blocks.len() - shown
        ));
    }
    if total > fetched as u64 {
        notes
            .push(format!("the tree lists the first {fetched} of {total} files: pass target and path to see the rest"));
    }
    answer.truncated = cut_depth || shown < blocks.len() || total > fetched as u64;
    notes.extend(scope.note());
    answer.note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(answer)
}

/// What a tree cut at `depth` says, and why when a deeper one was asked for.
fn depth_note(depth: usize, asked: Option<usize>) -> String {
    let over = match asked {
        Some(a) if a > depth => format!(" (depth {} is over the answer budget)", depth + 1),
        _ => String::new(),
    };
    format!("directories below depth {depth} show `… N files`: pass path (a directory) to open one{over}")
}

/// The ranked map of `dir` ([`super::map`]), with the scope's note.
async fn ranked_map(gw: &Gateway, scope: &Scope, dir: &str) -> Result<TreeAnswer, ToolError> {
    let target = scope.project().map(|p| p.name.clone());
    let mut answer = super::map::map(gw, &scope_index(gw, scope), target, dir).await?;
    if let Some(note) = scope.note() {
        answer.note = Some(format!("{note}; {}", answer.note.unwrap_or_default()));
    }
    Ok(answer)
}

/// The files under `dir`, or matching it when it is a path glob
/// (`*.mustache` at any depth, as ripgrep's `-g` reads it).
async fn fetch(gw: &Gateway, scope: &Scope, dir: &str) -> Result<Response, ToolError> {
    let index = scope_index(gw, scope);
    let regexp = match is_glob(dir) {
        true => Some(glob_regexp(dir).map_err(|e| ToolError::Invalid(format!("invalid path glob {dir:?}: {e}")))?),
        false => None,
    };
    let prefix = (!dir.is_empty() && regexp.is_none()).then(|| format!("{dir}/"));
    let params = template_params::tree(MAX_TREE_FILES, prefix.as_deref(), regexp.as_deref(), MAX_ROOTS);
    Ok(gw.backend().run("show_tree", &index, params).await?)
}

/// Whether a `path` is a glob rather than a directory.
fn is_glob(path: &str) -> bool {
    path.starts_with('!') || path.contains(['*', '?', '[', '{'])
}

/// What an answer says of a glob that matched no file: the wider glob
/// that would (`**/x` for `*/x`), when it does.
async fn unmatched_glob(gw: &Gateway, scope: &Scope, glob: &str) -> String {
    let mut note = format!("the path glob `{glob}` matches no indexed file");
    if let Some(wider) = wider_glob(glob) {
        if fetch(gw, scope, &wider).await.is_ok_and(|r| r.total().unwrap_or(0) > 0) {
            note.push_str(&format!("; `{wider}` reaches deeper and matches files"));
        }
    }
    note
}

/// The hits grouped by project (the template sorts by project, then path),
/// paths made relative to `dir`; projects whose files were not fetched
/// (past the first [`MAX_TREE_FILES`]) come with their count only.
fn blocks(r: &Response, dir: &str) -> Vec<Block> {
    let field = |h: &Hit, f: &str| h.text(f).unwrap_or_default().to_string();
    let strip = if dir.is_empty() { 0 } else { dir.len() + 1 };
    let mut out: Vec<Block> = Vec::new();
    for h in r.hits() {
        let (name, root, path) = (field(h, "project"), field(h, "root"), field(h, "path"));
        let rel = path.get(strip..).unwrap_or_default().to_string();
        match out.last_mut() {
            Some(b) if b.root == root => b.paths.push(rel),
            _ => out.push(Block { name, root, paths: vec![rel], files: 0 }),
        }
    }
    for bucket in r.buckets("roots") {
        let (root, n) = (bucket.key.as_str(), bucket.doc_count);
        match out.iter_mut().find(|b| b.root == root) {
            Some(b) => b.files = n,
            None => out.push(Block {
                name: root.rsplit('/').next().unwrap_or(root).to_string(),
                root: root.to_string(),
                paths: Vec::new(),
                files: n,
            }),
        }
    }
    out
}

/// The blocks drawn at the deepest depth up to `max` whose text fits
/// `room` bytes; when even depth 0 does not, the first blocks that do.
/// Returns the text, the depth and how many blocks it shows.
fn draw(blocks: &[Block], dir: &str, max: usize, room: usize) -> (String, usize, usize) {
    let title = |b: &Block| if dir.is_empty() { b.name.clone() } else { format!("{}/{dir}", b.name) };
    let one = |b: &Block, depth: usize| {
        if b.paths.is_empty() && b.files > 0 {
            format!("{}\n`-- … {} files (not listed: pass target)", title(b), b.files)
        } else {
            render_at(&title(b), &b.paths, depth)
        }
    };
    for depth in (0..=max).rev() {
        let text = blocks.iter().map(|b| one(b, depth)).collect::<Vec<_>>().join("\n\n");
        if escaped_len(&text) <= room || depth == 0 {
            if escaped_len(&text) <= room {
                return (text, depth, blocks.len());
            }
            // Depth 0 and still too long: the first projects.
            let mut out = String::new();
            let mut shown = 0;
            for b in blocks {
                let t = one(b, 0);
                if escaped_len(&out) + escaped_len(&t) + 4 > room && shown > 0 {
                    break;
                }
                if shown > 0 {
                    out.push_str("\n\n");
                }
                out.push_str(&t);
                shown += 1;
            }
            return (out, 0, shown);
        }
    }
    (String::new(), 0, 0)
}
