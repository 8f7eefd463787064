//! The owner identity of a config directory: `<config dir>/identity.json`.
//!
//! `scan index` records this identity as an owner of every project it writes
//! and removes only projects its identity wrote and no longer lists. The
//! identity is kept out of `config.json5`, the file people copy (into a
//! dotfiles repository, onto a second machine, into a CI image), and it is
//! bound to where it was created: the host name, the machine id and the
//! config directory. A config directory copied elsewhere (identity file
//! included) finds the binding broken and creates an identity of its own, so
//! a copy never removes the original's projects.
//!
//! Migration: configs before identities kept their id in `config.json5`
//! (`id`). The first run after the upgrade adopts that id, so it keeps owning
//! the projects it wrote, and drops it from `config.json5`. Two directories
//! holding a copy of the same old file both adopt its id; the indexer catches
//! that case from the `writers` recorded on each project (the same id
//! writing from another host or config directory) and refuses to remove.

use super::paths::{normalize, same_path, write_atomic};
use super::{Config, ConfigError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Name of the identity file inside the config directory.
pub const IDENTITY_FILE_NAME: &str = "identity.json";

/// Where an identity writes from: a host and a config directory.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Site {
    pub host: String,
    pub config_dir: String,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.host, self.config_dir)
    }
}

/// The owner identity of one config directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// `<hostname>-<8 hex>`; recorded in each project's `owners`.
    pub id: String,
    /// Host name where the identity was created.
    pub host: String,
    /// BLAKE3 (16 hex) of the machine id (`/etc/machine-id`); empty when
    /// the machine has none.
    #[serde(default)]
    pub machine: String,
    /// The config directory it belongs to (absolute).
    pub config_dir: PathBuf,
    /// True when the id was taken over from an older `config.json5`.
    #[serde(default)]
    pub adopted: bool,
}

/// How [`Identity::resolve`] got the identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The identity file of this directory, created here.
    Existing,
    /// None existed: a new identity.
    Created,
    /// Taken over from the `id` of an older `config.json5`.
    Adopted,
    /// The identity file was created on another host or in another config
    /// directory (the directory was copied): a new identity replaced it.
    Replaced { previous: String, from: Site },
}

impl Identity {
    /// The identity of `dir`. `legacy_id` is the `id` of an older
    /// `config.json5` (empty when the file has none): adopted when the
    /// directory has no identity file yet.
    pub fn resolve(dir: &Path, legacy_id: &str) -> Result<(Identity, Origin), ConfigError> {
        let dir = normalize(dir);
        let path = dir.join(IDENTITY_FILE_NAME);
        let here = Here::detect();
        let (identity, origin) = match read(&path)? {
            Some(found) if here.owns(&found, &dir) => return Ok((found, Origin::Existing)),
            Some(found) => {
                let from = found.site();
                (here.new_identity(&dir, None), Origin::Replaced { previous: found.id, from })
            }
            None if !legacy_id.trim().is_empty() => (here.new_identity(&dir, Some(legacy_id.trim())), Origin::Adopted),
            None => (here.new_identity(&dir, None), Origin::Created),
        };
        let mut text = serde_json::to_string_pretty(&identity)
            .map_err(|source| ConfigError::Serialize { path: path.clone(), source })?;
        text.push('\n');
        write_atomic(&path, text.as_bytes())?;
        Ok((identity, origin))
    }

    /// Where this identity writes from.
    pub fn site(&self) -> Site {
        Site { host: self.host.clone(), config_dir: self.config_dir.display().to_string() }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Existing => f.write_str("existing"),
            Origin::Created => f.write_str("created"),
            Origin::Adopted => f.write_str("taken over from the `id` of config.json5"),
            Origin::Replaced { previous, from } => write!(
                f,
                "replaced: the identity file held {previous}, created at {from}; this directory is a copy and gets its own"
            ),
        }
    }
}

impl Config {
    /// The owner identity of the config file at `path` (its directory's
    /// `identity.json`). An `id` still in the file (an older config) is
    /// adopted when the directory has no identity yet, and removed from the
    /// file either way: from now on the file can be copied safely.
    pub fn identity(&mut self, path: &Path) -> Result<(Identity, Origin), ConfigError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let resolved = Identity::resolve(dir, &self.id)?;
        if !self.id.is_empty() {
            self.id.clear();
            self.file_view().save(path)?;
        }
        Ok(resolved)
    }
}

/// `None` when the file does not exist; an error naming the file when it
/// cannot be read or parsed (never silently replaced: that would orphan the
/// projects the identity wrote).
fn read(path: &Path) -> Result<Option<Identity>, ConfigError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ConfigError::Read { path: path.to_path_buf(), source }),
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| ConfigError::Invalid {
        path: path.to_path_buf(),
        position: Some((e.line(), e.column())),
        message: format!("{e}; delete the file to give this config a new identity"),
    })
}

