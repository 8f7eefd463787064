//! How a tool or argument name is spelled once normalized: namespaces
//! removed, camelCase split, lower case, `_` between words. Used by every
//! other part of the resolver; uses none.

/// Lower case, trimmed, with `-`, `.`, `/` and spaces turned into `_`.
pub fn canonical_form(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            '-' | '.' | ' ' | '/' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Namespace prefixes removed from a tool name (repeatedly, in any
/// combination). `tools` and `functions` only count as a prefix before `.`,
/// `/` or `:` (so the alias `functions_search` keeps its meaning); the others
/// before any separator or a camelCase boundary. When the name without its
/// prefixes is unknown, [`resolve_tool`](super::resolve_tool) also tries it with them
/// (`functions.search` is `functions_search` with a dot).
const NAMESPACE_PREFIXES: &[(&str, bool)] = &[
    ("tools", true),
    ("functions", true),
    ("vibe_analyzer", false),
    ("vibe-analyzer", false),
    ("vibeanalyzer", false),
    ("vibe", false),
    ("mcp", false),
    ("default_api", false),
];

/// The server part of `mcp__<server>__tool` (Claude Code's naming of every
/// server's tools), if the name has one.
pub(super) fn mcp_server(s: &str) -> Option<(&str, &str)> {
    let rest = s.get(..5).filter(|h| h.eq_ignore_ascii_case("mcp__")).map(|_| &s[5..])?;
    rest.split_once("__").filter(|(_, t)| t.chars().any(char::is_alphanumeric))
}

fn strip_namespace(mut s: &str) -> &str {
    if let Some((_, tool)) = mcp_server(s) {
        s = tool;
    }
    'outer: loop {
        for (prefix, dotted_only) in NAMESPACE_PREFIXES {
            let Some(head) = s.get(..prefix.len()) else { continue };
            if !head.eq_ignore_ascii_case(prefix) {
                continue;
            }
            let rest = &s[prefix.len()..];
            let next = rest.chars().next();
            let cut = match next {
                Some('.' | '/' | ':') => rest.trim_start_matches(['.', '/', ':', '_', '-', ' ']),
                Some('_' | '-' | ' ') if !dotted_only => rest.trim_start_matches(['_', '-', ' ', '.', ':', '/']),
                Some(c) if c.is_uppercase() && !dotted_only && head.ends_with(|h: char| h.is_ascii_lowercase()) => rest,
                _ => continue,
            };
            if cut.chars().any(char::is_alphanumeric) {
                s = cut;
                continue 'outer;
            }
        }
        return s;
    }
}

/// A tool (or argument) name in the form the alias table uses: namespace
/// prefixes removed, camelCase split (`getFileAST` → `get_file_ast`), lower
/// case, every run of other characters turned into one `_`, no `_` at either
/// end; quotes, backticks and a trailing `()` are dropped.
pub fn normalize_name(name: &str) -> String {
    snake(strip_namespace(unquote(name)))
}

/// [`normalize_name`] without removing namespace prefixes.
pub(super) fn normalize_keeping_namespace(name: &str) -> String {
    snake(unquote(name))
}

fn unquote(name: &str) -> &str {
    let s = name.trim().trim_matches(|c| matches!(c, '"' | '\'' | '`'));
    s.strip_suffix("()").unwrap_or(s).trim()
}

/// `snake_case` of a name as written in any case (`searchByCodeFunctions`,
/// `Search-Code-Text`): its identifier words joined by `_`, split as the
/// index splits identifiers ([`vibe_common::text::identifier::split_identifier`]).
pub(super) fn snake(s: &str) -> String {
    vibe_common::text::identifier::split_identifier(s).join("_")
}
