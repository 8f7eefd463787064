//! Several nodes in `opensearch.hosts`: requests go round-robin, and a node
//! that cannot be reached is skipped, so a call still succeeds while one
//! configured node answers. Against the real OpenSearch plus a dead port.

use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;

fn live() -> String {
    std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into())
}

/// Port 9 (discard): nothing listens, connections are refused.
const DEAD: &str = "http://127.0.0.1:9";

fn search(hosts: Vec<String>) -> Search {
    Search::new(&OpenSearchConfig { hosts, index_prefix: "failover".into(), ..Default::default() }).unwrap()
}

#[tokio::test]
async fn a_dead_node_costs_no_failed_request() {
    for hosts in [vec![DEAD.to_string(), live()], vec![live(), DEAD.to_string()]] {
        let search = search(hosts.clone());
        assert_eq!(search.node_count(), 2);
        for i in 0..6 {
            let answer = search.get("/_cluster/health").await;
            assert!(answer.is_ok(), "request {i} with {hosts:?}: {answer:?}");
        }
    }
}

#[tokio::test]
async fn every_node_down_is_one_unreachable_error_naming_them() {
    let search = search(vec![DEAD.to_string(), "http://127.0.0.1:1".to_string()]);
    let err = search.get("/").await.unwrap_err();
    assert!(err.is_unreachable(), "{err}");
    assert_eq!(search.host(), "http://127.0.0.1:9, http://127.0.0.1:1");
}

#[tokio::test]
async fn generation_settings_follow_the_config() {
    let auto = search(vec![live()]);
    let index = &auto.generation_settings()["settings"]["index"];
    assert_eq!(index["auto_expand_replicas"], "0-1");
    assert_eq!(index["number_of_shards"], 1);
    let fixed =
        Search::new(&OpenSearchConfig { hosts: vec![live()], shards: 2, replicas: Some(1), ..Default::default() })
            .unwrap();
    let index = &fixed.generation_settings()["settings"]["index"];
    assert_eq!((index["number_of_shards"].as_u64(), index["number_of_replicas"].as_u64()), (Some(2), Some(1)));
    assert_eq!(index["auto_expand_replicas"], false);
}
