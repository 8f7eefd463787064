//! Grouping files into LLM requests, limited by `max_chunk_chars` and
//! `max_chunk_files`.

use std::sync::Arc;

use super::prompts::AstSelection;
pub use super::prompts::FileInput;

/// Files sent in one request.
#[derive(Debug, Clone)]
pub struct Batch {
    pub files: Vec<Arc<FileInput>>,
}

impl Batch {
    pub fn paths(&self) -> Vec<&str> {
        self.files.iter().map(|f| f.path.as_str()).collect()
    }
}

/// Group `files`, in order, so that a batch holds at most `max_files` files
/// and about `max_chars` characters of AST (a single larger file gets a batch
/// of its own; its AST is cut to `max_chars` when the prompt is built).
pub fn make_batches(files: Vec<Arc<FileInput>>, sel: &AstSelection, max_chars: usize, max_files: usize) -> Vec<Batch> {
    let max_files = max_files.max(1);
    let mut batches = Vec::new();
    let mut current: Vec<Arc<FileInput>> = Vec::new();
    let mut chars = 0;
    for f in files {
        let size = f.prompt_chars(sel, max_chars);
        if !current.is_empty() && (current.len() >= max_files || chars + size > max_chars) {
            batches.push(Batch { files: std::mem::take(&mut current) });
            chars = 0;
        }
        chars += size;
        current.push(f);
    }
    if !current.is_empty() {
        batches.push(Batch { files: current });
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_common::document::ast::AstData;
    use vibe_common::document::ast::AstElement;

    fn file(path: &str, functions: usize) -> Arc<FileInput> {
        Arc::new(FileInput {
            path: path.into(),
            language: Some("Rust".into()),
            ast: AstData {
                functions: (0..functions)
                    .map(|i| AstElement { signature: format!("fn f{i}(x: u64) -> u64"), ..Default::default() })
                    .collect(),
                ..Default::default()
            },
        })
    }

    const SEL: AstSelection =
        AstSelection { imports: false, variables: false, functions: true, enums: true, interfaces: true };

    #[test]
    fn limited_by_file_count() {
        let files: Vec<_> = (0..7).map(|i| file(&format!("f{i}.rs"), 1)).collect();
        let batches = make_batches(files, &SEL, 100_000, 3);
        assert_eq!(batches.iter().map(|b| b.files.len()).collect::<Vec<_>>(), [3, 3, 1]);
        assert_eq!(batches[2].paths(), ["f6.rs"]);
    }

    #[test]
    fn limited_by_chars() {
        // Each file is about 40 functions * ~26 chars ≈ 1100 chars.
        let files: Vec<_> = (0..5).map(|i| file(&format!("f{i}.rs"), 40)).collect();
        let size = files[0].prompt_chars(&SEL, 4000);
        assert!(size > 1000 && size < 1500, "{size}");
        let batches = make_batches(files, &SEL, 4000, 10);
        assert!(batches.iter().all(|b| b.files.iter().map(|f| f.prompt_chars(&SEL, 4000)).sum::<usize>() <= 4000));
        assert_eq!(batches.iter().map(|b| b.files.len()).sum::<usize>(), 5);
        assert!(batches.len() >= 2);
    }

    #[test]
    fn a_huge_file_gets_its_own_batch() {
        let files = vec![file("small.rs", 1), file("huge.rs", 5000), file("small2.rs", 1)];
        let batches = make_batches(files, &SEL, 1000, 3);
        assert_eq!(
            batches.iter().map(|b| b.paths()).collect::<Vec<_>>(),
            vec![vec!["small.rs"], vec!["huge.rs"], vec!["small2.rs"]]
        );
    }
}
