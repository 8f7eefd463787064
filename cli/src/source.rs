//! `vibe-analyzer source add|remove|list`.

use super::{Ctx, SourceCommand};
use std::io::Write;
use std::path::Path;
use vibe_common::config::AddOutcome;

pub fn run(ctx: &mut Ctx, cmd: SourceCommand) -> anyhow::Result<()> {
    match cmd {
        SourceCommand::Add(args) => add(ctx, &args.path),
        SourceCommand::Remove(args) => remove(ctx, &args.target),
        SourceCommand::List => list(ctx),
    }
}

fn add(ctx: &mut Ctx, path: &Path) -> anyhow::Result<()> {
    let outcome = ctx.config.add_source(path)?;
    let mut out = std::io::stdout().lock();
    match outcome {
        AddOutcome::Added(path) => {
            ctx.save_config()?;
            writeln!(out, "Source added: {}", path.display())?;
        }
        AddOutcome::AlreadyPresent(path) => {
            writeln!(out, "Source already added: {}", path.display())?;
        }
    }
    Ok(())
}

fn remove(ctx: &mut Ctx, target: &str) -> anyhow::Result<()> {
    let removed = ctx.config.remove_source(target)?;
    ctx.save_config()?;
    writeln!(std::io::stdout().lock(), "Source removed: {}", removed.display())?;
    Ok(())
}

fn list(ctx: &Ctx) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if ctx.config.sources.is_empty() {
        writeln!(out, "No sources configured. Add one with: {}", ctx.command("source add PATH"))?;
        return Ok(());
    }
    writeln!(out, "Configured sources:")?;
    for source in &ctx.config.sources {
        writeln!(out, "- {}", source.display())?;
    }
    Ok(())
}
