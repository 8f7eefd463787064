//! Removing what this config no longer lists: the projects its owner
//! identity wrote (a project other configs also own is kept for them, this
//! identity's ownership dropped), and generations no alias points at.
//!
//! A project another run is indexing now (its run lock,
//! [`vibe_common::backend::run_lock`], is held by a live run) is left alone: neither
//! removed nor cleared of generations no alias points at, as the one it is
//! writing is such a generation until it is published.
//!
//! The work is planned first ([`plan`]), so that `scan index --dry-run` and
//! `scan prune --dry-run` can list it, and `scan index` with no sources can
//! say what it removes before it does ([`apply`]).
//!
//! A project is never removed (nor released) when its record shows this
//! identity's id writing it from another host or config directory, or when
//! the id wrote it before sites were recorded: two config directories then
//! share one id (a `config.json5` copied with its `id` before the id moved to
//! `identity.json`), and the other one may still list it. The plan keeps it
//! and says why and how to resolve it; `scan prune --project ROOT` overrides
//! the check for one project.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use vibe_common::backend::naming::project_hash;
use vibe_common::backend::run_lock::{self, Holder};
use vibe_common::backend::search::{Search, SearchError};
use vibe_common::config::Site;

use super::store::{self, Layout, MetaInfo, Writer};

/// An index of a project without a meta document younger than this may be a
/// run of another config in progress: it is left alone.
const ORPHAN_GRACE: Duration = Duration::from_secs(3600);

/// Who runs the cleanup: an owner id and where it writes from. An empty id
/// is the behaviour before owners (every project not listed goes), for
/// one-config tools and tests.
#[derive(Debug, Clone, Default)]
pub struct Me<'a> {
    pub id: &'a str,
    pub site: Option<&'a Site>,
    /// Roots (canonical) whose site check is overridden (`scan prune --project`).
    pub override_sites: &'a [PathBuf],
}

/// A project this config no longer lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub hash: String,
    pub root: String,
}

/// A project kept although this identity wrote it: why, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub root: String,
    pub reason: String,
}

/// What the cleanup will do, and what the store holds for the listed projects.
#[derive(Debug, Default)]
pub struct Plan {
    /// Projects only this identity owns: removed.
    pub remove: Vec<Project>,
    /// Projects other configs also own: this identity's ownership dropped.
    pub release: Vec<(Project, Vec<String>, Vec<Writer>)>,
    /// Projects this identity owns but may not remove (see the module doc).
    pub refused: Vec<Refusal>,
    /// Data indices that belong to no project any more (no meta document,
    /// older than [`ORPHAN_GRACE`]) or to no alias of a listed project.
    pub indices: Vec<String>,
    /// Meta documents of the listed projects, by hash.
    pub meta: HashMap<String, MetaInfo>,
    pub layout: Layout,
}

