#!/usr/bin/env bash
# The same release binary on OpenSearch 2.19.6 ("base") and 3.9.0 ("new"),
# paired in one run of bench/throughput.sh on the same corpora: MCP name
# look-ups (1 client p50, 32 clients req/s) and the full index, reported as
# ratios 3.9.0 / 2.19.6.
#
#   bash bench/os_versions.sh
#
# Starts (or reuses) one node of each version with tests/opensearch/start.sh,
# both with the same heap, on their own ports and home (OS_VERSIONS_PORT_2,
# default 9402; OS_VERSIONS_PORT_3, default 9403; OS_VERSIONS_HOME, default
# ~/.cache/vibe-bench/os-versions), never the shared node on 9200, and leaves
# them running. The binary: $VIBE_BIN as it is, else `cargo build --release`
# of the working tree. Every knob of bench/throughput.sh applies
# (BENCH_RUNS, THROUGHPUT_INDEX_RUNS, THROUGHPUT_DURATION, BENCH_QUIET_WAIT ...).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
V2="${OS_VERSIONS_V2:-2.19.6}"
V3="${OS_VERSIONS_V3:-3.9.0}"
P2="${OS_VERSIONS_PORT_2:-9402}"
P3="${OS_VERSIONS_PORT_3:-9403}"
HOME_DIR="${OS_VERSIONS_HOME:-${HOME:-/tmp}/.cache/vibe-bench/os-versions}"
log() { echo "[bench] $*" >&2; }

mkdir -p "$HOME_DIR"
for vp in "$V2:$P2" "$V3:$P3"; do
    OPENSEARCH_VERSION="${vp%%:*}" OPENSEARCH_PORT="${vp##*:}" VIBE_OS_HOME="$HOME_DIR" \
        bash "$ROOT/tests/opensearch/start.sh" start
done

if [ -z "${VIBE_BIN:-}" ]; then
    log "building the release binary"
    (cd "$ROOT" && cargo build --release -q -p vibe-analyzer --bin vibe-analyzer)
    VIBE_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/vibe-analyzer"
fi
log "one binary, $VIBE_BIN: base = OpenSearch $V2 on :$P2, new = OpenSearch $V3 on :$P3"
VIBE_BIN="$VIBE_BIN" VIBE_BASE_BIN="$VIBE_BIN" \
    THROUGHPUT_OS_base="http://127.0.0.1:$P2" THROUGHPUT_OS_new="http://127.0.0.1:$P3" \
    exec bash "$ROOT/bench/throughput.sh"
