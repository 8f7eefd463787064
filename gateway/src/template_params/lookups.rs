//! Params of the look-ups a code search makes for its best match
//! (`find_definitions`, `find_values`, `find_defaults`): no tool's template of their own.

use serde::Serialize;

use super::INNER_LIMIT_ALL;

/// Params of `find_definitions` (see [`definitions`]).
#[derive(Debug, Serialize)]
pub struct DefinitionsParams<'a> {
    pub path: &'a str,
    pub names: &'a [&'a str],
    pub limit: u32,
}

/// Params of `find_definitions`: the functions and methods named `names`
/// that the file at `path` defines, at most `limit` of them.
pub fn definitions<'a>(path: &'a str, names: &'a [&'a str], limit: u32) -> DefinitionsParams<'a> {
    DefinitionsParams { path, names, limit: limit.clamp(1, INNER_LIMIT_ALL) }
}

/// Params of `find_values` and `find_defaults` (see [`values`]).
#[derive(Debug, Serialize)]
pub struct ValuesParams<'a> {
    pub names: &'a [&'a str],
    pub path: &'a str,
    pub dir: &'a str,
    pub size: u32,
    pub limit: u32,
}

/// Params of `find_values`: the constants, variables and fields named
/// `names` in the project, the file at `path` first, then the files of its
/// directory; `size` files.
pub fn values<'a>(names: &'a [&'a str], path: &'a str, size: u32) -> ValuesParams<'a> {
    let dir = path.rfind('/').map_or("", |i| &path[..=i]);
    let size = size.clamp(1, INNER_LIMIT_ALL);
    ValuesParams { names, path, dir, size, limit: (names.len() as u32).clamp(1, INNER_LIMIT_ALL) }
}
