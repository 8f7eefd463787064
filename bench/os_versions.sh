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
# Then bench/full_index.sh (full index of a Python stdlib copy against a raw
# _bulk of the same documents) once on each node, 2.19.6 first, and one line of
# ratios; OS_VERSIONS_FULL_INDEX=0 skips it (its BENCH_RUNS: OS_VERSIONS_FULL_RUNS, 2).
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
    bash "$ROOT/bench/throughput.sh"
[ "${OS_VERSIONS_FULL_INDEX:-1}" = 1 ] || exit 0

OUT="$(mktemp -d "${TMPDIR:-/tmp}/vibe-os-versions.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
for vp in "$V2:$P2" "$V3:$P3"; do
    log "bench/full_index.sh on OpenSearch ${vp%%:*}"
    VIBE_OPENSEARCH_URL="http://127.0.0.1:${vp##*:}" BENCH_RUNS="${OS_VERSIONS_FULL_RUNS:-2}" \
        bash "$ROOT/bench/full_index.sh" | tee "$OUT/${vp%%:*}.txt"
done
# "wall docs/s" of a row of full_index.sh's table (a 32-character label, then docs, wall s, docs/s ...)
row() { awk -v r="$2" 'index($0, r) == 1 { split(substr($0, 34), f, " "); print f[2], f[3] }' "$OUT/$1.txt" | head -n1; }
read -r w2 d2 < <(row "$V2" "scan index --no-llm --force")
read -r w3 d3 < <(row "$V3" "scan index --no-llm --force")
read -r rw2 rd2 < <(row "$V2" "raw _bulk with curl (best)")
read -r rw3 rd3 < <(row "$V3" "raw _bulk with curl (best)")
echo
echo "== full index (bench/full_index.sh), OpenSearch $V3 against $V2 =="
printf '%-30s %9s %9s %7s\n' "" "$V2" "$V3" "$V3/$V2"
for r in "full index wall s:$w2:$w3" "full index docs/s:$d2:$d3" "raw _bulk wall s:$rw2:$rw3" "raw _bulk docs/s:$rd2:$rd3"; do
    IFS=: read -r label a b <<<"$r"
    printf '%-30s %9s %9s %7s\n' "$label" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')"
done
