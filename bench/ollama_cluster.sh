#!/usr/bin/env bash
# Ollama cluster throughput: two scripted Ollama-compatible hosts with the same
# fixed latency against one such host; prints the throughput ratio (target >= 1.9x).
# No real Ollama is needed: the hosts are local scripted servers.
#
#   bash bench/ollama_cluster.sh [--files N] [--latency-ms MS] [--chunk-files N]
#
# Exits 1 when the ratio is below 1.9.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release --quiet -p vibe-analyzer --example ollama_cluster_bench -- "$@"
