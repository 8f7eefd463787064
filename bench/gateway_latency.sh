#!/usr/bin/env bash
# Gateway latency benchmark: p50/p99 of each search tool through MCP against
# the same stored template called directly (_search/template), on an indexed
# large tree, and the gateway's added cost (target: <= 2 ms at p50).
#
#   bash bench/gateway_latency.sh [TREE] [ITERATIONS]
#
# TREE defaults to the *.py, *.md, *.txt and *.rst files of the Python
# standard library (lib.sh's stdlib_copy_to: no site-packages, no
# __pycache__), copied once to $BENCH_DIR/python-stdlib and indexed together
# with tests/fixtures/knowledge under the index prefix "bench", config dir
# $BENCH_DIR (default $TMPDIR/vibe-bench; incremental: a second run reuses
# the copy and the index).
# Needs OpenSearch (bash tests/opensearch/start.sh). Builds in release mode.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
iterations="${2:-300}"
work="${BENCH_DIR:-${TMPDIR:-/tmp}/vibe-bench}"
mkdir -p "$work"

tree="${1:-}"
if [[ -z "$tree" ]]; then
  tree="$work/python-stdlib"
  if [[ ! -d "$tree" ]]; then
    log "copying the *.py, *.md, *.txt and *.rst files of $STDLIB to $tree"
    stdlib_copy_to "$tree.tmp" -name '*.py' -o -name '*.md' -o -name '*.txt' -o -name '*.rst'
    mv "$tree.tmp" "$tree"
  fi
fi
tree="$(cd "$tree" && pwd)"
cat > "$work/config.json5" <<JSON
{ version: "0.1.0", opensearch: { host: "$OS_URL", index_prefix: "bench" }, mcp: { host: "127.0.0.1", port: 9020 },
  ollama: [], sources: ["$tree", "$ROOT/tests/fixtures/knowledge"] }
JSON

cd "$ROOT"
cargo build -q --release -p vibe-analyzer
cargo build -q --release -p vibe-gateway --example gateway_latency
bin="${CARGO_TARGET_DIR:-$ROOT/target}/release"
BIN="$bin/vibe-analyzer"

echo "indexing $tree ($(find "$tree" -type f | wc -l) files) ..."
"$BIN" --config-dir "$work" scan index --no-llm | tail -1

serve_mcp "$work"
"$bin/examples/gateway_latency" --url "http://127.0.0.1:$PORT/mcp" --config-dir "$work" --iterations "$iterations"