/// The host and machine this process runs on.
struct Here {
    host: String,
    machine: String,
}

impl Here {
    fn detect() -> Self {
        Self { host: hostname(), machine: machine_id() }
    }

    /// The identity was created on this machine, in this directory.
    fn owns(&self, identity: &Identity, dir: &Path) -> bool {
        identity.host == self.host && identity.machine == self.machine && same_path(&identity.config_dir, dir)
    }

    fn new_identity(&self, dir: &Path, adopt: Option<&str>) -> Identity {
        let id = adopt.map_or_else(|| new_id(&self.host, dir), str::to_string);
        Identity {
            id,
            host: self.host.clone(),
            machine: self.machine.clone(),
            config_dir: dir.to_path_buf(),
            adopted: adopt.is_some(),
        }
    }
}

/// The host name (`/etc/hostname`, `$HOSTNAME`), `localhost` when unknown.
pub fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string())
}

/// BLAKE3 (16 hex) of the machine id; empty when there is none.
fn machine_id() -> String {
    ["/etc/machine-id", "/var/lib/dbus/machine-id"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()))
        .map(|id| blake3::hash(id.as_bytes()).to_hex()[..16].to_string())
        .unwrap_or_default()
}

/// A new id: `<hostname>-<8 hex>`, the hex from the time, the process and
/// the config directory.
fn new_id(host: &str, dir: &Path) -> String {
    let host: String = host.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(24).collect();
    let host = if host.is_empty() { "vibe".to_string() } else { host };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let seed = format!("{nanos}:{}:{}", std::process::id(), dir.display());
    format!("{host}-{}", &blake3::hash(seed.as_bytes()).to_hex()[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_once_then_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let (first, origin) = Identity::resolve(tmp.path(), "").unwrap();
        assert_eq!(origin, Origin::Created);
        assert!(!first.adopted && first.id.starts_with(&first.host.chars().take(3).collect::<String>()));
        let (again, origin) = Identity::resolve(tmp.path(), "").unwrap();
        assert_eq!((again, origin), (first, Origin::Existing));
    }

    #[test]
    fn an_old_config_id_is_adopted_once() {
        let tmp = tempfile::tempdir().unwrap();
        let (identity, origin) = Identity::resolve(tmp.path(), "laptop-0a1b2c3d").unwrap();
        assert_eq!((identity.id.as_str(), origin, identity.adopted), ("laptop-0a1b2c3d", Origin::Adopted, true));
        // Another legacy id later (a config file copied over this one) changes nothing.
        let (again, origin) = Identity::resolve(tmp.path(), "other-11111111").unwrap();
        assert_eq!((again.id.as_str(), origin), ("laptop-0a1b2c3d", Origin::Existing));
    }

    #[test]
    fn a_copied_directory_gets_its_own_identity() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let (original, _) = Identity::resolve(&a, "").unwrap();
        std::fs::copy(a.join(IDENTITY_FILE_NAME), b.join(IDENTITY_FILE_NAME)).unwrap();
        let (copy, origin) = Identity::resolve(&b, "legacy-00000000").unwrap();
        assert_ne!(copy.id, original.id);
        assert_ne!(copy.id, "legacy-00000000", "the copy's legacy id belongs to the original");
        assert_eq!(origin, Origin::Replaced { previous: original.id.clone(), from: original.site() });
        assert_eq!(Identity::resolve(&b, "").unwrap(), (copy, Origin::Existing));
        assert_eq!(Identity::resolve(&a, "").unwrap().0, original, "the original keeps its identity");
    }

    #[test]
    fn the_id_of_an_older_config_file_moves_to_the_identity() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(super::super::CONFIG_FILE_NAME);
        std::fs::write(&path, "{ version: '0.2.0', id: 'laptop-0a1b2c3d', sources: [] }").unwrap();
        let mut config = Config::load(&path).unwrap();
        assert_eq!(config.id, "laptop-0a1b2c3d");
        let (identity, origin) = config.identity(&path).unwrap();
        assert_eq!((identity.id.as_str(), origin), ("laptop-0a1b2c3d", Origin::Adopted));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("laptop-0a1b2c3d") && config.id.is_empty(), "{text}");
        let mut reloaded = Config::load(&path).unwrap();
        assert_eq!(reloaded.identity(&path).unwrap(), (identity, Origin::Existing));
    }

    #[test]
    fn a_broken_file_is_an_error_naming_it_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(IDENTITY_FILE_NAME);
        std::fs::write(&path, "{ not json").unwrap();
        let err = Identity::resolve(tmp.path(), "").unwrap_err();
        assert!(err.to_string().contains(&path.display().to_string()), "{err}");
        assert!(err.to_string().contains("delete the file"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");
    }
}
