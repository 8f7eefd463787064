//! Command line of `vibe-analyzer` (clap derive).
//!
//! Every command first loads (or creates) the configuration, then runs with a
//! [`Ctx`]. `source` is implemented in [`source`]; `scan`, `stats` and `serve`
//! live in their own modules and receive the parsed args defined here.
//!
//! Exit codes: 0 success, 1 error, 2 when a run completed but some files failed
//! (return a [`PartialFailure`] anywhere in the error chain), 3 from `serve
//! status` when the server is not running ([`NotRunning`], as LSB init scripts do),
//! 4 when another index run held a project for the whole wait ([`ProjectBusy`]).

pub mod analyze;
pub mod enrich;
pub mod index;
pub mod prune;
pub mod scan;
pub mod serve;
pub mod source;
pub mod stats;
pub mod watch;

use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use vibe_common::config::{Config, ConfigError, Identity, IdentityOrigin};

use vibe_ingest::export::Format;

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

#[derive(Debug, Parser)]
#[command(name = "vibe-analyzer", version, about = "Agentic RAG engine for codebases and knowledge bases")]
pub struct Cli {
    /// Configuration directory (default: ~/.vibe-analyzer)
    #[arg(long, global = true, value_name = "DIR")]
    pub config_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Manage the source directories
    #[command(subcommand)]
    Source(SourceCommand),
    /// Scan sources: export ASTs and analyses, build the index
    #[command(subcommand)]
    Scan(ScanCommand),
    /// Statistics about the indexed sources
    #[command(subcommand)]
    Stats(StatsCommand),
    /// The MCP gateway
    #[command(subcommand)]
    Serve(ServeCommand),
}

#[derive(Debug, Clone, Subcommand)]
pub enum SourceCommand {
    /// Add a source directory
    Add(SourceAddArgs),
    /// Remove a source (by full path or unique directory name)
    Remove(SourceRemoveArgs),
    /// List the configured sources
    List,
}

