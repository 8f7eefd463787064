//! Errors keep their cause as a `#[source]` and print only their own layer
//! (`OpenSearch at HOST is unreachable`), as `ignore::Error::WithPath` does.
//! The whole chain is printed once: by anyhow's `{:#}` at the top of a
//! command, or by [`chain`] where a string is needed (a tool's answer, one
//! line of a report).

/// The cause of an error whose type varies (or a plain message).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// An error and its sources on one line, `outer: inner: root`, the same text
/// as anyhow's `{:#}`.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        line.push_str(": ");
        line.push_str(&cause.to_string());
        source = cause.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read {path}")]
    struct Read {
        path: &'static str,
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn each_layer_is_printed_once() {
        let e = Read { path: "a.txt", source: std::io::Error::other("disk on fire") };
        assert_eq!(chain(&e), "cannot read a.txt: disk on fire");
        let boxed: BoxError = "just a message".into();
        assert_eq!(chain(boxed.as_ref()), "just a message");
    }
}
