//! Normalization of what a client sends, in one place: tool names and tool
//! arguments. Small models mangle both; everything recoverable is recovered
//! here, before dispatch, so the tools themselves see clean [`Args`].
//!
//! * [`resolve`] maps a requested tool name to a canonical one: the name is
//!   normalized ([`normalize_name`]: case, camelCase, separators, client
//!   namespaces such as `mcp__server__`, `functions.`, `tools.`), then looked
//!   up among the tools and in the alias table `gateway/data/tool_aliases.tsv`
//!   (with singular/plural forms and verb swaps), and finally resolved by
//!   meaning ([`meaning`]: words → synonyms → concepts → the best-scoring tool
//!   of the registry). A name containing a destructive word (`delete`, `drop`,
//!   `run`, `exec`, `shell`, …) never resolves; two tools that fit a name
//!   equally well are reported, not guessed. Nothing is resolved by spelling
//!   similarity: the closest name ([`suggest_tool`]) is only offered in the
//!   error.
//! * [`Args::for_tool`] reads a call's [`RawArgs`] leniently, by the same
//!   word-and-synonym approach: canonical names, argument-name aliases
//!   ([`ARG_ALIASES`]), then the words of the key (`symbol_name` → `query`,
//!   `file_uri` → `path`, `repoName` → `target`, `maxResults` → `limit`);
//!   a lone unknown string argument becomes the query; numbers sent as
//!   strings, `"all"` limits, `null`s, `file://` URIs and arguments wrapped
//!   once more (`{"arguments": {...}}`) are read too.

mod args;
mod keys;
pub mod meaning;
mod names;
mod raw_args;
mod sent;
mod spelling;
mod values;

pub use args::*;
pub use keys::{key_role, shape, Shape, ARG_ALIASES};
pub use meaning::Meaning;
pub use names::*;
pub use raw_args::{ArgValue, RawArgs};
pub use spelling::{canonical_form, normalize_name};
pub use values::{limit_of, normalize_path};
// The limits the tool schemas announce, and the tool names, are the registry's.
pub use crate::registry::{DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, TOOL_NAMES};

/// The shape of raw arguments (see [`Shape`]).
pub fn args_shape(raw: Option<&RawArgs>) -> Shape {
    raw.map(shape).unwrap_or(Shape::Other)
}
