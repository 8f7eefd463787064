#!/usr/bin/env bash
# Gateway latency benchmark: p50/p99 of each search tool through MCP against
# the same stored template called directly (_search/template), on an indexed
# large tree, and the gateway's added cost (target: <= 2 ms at p50).
#
#   bash bench/gateway_latency.sh [TREE] [ITERATIONS]
#
# TREE defaults to a copy of the Python standard library (without
# site-packages), indexed together with tests/fixtures/knowledge under the
# index prefix "bench" (incremental: a second run reuses the index).
# Needs OpenSearch (bash tests/opensearch/start.sh). Builds in release mode.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
iterations="${2:-300}"
os="${VIBE_OPENSEARCH_URL:-http://127.0.0.1:9200}"
work="${BENCH_DIR:-${TMPDIR:-/tmp}/vibe-bench}"
mkdir -p "$work"

tree="${1:-}"
if [[ -z "$tree" ]]; then
  stdlib="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
  tree="$work/python-stdlib"
  if [[ ! -d "$tree" ]]; then
    echo "copying $stdlib (without site-packages) to $tree"
    mkdir -p "$tree"
    (cd "$stdlib" && find . -path ./site-packages -prune -o -path '*/__pycache__' -prune -o -type f \( -name '*.py' -o -name '*.md' -o -name '*.txt' -o -name '*.rst' \) -print0 \
      | xargs -0 cp --parents -t "$tree")
  fi
fi
tree="$(cd "$tree" && pwd)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$work/config.json5" <<JSON
{ version: "0.1.0", opensearch: { host: "$os", index_prefix: "bench" }, mcp: { host: "127.0.0.1", port: $port },
  ollama: [], sources: ["$tree", "$repo/tests/fixtures/knowledge"] }
JSON

cd "$repo"
cargo build -q --release -p vibe-analyzer
cargo build -q --release -p vibe-gateway --example gateway_latency
bin="${CARGO_TARGET_DIR:-$repo/target}/release"

echo "indexing $tree ($(find "$tree" -type f | wc -l) files) ..."
"$bin/vibe-analyzer" --config-dir "$work" scan index --no-llm | tail -1

"$bin/vibe-analyzer" --config-dir "$work" serve start > "$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.1
done

"$bin/examples/gateway_latency" --url "http://127.0.0.1:$port/mcp" --config-dir "$work" --iterations "$iterations"
