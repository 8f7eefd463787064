//! Renames aliases whose names changed between releases, in place and
//! atomically, when templates are installed (by `scan index` and by the
//! gateway at start), so that an upgraded binary finds a cluster indexed by
//! an older one without re-indexing.
//!
//! Releases up to template version 11 named a project's AST alias
//! `<p>_files_analysis_<hash>`, which started with the files alias's prefix
//! `<p>_files_`: every wildcard over all projects' files had to exclude it.
//! It is now `<p>_ast_<hash>` ([`IndexNames::ast_alias`]).

use serde_json::{json, Value};

use crate::naming::IndexNames;
use crate::search::{Search, SearchError};

/// One alias moved to its new name, on the same physical index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamedAlias {
    pub index: String,
    pub from: String,
    pub to: String,
}

/// The renames an `_alias` listing of the physical indices calls for.
fn planned_renames(names: &IndexNames, listing: &Value) -> Vec<RenamedAlias> {
    let legacy = names.legacy_ast_alias_prefix();
    let mut renames = Vec::new();
    for (index, entry) in listing.as_object().into_iter().flatten() {
        for alias in entry["aliases"].as_object().into_iter().flatten().map(|(a, _)| a) {
            if let Some(hash) = alias.strip_prefix(&legacy) {
                renames.push(RenamedAlias { index: index.clone(), from: alias.clone(), to: names.ast_alias(hash) });
            }
        }
    }
    renames
}

/// Moves every legacy alias of this prefix to its new name in one `_aliases`
/// call (add the new name, remove the old one), and returns what moved.
/// Nothing to do costs one listing request.
pub async fn rename_legacy_aliases(search: &Search) -> Result<Vec<RenamedAlias>, SearchError> {
    let names = &search.names;
    let listing = search.get(&format!("/{}/_alias?expand_wildcards=all", names.all_data())).await?;
    let renames = planned_renames(names, &listing);
    if renames.is_empty() {
        return Ok(renames);
    }
    let actions: Vec<Value> = renames
        .iter()
        .flat_map(|r| {
            [
                json!({ "add": { "index": r.index, "alias": r.to } }),
                // Another process may have moved it already.
                json!({ "remove": { "index": r.index, "alias": r.from, "must_exist": false } }),
            ]
        })
        .collect();
    search.post("/_aliases", &json!({ "actions": actions })).await?;
    Ok(renames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_legacy_aliases_of_this_prefix_are_renamed() {
        let names = IndexNames::new("t1");
        let listing = json!({
            "t1_data_analysis_ab_g1": { "aliases": { "t1_files_analysis_ab": {} } },
            "t1_data_files_ab_g1": { "aliases": { "t1_files_ab": {} } },
            "t1_data_analysis_cd_g2": { "aliases": { "t1_ast_cd": {} } },
            "t2_data_analysis_ef_g1": { "aliases": { "t2_files_analysis_ef": {} } },
        });
        let renames = planned_renames(&names, &listing);
        assert_eq!(
            renames,
            vec![RenamedAlias {
                index: "t1_data_analysis_ab_g1".into(),
                from: "t1_files_analysis_ab".into(),
                to: "t1_ast_ab".into()
            }]
        );
    }
}
