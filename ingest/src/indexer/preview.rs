//! `scan index --dry-run`: what a run would do to each source, without
//! writing anything. It reads the index as a run does and hashes the files
//! on disk (nothing is parsed), then tells the files it would write (new,
//! or changed since indexed), those it would remove (gone from disk), and
//! whether it would build a new generation (first build, `--force`, a new
//! index format). It takes no lock.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::text::units::count;

use super::index_source::{plan_source, Stored};
use super::store::{self, Layout};
use super::{IndexError, IndexOptions};
use crate::scanner::{self, ScanOptions, ScanReport, SkipReason, SourceInfo};

/// What a run would do to one source.
#[derive(Debug, Default)]
pub struct Preview {
    pub name: String,
    /// Why the run would build a new generation, when it would.
    pub rebuild: Option<&'static str>,
    /// Files the run would write: not indexed yet, or changed since.
    pub new: u64,
    /// Changed on disk, or unchanged but without the description a run with
    /// enrichment would write ([`Preview::undescribed`] of them).
    pub changed: u64,
    pub undescribed: u64,
    pub unchanged: u64,
    /// Indexed files no longer on disk, which the run would remove.
    pub gone: u64,
    pub scan: ScanReport,
}

impl Preview {
    /// One line: `name: would write 3 files (new 1, changed 2) and remove
    /// 1 file no longer on disk; 725 unchanged`.
    pub fn line(&self) -> String {
        let write = self.new + self.changed;
        let mut line = match self.rebuild {
            Some(why) => {
                format!("{}: would build a new index ({why}) of {}", self.name, count(write as usize, "file", "files"))
            }
            None if write == 0 && self.gone == 0 => format!("{}: nothing to write", self.name),
            None => format!(
                "{}: would write {} (new {}, changed {}{})",
                self.name,
                count(write as usize, "file", "files"),
                self.new,
                self.changed - self.undescribed,
                if self.undescribed > 0 { format!(", to describe {}", self.undescribed) } else { String::new() }
            ),
        };
        if self.gone > 0 {
            line.push_str(&format!(" and remove {} no longer on disk", count(self.gone as usize, "file", "files")));
        }
        if self.unchanged > 0 {
            line.push_str(&format!("; {} unchanged", self.unchanged));
        }
        line
    }
}

/// The preview of each of `targets`, in order; a source that cannot be
/// read is its scan error.
pub async fn preview(
    search: &Search,
    targets: &[PathBuf],
    opts: &IndexOptions,
) -> Result<Vec<Result<Preview, scanner::ScanError>>, IndexError> {
    let layout = Layout::read(search).await?;
    let mut out = Vec::new();
    for root in targets {
        out.push(match SourceInfo::bare(None, root) {
            Ok(info) => Ok(preview_source(search, &layout, &info, opts).await?),
            Err(e) => Err(e),
        });
    }
    Ok(out)
}

async fn preview_source(
    search: &Search,
    layout: &Layout,
    info: &SourceInfo,
    opts: &IndexOptions,
) -> Result<Preview, IndexError> {
    let hash = project_hash(&info.root);
    let meta = store::meta_of(search, &hash).await?;
    let plan = plan_source(search, Stored { layout, meta: meta.as_ref() }, info, &hash, opts).await?;
    let rebuild = plan.rebuild.then_some(match () {
        _ if plan.upgraded.is_some() => "the index format changed",
        _ if opts.force => "--force",
        _ => "not indexed yet",
    });
    let (stored, stored_paths) = (Arc::new(plan.stored), plan.stored_paths);
    // The CLI's runtime has worker threads: hashing may block this one.
    let counted = tokio::task::block_in_place(|| count_files(&info.root, stored, &stored_paths));
    let (mut preview, scan) = counted.map_err(IndexError::Scan)?;
    preview.name = info.name.clone();
    preview.rebuild = rebuild;
    preview.undescribed = plan.redescribed as u64;
    preview.scan = scan;
    Ok(preview)
}

/// Hashes the files under `root` and counts them against what is stored.
fn count_files(
    root: &Path,
    stored: Arc<std::collections::HashMap<String, String>>,
    stored_paths: &HashSet<String>,
) -> Result<(Preview, ScanReport), scanner::ScanError> {
    let opts =
        ScanOptions { extract: false, skip: Some(super::index_source::unchanged_in(stored)), ..Default::default() };
    let mut preview = Preview::default();
    let mut seen: HashSet<String> = HashSet::new();
    let scan = scanner::scan(root, &opts, |f| {
        match f.skipped {
            Some(SkipReason::Unchanged) => preview.unchanged += 1,
            _ if stored_paths.contains(&f.rel_path) => preview.changed += 1,
            _ => preview.new += 1,
        }
        seen.insert(f.rel_path);
    })?;
    preview.gone = stored_paths.iter().filter(|p| !seen.contains(*p)).count() as u64;
    Ok((preview, scan))
}
