//! The named values a function reads. The scanner records every read of a
//! named value (a constant, a static, an enum member, an upper-case name:
//! `references` of kind `read`); each function or method keeps, in its
//! stored `show` (`reads`), the names it reads, in order of their first
//! read. A search answer then shows the definition of each under the
//! function (`NAME = value  (path:line)`): the timeout, the retry delay or
//! the cap a question about the function asks for, even when it is defined
//! at the top of the file or in another file.

use vibe_common::document::ast::{AstData, AstElement};
use vibe_common::document::kinds::ReferenceKind;
pub use vibe_common::document::shown::MAX_READS;

/// The reads of named values of a file, in line order.
pub struct FileReads<'a> {
    /// (line, name) of every read, sorted by line.
    reads: Vec<(u32, &'a str)>,
}

impl<'a> FileReads<'a> {
    pub fn new(ast: &'a AstData) -> Self {
        FileReads { reads: uses_in_line_order(ast, ReferenceKind::Read) }
    }

    /// The named values a function or method reads within its lines, each
    /// once, in order of their first read, at most [`MAX_READS`]; none for
    /// other kinds.
    pub fn of(&self, e: &AstElement) -> Vec<&'a str> {
        let Some(span) = e.line.filter(|l| e.kind.is_callable() && l.end >= l.start) else { return vec![] };
        let from = self.reads.partition_point(|&(line, _)| line < span.start);
        let mut out: Vec<&str> = Vec::new();
        for &(_, name) in self.reads[from..].iter().take_while(|&&(line, _)| line <= span.end) {
            if name != e.name && !out.contains(&name) {
                out.push(name);
                if out.len() == MAX_READS {
                    break;
                }
            }
        }
        out
    }
}

/// (line, name) of the file's uses of one kind, sorted by line.
pub(super) fn uses_in_line_order(ast: &AstData, kind: ReferenceKind) -> Vec<(u32, &str)> {
    let mut uses: Vec<(u32, &str)> =
        ast.references.iter().filter(|r| r.kind == kind).map(|r| (r.line, r.name.as_str())).collect();
    uses.sort_by_key(|&(line, _)| line);
    uses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{extract, grammars::by_id};

    fn reads_of(lang: &str, src: &str, function: &str) -> Vec<String> {
        let ast = extract(by_id(lang).unwrap(), src).unwrap();
        let reads = FileReads::new(&ast);
        let f = ast.functions.iter().find(|f| f.name == function).expect("the function");
        reads.of(f).into_iter().map(String::from).collect()
    }

    #[test]
    fn a_function_keeps_the_named_values_it_reads_once_each_in_order() {
        let py = "import time\nMAX_RETRIES = 5\nBACKOFF = 0.5\n\ndef fetch(url, retries=MAX_RETRIES):\n    \
                  for i in range(retries):\n        time.sleep(BACKOFF * 2 ** i)\n        if i > MAX_RETRIES:\n            \
                  raise Error(url)\n    return config.DEFAULT_TIMEOUT\n";
        assert_eq!(reads_of("python", py, "fetch"), ["MAX_RETRIES", "BACKOFF", "DEFAULT_TIMEOUT"]);
    }

    #[test]
    fn a_constant_of_the_file_is_a_named_value_whatever_its_case() {
        let go = "package p\n\nconst defaultBufSize = 4096\n\nfunc NewReader(r io.Reader) *Reader {\n\t\
                  n := defaultBufSize\n\tsize := len(buf)\n\treturn NewReaderSize(r, n)\n}\n";
        assert_eq!(reads_of("go", go, "NewReader"), ["defaultBufSize"]);
        let rs = "const LIMIT: usize = 3;\nfn take(v: &[u8]) -> &[u8] {\n    let n = Self::MAX.min(LIMIT);\n    &v[..n]\n}\n";
        assert_eq!(reads_of("rust", rs, "take"), ["MAX", "LIMIT"]);
    }

    #[test]
    fn calls_types_and_locals_are_no_reads() {
        let js = "const TIMEOUT_MS = 30000;\nfunction wait(opts) {\n  const t = opts.timeout ?? TIMEOUT_MS;\n  \
                  return new URL(Config.BASE_URL, LOG(t));\n}\n";
        assert_eq!(reads_of("javascript", js, "wait"), ["TIMEOUT_MS", "BASE_URL"]);
        let sh = "RETRIES=3\nrun() {\n  local n=0\n  while [ \"$n\" -lt \"${RETRIES:-5}\" ]; do n=$((n+1)); done\n}\n";
        assert_eq!(reads_of("bash", sh, "run"), ["RETRIES"]);
    }
}
