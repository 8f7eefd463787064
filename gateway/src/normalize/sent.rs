//! The keys a call sent and the argument (role) each fills: its canonical
//! name first, then an alias of [`ARG_ALIASES`] (earlier rows first), then
//! what its words name ([`key_role`]).

use super::keys::{is_reference_kind, key_role, named_role, Naming, ARG_ALIASES};
use super::raw_args::{ArgValue, RawArgs};
use super::spelling::normalize_name;
use crate::registry::{Param, ToolSpec};

/// Rank of a canonical key: it wins over every other key of its role.
const CANONICAL_RANK: usize = 0;
/// Rank of the `n`-th row of [`ARG_ALIASES`]: after the canonical name, earlier rows first.
const fn alias_rank(n: usize) -> usize {
    CANONICAL_RANK + 1 + n
}
/// Rank of the `i`-th key sent, placed by its words: after every alias.
const fn word_rank(i: usize) -> usize {
    alias_rank(ARG_ALIASES.len()) + i
}
/// Rank of a key its value moved to another role (an absolute directory
/// sent as a search's `path` is its `target`): after every key that names
/// that role itself, in the order of its first rank.
const fn moved_rank(rank: usize) -> usize {
    usize::MAX / 2 + rank
}

/// Whether a tool (any tool when unknown) takes a parameter.
pub(super) fn takes(tool: Option<&ToolSpec>, param: &str) -> bool {
    tool.is_none_or(|t| t.takes(param))
}

/// Whether a tool's `path` is a glob (a search's).
pub(super) fn takes_glob(tool: Option<&ToolSpec>) -> bool {
    tool.is_some_and(|t| t.params.contains(&Param::PathGlob))
}

/// The keys sent, and the best-ranked value of each role.
pub(super) struct Sent<'a> {
    /// Non-null keys, normalized.
    pub(super) keyed: Vec<(String, &'a ArgValue)>,
    /// `(role, rank, value)`: the lower rank wins.
    pub(super) roles: Vec<(&'static str, usize, &'a ArgValue)>,
    /// String values of keys that fill no role.
    pub(super) leftover: Vec<&'a ArgValue>,
}

impl<'a> Sent<'a> {
    pub(super) fn read(raw: &'a RawArgs, tool: Option<&ToolSpec>) -> Sent<'a> {
        let keyed: Vec<(String, &ArgValue)> =
            raw.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (normalize_name(k), v)).collect();
        let mut roles: Vec<(&'static str, usize, &ArgValue)> = Vec::new();
        let mut leftover: Vec<&ArgValue> = Vec::new();
        for (i, (key, value)) in keyed.iter().enumerate() {
            match role_of(key, i, value, tool) {
                Some((role, rank)) => match roles.iter_mut().find(|(r, _, _)| *r == role) {
                    Some(slot) if slot.1 > rank => *slot = (role, rank, value),
                    Some(_) => {}
                    None => roles.push((role, rank, value)),
                },
                None if value.as_str().is_some() => leftover.push(value),
                None => {}
            }
        }
        Sent { keyed, roles, leftover }
    }

    pub(super) fn get(&self, role: &str) -> Option<&'a ArgValue> {
        self.roles.iter().find(|(r, _, _)| *r == role).map(|(_, _, v)| *v)
    }
}

/// The role and rank of the `i`-th key sent: its canonical name, an alias,
/// or what its words name.
fn role_of(key: &str, i: usize, value: &ArgValue, tool: Option<&ToolSpec>) -> Option<(&'static str, usize)> {
    let role = named_role(key).map(|(role, naming)| match naming {
        Naming::Canonical => (role, CANONICAL_RANK),
        Naming::Alias(n) => (role, alias_rank(n)),
    });
    // `{"type": "import"}` to a tool that takes a reference kind is that kind.
    let kind_key = tool.is_some_and(|t| t.takes("kind"))
        && key.split('_').any(|w| matches!(w, "kind" | "type"))
        && value.as_str().is_some_and(is_reference_kind);
    let role = role.or_else(|| kind_key.then_some(("kind", word_rank(i))));
    let role = role.or_else(|| key_role(key).map(|r| (r, word_rank(i))));
    // A search's path is a glob: an absolute directory sent there is its project.
    match role {
        Some(("path", rank)) if takes_glob(tool) && value.as_str().is_some_and(|v| v.trim_start().starts_with('/')) => {
            Some(("target", moved_rank(rank)))
        }
        other => other,
    }
}
