//! `vibe-analyzer scan ...` (ast/analyze: being written by the scanner engineer).

use super::{Ctx, ScanCommand};

pub fn run(ctx: &Ctx, args: ScanCommand) -> anyhow::Result<()> {
    match args {
        ScanCommand::Index(a) => super::index::run(ctx, a),
        other => {
            let _ = (ctx, other);
            anyhow::bail!("not implemented yet")
        }
    }
}
