//! The parse-only floor of `scan ast` (bench/scan_ast.sh).
//!
//! `parse_only DIR [THREADS]` walks DIR with the scanner's own walker
//! (`scanner::walk::builder`: same ignore rules, same exclusions, parallel on
//! all cores), and for every file the scanner would extract (a known language
//! by extension, not binary, valid UTF-8, within the AST size limit) only
//! parses it with the project's grammar and walks the whole tree with a
//! `TreeCursor`, counting nodes. No hashing, no queries, no export: the lower
//! bound of what `scan ast` can cost on the same files.
//!
//! Prints one line: `files=N parsed=N bytes=N nodes=N secs=S`. Uses the
//! binary's allocator (mimalloc, tree-sitter included).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tree_sitter::Parser;
use vibe_ingest::extract::{self, Language};
use vibe_ingest::scanner::binary::{is_binary_content, is_binary_path, SNIFF_LEN};
use vibe_ingest::scanner::{walk, MAX_AST_FILE_SIZE};

thread_local! {
    static PARSERS: RefCell<HashMap<&'static str, Parser>> = RefCell::new(HashMap::new());
}

#[derive(Default)]
struct Totals {
    files: AtomicU64,
    parsed: AtomicU64,
    bytes: AtomicU64,
    nodes: AtomicU64,
}

/// Parse one source and count every node of its tree.
fn parse_and_count(lang: &'static Language, source: &str) -> u64 {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = parsers.entry(lang.id).or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(&(lang.grammar)()).expect("grammar loads");
            p
        });
        let Some(tree) = parser.parse(source, None) else { return 0 };
        let mut cursor = tree.walk();
        let mut nodes = 1u64;
        // Depth-first over every node.
        loop {
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                nodes += 1;
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    return nodes;
                }
                if cursor.goto_next_sibling() {
                    nodes += 1;
                    break;
                }
            }
        }
    })
}

fn process(path: &Path, totals: &Totals) {
    totals.files.fetch_add(1, Ordering::Relaxed);
    let Some(lang) = extract::for_path(path) else { return };
    if is_binary_path(path) {
        return;
    }
    let Ok(md) = std::fs::symlink_metadata(path) else { return };
    if !md.is_file() || md.len() > MAX_AST_FILE_SIZE {
        return;
    }
    let Ok(bytes) = std::fs::read(path) else { return };
    if is_binary_content(&bytes[..bytes.len().min(SNIFF_LEN)]) {
        return;
    }
    let Ok(text) = String::from_utf8(bytes) else { return };
    let nodes = parse_and_count(lang, &text);
    totals.parsed.fetch_add(1, Ordering::Relaxed);
    totals.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
    totals.nodes.fetch_add(nodes, Ordering::Relaxed);
}

/// The same allocator as `vibe-analyzer`, so that the floor is comparable.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    vibe_ingest::allocator::route_tree_sitter_to_mimalloc();
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: parse_only DIR [THREADS]"));
    let threads = args
        .next()
        .map(|t| t.parse::<usize>().expect("THREADS is a number"))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let root = root.canonicalize().expect("DIR exists");
    let start = Instant::now();
    let totals = Totals::default();
    walk::builder(&root, threads).build_parallel().run(|| {
        let totals = &totals;
        Box::new(move |res| {
            if let Ok(entry) = res {
                if entry.file_type().is_some_and(|t| !t.is_dir()) {
                    process(entry.path(), totals);
                }
            }
            ignore::WalkState::Continue
        })
    });
    println!(
        "files={} parsed={} bytes={} nodes={} secs={:.3}",
        totals.files.load(Ordering::Relaxed),
        totals.parsed.load(Ordering::Relaxed),
        totals.bytes.load(Ordering::Relaxed),
        totals.nodes.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
}