#[derive(Debug, Clone, Args)]
pub struct SourceAddArgs {
    /// Path of the source (relative to the current directory)
    pub path: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct SourceRemoveArgs {
    /// Full path or directory name of a configured source
    #[arg(long, short, value_name = "PATH_OR_NAME")]
    pub target: String,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ScanCommand {
    /// Extract the AST of every file and export it
    Ast(ScanExportArgs),
    /// Extract and analyze every file and export the result
    Analyze(ScanExportArgs),
    /// Scan, enrich (LLM) and index into OpenSearch
    Index(ScanIndexArgs),
    /// Watch the sources and index every change as it happens (Ctrl-C stops)
    Watch(ScanWatchArgs),
    /// Remove the projects this config's owner identity wrote and no longer lists
    Prune(ScanPruneArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ScanExportArgs {
    /// Source to scan (full path or unique directory name); default: all sources
    #[arg(long, short, value_name = "PATH_OR_NAME")]
    pub target: Option<String>,
    /// Output format (default: from the --output extension, else json)
    #[arg(long, short, value_enum)]
    pub format: Option<Format>,
    /// Output file, or - for stdout (default: a new file in the Downloads folder, ~/Downloads,
    /// or the current directory when there is none: vibe-analyzer-<ast|analyze>-<source|all>-<YYYYMMDD-HHMMSS>.<ext>)
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl ScanExportArgs {
    /// `--format`, else the `--output` extension, else JSON. Checked before
    /// any scan: an `--output` that is a folder, or whose extension is no
    /// export format (`x.yaml` would hold JSON), is an error.
    pub fn resolved_format(&self) -> anyhow::Result<Format> {
        let output = self.output.as_deref().filter(|o| *o != std::path::Path::new("-"));
        if let Some(dir) = output.filter(|o| o.is_dir()) {
            anyhow::bail!(
                "--output {} is a folder: name a file in it, e.g. {}",
                dir.display(),
                dir.join("ast.json").display()
            );
        }
        if let Some(format) = self.format {
            return Ok(format);
        }
        match output.and_then(|p| p.extension()) {
            None => Ok(Format::default()),
            Some(ext) => ext.to_string_lossy().parse().map_err(|_| {
                anyhow::anyhow!(
                    "--output {}: .{} is no export format; name the file .json, .json5, .toon or .xml, or pass --format",
                    output.map(|o| o.display().to_string()).unwrap_or_default(),
                    ext.to_string_lossy()
                )
            }),
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct ScanIndexArgs {
    /// Source to index (full path or unique directory name); default: all sources
    #[arg(long, short, value_name = "PATH_OR_NAME")]
    pub target: Option<String>,
    /// Re-index every file, even unchanged ones
    #[arg(long)]
    pub force: bool,
    /// Skip the LLM enrichment
    #[arg(long)]
    pub no_llm: bool,
    /// Tell what a run would write and remove (files new, changed or gone since indexed, and
    /// projects this config wrote and no longer lists) and change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// When another run is indexing a project, wait until it ends (default: wait
    /// opensearch.lock_wait_secs, then name it and exit with code 4)
    #[arg(long)]
    pub wait: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ScanPruneArgs {
    /// List what would be removed and change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Remove this project even though this config's owner id was also seen writing it from another
    /// host or config dir (or before that was recorded); repeatable
    #[arg(long, value_name = "ROOT")]
    pub project: Vec<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct ScanWatchArgs {
    /// Source to watch (full path or unique directory name); default: all sources
    #[arg(long, short, value_name = "PATH_OR_NAME")]
    pub target: Option<String>,
    /// Skip the LLM enrichment
    #[arg(long)]
    pub no_llm: bool,
}

#[derive(Debug, Clone, Subcommand)]
pub enum StatsCommand {
    /// Counts and metadata of the indexed sources
    Info(StatsInfoArgs),
    /// File tree of one indexed source
    Tree(StatsTreeArgs),
}

#[derive(Debug, Clone, Args)]
pub struct StatsInfoArgs {
    /// Source (full path or unique directory name); default: all sources
    #[arg(long, short, value_name = "PATH_OR_NAME")]
    pub target: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct StatsTreeArgs {
    /// Source (full path or unique directory name)
    #[arg(long, short, value_name = "PATH_OR_NAME")]
    pub target: String,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ServeCommand {
    /// Start the MCP gateway
    Start(ServeStartArgs),
    /// Show whether the gateway is running
    Status,
    /// Stop the running gateway
    Stop,
}

#[derive(Debug, Clone, Args)]
pub struct ServeStartArgs {
    /// Listen address (default: mcp.host of the config)
    #[arg(long)]
    pub host: Option<String>,
    /// Listen port (default: mcp.port of the config)
    #[arg(long)]
    pub port: Option<u16>,
    /// Also watch every source and index changes as they happen (as `scan watch`)
    #[arg(long)]
    pub watch: bool,
    /// With --watch: skip the LLM enrichment
    #[arg(long, requires = "watch")]
    pub no_llm: bool,
}

// ---------------------------------------------------------------------------
// Context and errors
// ---------------------------------------------------------------------------

/// What every command gets: the loaded configuration and where it lives.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// Validated config, env overrides (`VIBE_OPENSEARCH_URL`, `VIBE_MCP_TOKEN`) applied.
    pub config: Config,
    /// The config file (`<config_dir>/config.json5`).
    pub config_path: PathBuf,
    /// The config directory (also a good place for pid files, caches...).
    pub config_dir: PathBuf,
}

impl Ctx {
    /// Loads or creates the config in `config_dir` (default `~/.vibe-analyzer`).
    pub fn load(config_dir: Option<&Path>) -> Result<Ctx, ConfigError> {
        let (mut config, config_path) = Config::load_or_create(config_dir)?;
        let config_dir = config_path.parent().map(Path::to_path_buf).unwrap_or_default();
        // Created on first use; an older config's `id` moves out of config.json5.
        match config.identity(&config_path)? {
            (identity, IdentityOrigin::Replaced { previous, from }) => eprintln!(
                "{}: this config dir was copied from {from} (owner id {previous}); it gets its own owner id {}",
                config_dir.display(),
                identity.id
            ),
            (identity, IdentityOrigin::Adopted) => {
                tracing::info!("owner id {} moved from config.json5 to identity.json", identity.id)
            }
            _ => {}
        }
        vibe_ingest::scanner::license::remember_in(&config_dir);
        Ok(Ctx { config, config_path, config_dir })
    }

    /// The owner identity of this config dir (`identity.json`, created on first use).
    pub fn identity(&self) -> Result<Identity, ConfigError> {
        Identity::resolve(&self.config_dir, "").map(|(identity, _)| identity)
    }

    /// Saves `self.config` to `self.config_path` (env overrides are not persisted).
    pub fn save_config(&self) -> Result<(), ConfigError> {
        self.config.save(&self.config_path)
    }

    /// A command to suggest, as this run was started: with `--config-dir`
    /// when its config dir is not the default one (a suggestion without it
    /// would read, or create, `~/.vibe-analyzer`).
    pub fn command(&self, args: &str) -> String {
        if Config::default_dir().is_ok_and(|d| d == self.config_dir) {
            return format!("vibe-analyzer {args}");
        }
        let dir = self.config_dir.display().to_string();
        let dir = if dir.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
            format!("'{}'", dir.replace('\'', "'\\''"))
        } else {
            dir
        };
        format!("vibe-analyzer --config-dir {dir} {args}")
    }

    /// The sources a command works on: the one named by `--target`, else all
    /// configured sources. Errors when there is none.
    pub fn targets(&self, target: Option<&str>) -> anyhow::Result<Vec<PathBuf>> {
        match target {
            Some(t) => Ok(vec![self.config.resolve_source(t)?]),
            None if self.config.sources.is_empty() => {
                anyhow::bail!("no sources configured. Add one with: {}", self.command("source add PATH"))
            }
            None => Ok(self.config.sources.clone()),
        }
    }
}

impl Ctx {
    /// [`Ctx::targets`] that still exist, and how many are gone: each gone
    /// source is said once, with the command that removes it; the others are
    /// worked on (a failure of this run, exit code 2, not a stop). Errors
    /// when none is left.
    pub fn present_targets(&self, target: Option<&str>) -> anyhow::Result<(Vec<PathBuf>, usize)> {
        let (present, gone): (Vec<PathBuf>, Vec<PathBuf>) = self.targets(target)?.into_iter().partition(|p| p.is_dir());
        for p in &gone {
            let remove = self.command(&format!("source remove --target {}", p.display()));
            eprintln!("error: the source {} no longer exists; remove it with: {remove}", p.display());
        }
        if present.is_empty() {
            anyhow::bail!("no configured source exists any more");
        }
        Ok((present, gone.len()))
    }
}

/// A run that completed but where some items failed: exit code 2.
/// Return it (possibly wrapped with context) from a command:
/// `PartialFailure::check(failed, total)?`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{failed} of {total} files failed")]
pub struct PartialFailure {
    pub failed: usize,
    pub total: usize,
}

impl PartialFailure {
    pub fn new(failed: usize, total: usize) -> Self {
        Self { failed, total }
    }

    /// `Ok(())` when nothing failed, else `Err(PartialFailure)`.
    pub fn check(failed: usize, total: usize) -> anyhow::Result<()> {
        if failed == 0 {
            Ok(())
        } else {
            Err(Self::new(failed, total).into())
        }
    }
}

/// Another index run held a project for the whole wait; each line names
/// the source and the run: exit code 4.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\nerror: "))]
pub struct ProjectBusy(pub Vec<vibe_ingest::indexer::BusySource>);

/// `serve status` found no running server (and said so): exit code 3.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the MCP server is not running")]
pub struct NotRunning;

/// Exit code of an error: 4 for [`ProjectBusy`], 2 for a
/// [`PartialFailure`] anywhere in the chain, 3 for [`NotRunning`], else 1.
pub fn exit_code_of(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<ProjectBusy>()) {
        4
    } else if err.chain().any(|e| e.is::<PartialFailure>()) {
        2
    } else if err.chain().any(|e| e.is::<NotRunning>()) {
        3
    } else {
        1
    }
}

// ---------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------

type FilterHandle = tracing_subscriber::reload::Handle<tracing_subscriber::EnvFilter, tracing_subscriber::Registry>;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Usage errors exit 1 (2 is reserved for partial failures).
            return if e.use_stderr() { ExitCode::from(1) } else { ExitCode::SUCCESS };
        }
    };
    let filter = init_tracing();
    match run(cli, filter.as_ref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // `serve status` already said "not running": that is its answer, not an error.
            if !err.chain().any(|e| e.is::<NotRunning>()) {
                eprintln!("error: {}", user_message(&err));
            }
            ExitCode::from(exit_code_of(&err))
        }
    }
}

/// The error as the user reads it: the whole chain, except for a refusal of
/// OpenSearch, which says all there is to say (its cause goes to the debug log).
fn user_message(err: &anyhow::Error) -> String {
    let refused = err.chain().find_map(|e| match e.downcast_ref::<vibe_ingest::indexer::IndexError>() {
        Some(refused @ vibe_ingest::indexer::IndexError::Refused { .. }) => Some(refused),
        _ => None,
    });
    match refused {
        Some(refused) => {
            tracing::debug!("{err:#}");
            refused.to_string()
        }
        None => format!("{err:#}"),
    }
}

fn run(cli: Cli, filter: Option<&FilterHandle>) -> anyhow::Result<()> {
    let mut ctx = Ctx::load(cli.config_dir.as_deref())?;
    if let Some(handle) = filter {
        apply_config_log_level(handle, ctx.config.log_level());
    }
    dispatch(&mut ctx, cli.command)
}

/// Runs one parsed command with a loaded context.
pub fn dispatch(ctx: &mut Ctx, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Source(cmd) => source::run(ctx, cmd),
        Command::Scan(cmd) => scan::run(ctx, cmd),
        Command::Stats(cmd) => stats::run(ctx, cmd),
        Command::Serve(cmd) => serve::run(ctx, cmd),
    }
}

/// Logs to stderr. `RUST_LOG` wins; otherwise starts at `warn` and returns a
/// handle to switch to the config's `dev.log_level` once it is loaded.
fn init_tracing() -> Option<FilterHandle> {
    use std::io::IsTerminal;
    use tracing_subscriber::prelude::*;
    use tracing_subscriber::{fmt, reload, EnvFilter};

    let from_env = std::env::var("RUST_LOG").ok().filter(|v| !v.trim().is_empty());
    let filter = match &from_env {
        Some(spec) => EnvFilter::try_new(spec).unwrap_or_else(|e| {
            eprintln!("warning: invalid RUST_LOG {spec:?} ({e}), using warn");
            EnvFilter::new("warn")
        }),
        None => EnvFilter::new("warn"),
    };
    let (layer, handle) = reload::Layer::new(filter);
    let installed = tracing_subscriber::registry()
        .with(layer)
        .with(fmt::layer().with_writer(std::io::stderr).with_ansi(std::io::stderr().is_terminal()))
        .try_init()
        .is_ok();
    (installed && from_env.is_none()).then_some(handle)
}

fn apply_config_log_level(handle: &FilterHandle, level: &str) {
    match tracing_subscriber::EnvFilter::try_new(level) {
        Ok(filter) => {
            if let Err(e) = handle.reload(filter) {
                tracing::warn!("cannot apply dev.log_level: {e}");
            }
        }
        Err(e) => tracing::warn!("invalid dev.log_level {level:?} ({e}), using warn"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn format_from_output_extension() {
        let args = ScanExportArgs { target: None, format: None, output: Some("out.XML".into()) };
        assert_eq!(args.resolved_format().unwrap(), Format::Xml);
        let args = ScanExportArgs { format: Some(Format::Toon), ..args };
        assert_eq!(args.resolved_format().unwrap(), Format::Toon);
        // An extension that is no format, and a folder, are errors before any scan (issue 59).
        let yaml = ScanExportArgs { target: None, format: None, output: Some("out.yaml".into()) };
        assert!(yaml.resolved_format().unwrap_err().to_string().contains(".yaml is no export format"));
        let dir = tempfile::tempdir().unwrap();
        let folder = ScanExportArgs { target: None, format: None, output: Some(dir.path().to_path_buf()) };
        assert!(folder.resolved_format().unwrap_err().to_string().contains("is a folder"));
        let stdout = ScanExportArgs { target: None, format: None, output: Some("-".into()) };
        assert_eq!(stdout.resolved_format().unwrap(), Format::Json);
    }

    #[test]
    fn output_help_says_where_the_file_goes() {
        use clap::CommandFactory;
        for sub in ["ast", "analyze"] {
            let mut cmd = Cli::command();
            let scan = cmd.find_subcommand_mut("scan").unwrap();
            let help = scan.find_subcommand_mut(sub).unwrap().render_help().to_string();
            assert!(!help.contains("instead of stdout"), "{help}");
            assert!(help.contains("- for stdout") && help.contains("~/Downloads"), "{help}");
        }
    }

    #[test]
    fn partial_failure_exit_code() {
        let err = PartialFailure::check(2, 10).unwrap_err().context("scan");
        assert_eq!(exit_code_of(&err), 2);
        assert_eq!(exit_code_of(&anyhow::anyhow!("boom")), 1);
        assert!(PartialFailure::check(0, 10).is_ok());
    }
}
