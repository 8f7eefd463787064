#!/usr/bin/env bash
# find_references against a regex oracle, and what references cost the full
# index (issue 13).
#
#   bash bench/references.sh [--json out.json] [--misses N]
#
# 1. Copies up to REFS_CAP (default 600) files of each corpus of
#    bench/corpora.sh (REFS_LANGS, default python java javascript typescript
#    go rust kotlin csharp; a missing one is built by corpora.sh first),
#    indexes them under the prefix vibebench-refs (dropped on exit), and
#    scores find_references against the oracle of bench/references.py
#    (recall of the calling files among the first 10 results, target >= 0.95;
#    precision: returned files that never use the name; p50/p95 latency of
#    the stored template). When the MCP server lists find_references and
#    answers it, the same look-ups go through tools/call too.
# 2. Times `scan index --no-llm --force` on a copy of Python's standard
#    library (the tree of full_index.sh) with the product's query files and
#    with the same files without their `@reference.*` patterns
#    (VIBE_QUERY_DIR), interleaved, best of BENCH_RUNS (default 3), and
#    prints the ratio (target <= 1.3) and the index sizes.
#
# Env: REFS_N (names per language, default 100), REFS_SEED, REFS_CAP,
# REFS_LANGS, REFS_SKIP_TIME=1 (no index timing), VIBE_BIN (a built
# vibe-analyzer: no cargo build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
PREFIX="vibebench-refs"
PREFIX_T="vibebench-refst"
VENV="$ROOT/tests/mcp/.venv"
need ctags universal-ctags
need /usr/bin/time time
ctags --version 2>/dev/null | grep -q 'Universal Ctags' || { log "ctags is not universal-ctags"; exit 1; }

private_binary
start_opensearch
VERSION="$(sed -n 's/^pub const TEMPLATE_VERSION: u64 = \([0-9]*\);/\1/p' "$ROOT/common/src/backend/templates.rs")"

log "preparing the corpus"
mapfile -t PROJECTS < <(python3 "$ROOT/bench/references.py" corpus --out "$WORK/projects")
[ "${#PROJECTS[@]}" -gt 0 ] || { log "no corpus (bench/corpora.sh failed)"; exit 1; }

CFG="$WORK/config"
index_projects "$CFG" "$PREFIX" "${PROJECTS[@]}"

# MCP, when a Python with the SDK is there (the gateway may not have the tool yet).
MCP_ARGS=()
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import mcp' 2>/dev/null; then
    serve_mcp "$CFG"
    MCP_ARGS=(--mcp "http://127.0.0.1:$PORT/mcp")
    PY="$VENV/bin/python"
else
    log "no MCP SDK in $VENV: the template only"
    PY=python3
fi

BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-60}" wait_quiet
log "CPU idle before the look-ups: ${IDLE}%"
LOAD0="$(loadavg)"
"$PY" "$ROOT/bench/references.py" run --opensearch "$OS_URL" --prefix "$PREFIX" --version "$VERSION" \
    --work "$WORK/run" "${MCP_ARGS[@]}" "$@" "${PROJECTS[@]}"
echo "CPU idle before the look-ups: ${IDLE}%"

if [ "${REFS_SKIP_TIME:-0}" != 1 ]; then
    # The product's query files without their reference patterns.
    NOREFS="$WORK/queries-norefs"
    mkdir -p "$NOREFS"
    python3 "$ROOT/bench/references.py" norefs "$ROOT/ingest/queries" "$NOREFS"
    TREE="$(stdlib_copy stdlib)"
    CFGT="$WORK/config-time"
    make_config "$CFGT" "$PREFIX_T"
    drop_prefix "$PREFIX_T"
    CLEANUPS+=("drop_prefix $PREFIX_T")
    "$BIN" --config-dir "$CFGT" source add "$TREE" >/dev/null
    warm "$TREE"
    "$BIN" --config-dir "$CFGT" scan index --no-llm >/dev/null 2>&1
    : >"$WORK/with.t"; : >"$WORK/without.t"
    # Bytes and documents (nested ones included) of the analysis index, once
    # merged into one segment and the old segments gone.
    size_of() {
        curl -s -o /dev/null -X POST "$OS_URL/${PREFIX_T}_data_analysis_*/_flush"
        curl -s -o /dev/null -X POST "$OS_URL/${PREFIX_T}_data_analysis_*/_forcemerge?max_num_segments=1"
        sleep 5
        curl -s "$OS_URL/_cat/segments/${PREFIX_T}_data_analysis_*?bytes=b&h=size,docs.count" | awk '{s+=$1; d+=$2} END {printf "%d %d", s, d}'
    }
    for ((i = 1; i <= RUNS; i++)); do
        log "full index run $i/$RUNS: without references, then with"
        VIBE_QUERY_DIR="$NOREFS" timed "$WORK/without.t" "$BIN" --config-dir "$CFGT" scan index --no-llm --force
        SIZE_WITHOUT="$(size_of)"
        timed "$WORK/with.t" "$BIN" --config-dir "$CFGT" scan index --no-llm --force
        SIZE_WITH="$(size_of)"
    done
    T_WITH="$(best "$WORK/with.t")"; T_WITHOUT="$(best "$WORK/without.t")"
    C_WITH="$(best_cpu "$WORK/with.t")"; C_WITHOUT="$(best_cpu "$WORK/without.t")"
    O_WITH="$(best_os_cpu "$WORK/with.t")"; O_WITHOUT="$(best_os_cpu "$WORK/without.t")"
    R="$(ratio "$T_WITH" "$T_WITHOUT")"
    echo
    echo "== full index (scan index --no-llm --force), with and without references (best of $RUNS) =="
    echo "tree: Python stdlib copy, $(tree_summary "$TREE")"
    printf '%-22s %8s %8s %10s %15s %10s  %s\n' "run" "wall s" "CPU s" "OS CPU s" "analysis bytes" "Lucene docs" "idle % before each run"
    printf '%-22s %8s %8s %10s %15s %10s  %s\n' "without references" "$T_WITHOUT" "$C_WITHOUT" "$O_WITHOUT" "${SIZE_WITHOUT%% *}" "${SIZE_WITHOUT##* }" "$(idles "$WORK/without.t")"
    printf '%-22s %8s %8s %10s %15s %10s  %s\n' "with references" "$T_WITH" "$C_WITH" "$O_WITH" "${SIZE_WITH%% *}" "${SIZE_WITH##* }" "$(idles "$WORK/with.t")"
    printf '%-28s %8s   target <= 1.30: %s\n' "ratio with / without (wall)" "$R" "$(awk -v r="$R" 'BEGIN{print (r <= 1.3) ? "met" : "MISSED"}')"
    echo "  analysis index (force-merged) with / without: $(ratio "${SIZE_WITH%% *}" "${SIZE_WITHOUT%% *}")"
fi
echo
machine_line "$LOAD0"
echo "binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD) (+ working tree); run time: $((SECONDS - T0)) s"
