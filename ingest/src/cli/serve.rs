//! `vibe-analyzer serve ...` (stub: to be written).

use super::{Ctx, ServeCommand};

pub fn run(ctx: &Ctx, args: ServeCommand) -> anyhow::Result<()> {
    let _ = (ctx, args);
    anyhow::bail!("not implemented yet")
}
