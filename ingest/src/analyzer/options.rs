//! The retry policy of an enrichment run, shared by the run and its workers.

use std::fmt;
use std::time::Duration;

/// Retry policy of a run.
#[derive(Clone)]
pub struct ClusterOptions {
    /// Retries of a batch whose answer misses files or changes paths (then
    /// another host tries them, or they are counted as not enriched).
    pub max_retries: usize,
    /// Delay before such a retry.
    pub retry_delay: Duration,
    /// Retries of a request that failed in transport (connection, timeout,
    /// HTTP error) before its host is taken out.
    pub host_retries: usize,
    /// Delay before such a retry.
    pub host_retry_delay: Duration,
    /// Advanced by the number of files enriched.
    pub progress: Option<indicatif::ProgressBar>,
}

impl Default for ClusterOptions {
    fn default() -> Self {
        Self {
            max_retries: 5,
            retry_delay: Duration::from_secs(2),
            host_retries: 2,
            host_retry_delay: Duration::from_secs(1),
            progress: None,
        }
    }
}

impl fmt::Debug for ClusterOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClusterOptions")
            .field("max_retries", &self.max_retries)
            .field("retry_delay", &self.retry_delay)
            .field("host_retries", &self.host_retries)
            .field("host_retry_delay", &self.host_retry_delay)
            .finish()
    }
}