impl Plan {
    /// Nothing to remove or release.
    pub fn is_empty(&self) -> bool {
        self.remove.is_empty() && self.release.is_empty() && self.indices.is_empty()
    }
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// Plan the cleanup for a config listing `configured`.
pub async fn plan(search: &Search, configured: &[PathBuf], me: &Me<'_>) -> Result<Plan, SearchError> {
    let keep: HashSet<String> = configured.iter().map(|p| project_hash(&canonical(p))).collect();
    let overridden: HashSet<String> = me.override_sites.iter().map(|p| project_hash(&canonical(p))).collect();
    let (metas, layout) = tokio::try_join!(store::meta_projects(search), Layout::read(search))?;
    // Read after the layout: a generation it lists was created under a lock
    // that this still shows, unless its run is gone.
    let hashes: Vec<String> = layout.indices.keys().chain(metas.keys()).cloned().collect();
    let busy = run_lock::live_holders(search, &hashes).await?;
    let mut plan = Plan { layout, ..Default::default() };
    let mut others: HashSet<String> = busy.keys().cloned().collect();
    for (hash, meta) in metas {
        if keep.contains(&hash) {
            plan.meta.insert(hash, meta);
            continue;
        }
        let project = Project { root: meta.root.clone().unwrap_or_else(|| hash.clone()), hash: hash.clone() };
        // Projects written before configs had ids have no owners: any config may remove them.
        let mine = me.id.is_empty() || meta.owners.is_empty() || meta.owners.iter().any(|o| o == me.id);
        if let Some(holder) = busy.get(&hash).filter(|_| mine) {
            plan.refused.push(Refusal { root: project.root, reason: being_indexed(holder) });
            continue;
        }
        if me.id.is_empty() {
            plan.remove.push(project);
            continue;
        }
        if !mine {
            others.insert(hash);
            continue;
        }
        if !overridden.contains(&hash) {
            if let Some(reason) = refusal(&meta, me, &project.root) {
                plan.refused.push(Refusal { root: project.root, reason });
                others.insert(hash);
                continue;
            }
        }
        let owners: Vec<String> = meta.owners.iter().filter(|o| *o != me.id).cloned().collect();
        if owners.is_empty() {
            plan.remove.push(project);
        } else {
            let writers = meta.writers.iter().filter(|w| w.id != me.id).cloned().collect();
            plan.release.push((project, owners, writers));
            others.insert(hash);
        }
    }
    // A removed project's indices go with it (not listed twice).
    let removed: HashSet<String> = plan.remove.iter().map(|p| p.hash.clone()).collect();
    for (hash, indices) in &plan.layout.indices {
        if others.contains(hash) || removed.contains(hash) {
            continue;
        }
        if !keep.contains(hash) {
            plan.indices.extend(indices.iter().filter(|i| store::older_than(i, ORPHAN_GRACE)).cloned());
        } else {
            let names = &search.names;
            let live = [plan.layout.target(&names.files_alias(hash)), plan.layout.target(&names.ast_alias(hash))];
            plan.indices.extend(indices.iter().filter(|i| !live.iter().flatten().any(|l| l == *i)).cloned());
        }
    }
    Ok(plan)
}

/// Why a project another run is indexing is kept.
fn being_indexed(holder: &Holder) -> String {
    format!("kept for now: another run is indexing it ({}); a later run removes it", holder.describe())
}

/// Why this identity may not remove a project it owns, if it may not.
fn refusal(meta: &MetaInfo, me: &Me<'_>, root: &str) -> Option<String> {
    let site = me.site?;
    if meta.owners.is_empty() {
        return None;
    }
    let mine: Vec<&Writer> = meta.writers.iter().filter(|w| w.id == me.id).collect();
    let prune = format!("vibe-analyzer --config-dir {} scan prune --project {root}", site.config_dir);
    if mine.is_empty() {
        return Some(format!(
            "kept: owner id {} wrote it before the writing host and config dir were recorded, so another \
             config dir holding a copy of this config's old `id` may still list it. If none does, remove it \
             with: {prune}",
            me.id
        ));
    }
    let elsewhere: Vec<String> = mine.iter().filter(|w| &w.site != site).map(|w| w.site.to_string()).collect();
    if elsewhere.is_empty() {
        return None;
    }
    Some(format!(
        "kept: owner id {id} also wrote it from {elsewhere}, not only from this config dir ({here}). Two \
         config dirs share one id (a config.json5 copied with its `id` before the id moved to identity.json), \
         and the other may still list it. If both are in use, give this one its own identity: delete \
         {dir}/identity.json and run scan index again. If the other is gone, remove it with: {prune}",
        id = me.id,
        elsewhere = elsewhere.join(", "),
        here = site,
        dir = site.config_dir,
    ))
}

/// Carry out a plan.
pub async fn apply(search: &Search, plan: &Plan) -> Result<(), SearchError> {
    for project in &plan.remove {
        store::remove_project(search, &project.hash).await?;
    }
    for (project, owners, writers) in &plan.release {
        store::set_owners(search, &project.hash, owners, writers).await?;
    }
    for index in &plan.indices {
        search.delete(&format!("/{index}")).await?;
    }
    Ok(())
}
