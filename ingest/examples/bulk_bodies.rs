//! The bulk bodies `scan index --no-llm` writes for each source, as NDJSON
//! on stdout: for each indexed file an `index` action into
//! `<prefix>_data_files_<hash>_g0` and its content document, then one into
//! `<prefix>_data_analysis_<hash>_g0` and its AST document, both built by
//! `indexer::documents` as the indexer builds them, files in path order.
//!
//! For what needs the documents exactly as written, which `_source` no longer
//! holds (the mappings leave the match-only fields out): the raw `_bulk`
//! baseline of bench/full_index.sh and the gateway's test snapshot
//! (gateway/tests/fixtures/refresh_snapshot.sh). A benchmark variant lives
//! here, not behind a switch in the indexer.
//!
//! ```sh
//! cargo run --release -p vibe-analyzer --example bulk_bodies -- PREFIX ROOT... > bodies.ndjson
//! ```

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Context as _;
use serde_json::json;
use vibe_common::backend::naming::{project_hash, IndexNames};
use vibe_ingest::indexer::documents;
use vibe_ingest::scanner::{self, ScanOptions, ScannedFile, SkipReason, SourceInfo};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let prefix = args.next().context("usage: bulk_bodies PREFIX ROOT...")?;
    let names = IndexNames::new(&prefix);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for root in args {
        let info = SourceInfo::bare(None, Path::new(&root)).with_context(|| format!("cannot read {root}"))?;
        let hash = project_hash(&info.root);
        let (files, ast) = (names.files_index(&hash, "g0"), names.ast_index(&hash, "g0"));
        let opts = ScanOptions { keep_content: true, ordered: true, ..Default::default() };
        let mut written: std::io::Result<()> = Ok(());
        scanner::scan(&info.root, &opts, |file| {
            if written.is_ok() && file.skipped != Some(SkipReason::Unchanged) && documents::indexable(&file) {
                written = write_pair(&mut out, (&files, &ast), &info, &file);
            }
        })?;
        written?;
    }
    out.flush()?;
    Ok(())
}

/// The two actions and documents of one file, as the indexer's bulk body has them.
fn write_pair(
    out: &mut impl Write,
    (files, ast): (&str, &str),
    info: &SourceInfo,
    file: &ScannedFile,
) -> std::io::Result<()> {
    let id = &file.rel_path;
    writeln!(out, "{}", json!({ "index": { "_index": files, "_id": id } }))?;
    serde_json::to_writer(&mut *out, &documents::content_doc(info, file))?;
    writeln!(out)?;
    writeln!(out, "{}", json!({ "index": { "_index": ast, "_id": id } }))?;
    serde_json::to_writer(&mut *out, &documents::ast_doc(info, file, None))?;
    writeln!(out)
}
