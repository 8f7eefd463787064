//! Several scripted Ollama hosts as competing consumers of one channel.

use std::time::Duration;

use crate::ollama_support::{MockOllama, MockOptions, Reply};
use vibe_common::config::OllamaHost;
use vibe_common::document::ast::{AstData, AstElement};
use vibe_ingest::analyzer::{fast_options, Analyzer, EnrichError, FileInput};

fn files(n: usize) -> Vec<FileInput> {
    (0..n)
        .map(|i| FileInput {
            path: format!("pkg/m{i:03}.py"),
            language: Some("Python".into()),
            ast: AstData {
                functions: vec![AstElement { signature: format!("def f{i}(x)"), ..Default::default() }],
                ..Default::default()
            },
        })
        .collect()
}

/// One file per request, so that the counts show who did what.
fn host(mock: &MockOllama) -> OllamaHost {
    OllamaHost { max_chunk_files: 1, ..mock.host() }
}

fn analyzer(hosts: &[OllamaHost]) -> Analyzer {
    Analyzer::new(hosts).unwrap().with_options(fast_options())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_share_the_work() {
    let latency = Duration::from_millis(20);
    let a = MockOllama::start(MockOptions { latency, ..MockOptions::named("a") });
    let b = MockOllama::start(MockOptions { latency, ..MockOptions::named("b") });
    let an = analyzer(&[host(&a), host(&b)]);
    an.check().await.unwrap();
    let (enriched, report) = an.enrich("demo", files(20)).await.unwrap();
    assert_eq!(enriched.len(), 20);
    assert_eq!((report.enriched, report.unenriched), (20, 0));
    let (fa, fb) = (report.hosts[0].files, report.hosts[1].files);
    assert_eq!(fa + fb, 20);
    assert!(fa >= 5 && fb >= 5, "both hosts work: {report}");
    let by_b = enriched.values().filter(|e| e.tags.contains(&"b".to_string())).count();
    assert_eq!(by_b, fb);
    let text = report.to_string();
    assert!(text.contains(&format!("{} (qwen2.5-coder:3b-instruct): {fa} files", a.url)), "{text}");
    assert!(text.contains(&b.url), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_host_takes_less_work() {
    let fast = MockOllama::start(MockOptions { latency: Duration::from_millis(10), ..MockOptions::named("fast") });
    let slow = MockOllama::start(MockOptions { latency: Duration::from_millis(400), ..MockOptions::named("slow") });
    let (enriched, report) = analyzer(&[host(&slow), host(&fast)]).enrich("demo", files(16)).await.unwrap();
    assert_eq!(enriched.len(), 16);
    let (s, f) = (report.hosts[0].files, report.hosts[1].files);
    assert_eq!(s + f, 16);
    assert!(f > s, "the fast host takes the next batch while the slow one works: {report}");
    assert!(s >= 1, "the slow host still works: {report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_dies_mid_run_leaves_its_work_to_the_other() {
    let latency = Duration::from_millis(15);
    let dying = MockOllama::start(MockOptions { latency, die_after: Some(3), ..MockOptions::named("dying") });
    let steady = MockOllama::start(MockOptions { latency, ..MockOptions::named("steady") });
    let an = analyzer(&[host(&dying), host(&steady)]);
    an.check().await.unwrap();
    let (enriched, report) = an.enrich("demo", files(20)).await.unwrap();
    assert_eq!(enriched.len(), 20, "no file is left behind: {report}");
    assert_eq!((report.enriched, report.unenriched), (20, 0));
    assert_eq!(report.hosts[0].files, 3, "{report}");
    assert_eq!(report.hosts[1].files, 17, "{report}");
    let why = report.hosts[0].removed.as_deref().expect("the dead host is taken out");
    assert!(why.contains("POST /api/generate failed 3 times"), "{why}");
    assert!(report.hosts[1].removed.is_none());
    assert!(report.to_string().contains("taken out"), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_answering_errors_is_taken_out() {
    let failing = MockOllama::start(MockOptions { then: Reply::Status(500), ..MockOptions::named("failing") });
    let ok = MockOllama::start(MockOptions { latency: Duration::from_millis(10), ..MockOptions::named("ok") });
    let (enriched, report) = analyzer(&[host(&failing), host(&ok)]).enrich("demo", files(6)).await.unwrap();
    assert_eq!(enriched.len(), 6);
    assert_eq!(report.hosts[1].files, 6);
    let why = report.hosts[0].removed.as_deref().unwrap();
    assert!(why.contains("HTTP 500") && why.contains("scripted failure"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_past_its_timeout_is_taken_out() {
    let hanging = MockOllama::start(MockOptions { then: Reply::Hang, ..MockOptions::named("hanging") });
    let ok = MockOllama::start(MockOptions::named("ok"));
    let slow_host = OllamaHost { timeout_secs: 1, ..host(&hanging) };
    let mut opts = fast_options();
    opts.host_retries = 1;
    let an = Analyzer::new(&[slow_host, host(&ok)]).unwrap().with_options(opts);
    let (enriched, report) = an.enrich("demo", files(5)).await.unwrap();
    assert_eq!(enriched.len(), 5);
    assert_eq!(report.hosts[1].files, 5);
    let why = report.hosts[0].removed.as_deref().unwrap();
    assert!(why.contains("no answer within 1s"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_no_host_is_left_the_run_stops_with_counts() {
    let a = MockOllama::start(MockOptions { die_after: Some(2), ..MockOptions::named("a") });
    let b = MockOllama::start(MockOptions { die_after: Some(2), ..MockOptions::named("b") });
    let an = analyzer(&[host(&a), host(&b)]);
    let err = an.enrich("demo", files(10)).await.unwrap_err();
    match &err {
        EnrichError::NoHostLeft { failures, report } => {
            assert_eq!(failures.len(), 2);
            assert_eq!((report.enriched, report.unenriched), (4, 6));
        }
        other => panic!("unexpected {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.starts_with("no model host is left"), "{msg}");
    assert!(msg.contains(&a.url) && msg.contains(&b.url), "{msg}");
    assert!(msg.contains("4 files enriched, 6 not enriched"), "{msg}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_answers_garbage_is_taken_out_and_its_files_go_to_the_other() {
    let bad = MockOllama::start(MockOptions { then: Reply::Garbage, ..MockOptions::named("bad") });
    let good = MockOllama::start(MockOptions { latency: Duration::from_millis(30), ..MockOptions::named("good") });
    let an = analyzer(&[host(&bad), host(&good)]);
    let (enriched, report) = an.enrich("demo", files(8)).await.unwrap();
    assert_eq!(enriched.len(), 8, "nothing lost: {report}");
    assert_eq!((report.hosts[0].files, report.hosts[1].files), (0, 8));
    let why = report.hosts[0].removed.as_deref().unwrap();
    assert!(why.starts_with("no usable answer after 6 attempts: not valid JSON even after repair"), "{why}");
    assert!(report.failed.is_empty());
    assert_eq!(report.answers().invalid, 6, "the bad host's six answers are counted: {report}");
}
