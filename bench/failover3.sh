#!/usr/bin/env bash
# Any one node of three may die (issue 25): a three-node cluster from
# tests/opensearch/start.sh (OPENSEARCH_NODES=3, HTTP ports $PORT..$PORT+2),
# and the elected cluster manager killed (SIGKILL) three times:
#   1. during a full `scan index` of $VIBE_FAILOVER3_FILES files (default
#      5,000): the run completes, or fails clearly and the rerun converges
#      (every file once, with its current content, nothing stale);
#   2. during continuous MCP tool calls (7 tools round-robin, 30 s): 0 failed
#      calls, each answer as before the kill;
#   3. during `scan watch`: a change made right after the kill is searchable
#      once a new manager is elected.
# After each kill the node is restarted and the cluster must be green with
# one started replica per primary.
#
#   bash bench/failover3.sh        (VIBE_FAILOVER3_PORT=9270, OPENSEARCH_HEAP=512m)
#
# The tests are the #[ignore]d ones in cli/tests/it/failover3.rs and
# gateway/tests/it/failover3.rs; this script starts the cluster once (fresh),
# runs them, prints their "failover3:" lines and stops the cluster. Too slow
# for scripts/test.sh (three JVMs on a 2-core machine: ~5 minutes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export VIBE_FAILOVER3_PORT="${VIBE_FAILOVER3_PORT:-9270}"
export VIBE_FAILOVER3_HOME="${VIBE_FAILOVER3_HOME:-${TMPDIR:-/tmp}/vibe-os-failover3}"
export OPENSEARCH_HEAP="${OPENSEARCH_HEAP:-512m}"
LOG="${VIBE_FAILOVER3_LOG:-${TMPDIR:-/tmp}/vibe-failover3.log}"

cluster() {
    OPENSEARCH_PORT="$VIBE_FAILOVER3_PORT" OPENSEARCH_NODES=3 VIBE_OS_HOME="$VIBE_FAILOVER3_HOME" \
        OPENSEARCH_FRESH="${FRESH:-0}" bash tests/opensearch/start.sh "$1"
}
trap 'cluster stop >/dev/null 2>&1 || true' EXIT

echo "[failover3] building the tests" >&2
cargo test -q -p vibe-analyzer --test it --no-run 2>/dev/null
cargo test -q -p vibe-gateway --test it --no-run 2>/dev/null
t0=$SECONDS
FRESH=1 cluster start
echo "[failover3] cluster of 3 up in $((SECONDS - t0)) s" >&2
: >"$LOG"
rc=0
for spec in "vibe-analyzer failover3::full_index" "vibe-gateway failover3::" "vibe-analyzer failover3::watch"; do
    set -- $spec
    echo "[failover3] cargo test -p $1 --test it $2 -- --ignored" >&2
    if ! cargo test -q -p "$1" --test it "$2" -- --ignored --nocapture --test-threads 1 >>"$LOG" 2>&1; then
        echo "[failover3] FAILED: $1 $2 (log: $LOG)" >&2
        rc=1
    fi
done
grep -E '^failover3:|test result|panicked' "$LOG" || true
echo "[failover3] total $((SECONDS - t0)) s; full log: $LOG" >&2
exit "$rc"
