#!/usr/bin/env bash
# What each field group added by word ranking and the one-call work costs on
# disk and in indexing time, and what it buys (issue 33, item 4).
#
#   bash bench/field_cost.sh [--only a,b] [--json out.json]
#
# Corpus: throughput.sh's: the python, java and javascript corpora of
# bench/corpora.sh (built when missing) and the JDK's java.base (a src.zip
# unzipped once into ${THROUGHPUT_CACHE:-~/.cache/vibe-bench/throughput}/
# java-base, shared with throughput.sh; FIELD_COST_JDK=0 leaves it out).
# One full `scan index --force --no-llm` under the prefix fieldcost
# (FIELD_COST_PREFIX) with VIBE_DUMP_BULK: the indexer's exact bulk bodies.
# bench/field_cost.py bulks those documents into a copy of each index per
# variant (the live settings and mapping less one field group, the documents
# less it too), two bodies in flight as the indexer sends them, over
# FIELD_COST_RUNS interleaved rounds (default 2; best time kept). Columns:
# - size MB: store size merged to one segment once `_recovery_source` is
#   pruned. OpenSearch keeps a document whose fields are left out of
#   `_source` once more, whole, as `_recovery_source`, until its retention
#   lease moves past it (after a flush, at the next lease sync, ~30 s) and a
#   merge rewrites its segment: the steady state, the same on every run.
# - as left MB: merged right after the bulk, as the indexer merges at the
#   alias swap, before the leases move: much `_recovery_source` stays, and
#   nothing merges a one-segment index again. Varies with timing (range).
# - bulk s: the posts and the final refresh, wall; shard s: the copies' own
#   indexing + refresh + merge time during the bulk (index stats, so other
#   users of the node do not count; CPU contention still does).
# - dev hit@3 / MRR: the questions in words of bench/concepts/dev.jsonl
#   whose project is indexed (python, java, javascript), run through the
#   stored search_code_symbols template on the copy, each scoped to its
#   project, with the gateway's 0.5 score cut (word fields only).
# - what it buys: a fixed text per group, from the search templates and the
#   gateway's tools.
# The prefix's indices, templates and stored scripts are deleted on exit.
# VIBE_BIN: a built binary (no cargo build). BENCH_QUIET_WAIT (60 s here):
# the longest wait for an idle machine before each timed bulk.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"
PREFIX="${FIELD_COST_PREFIX:-fieldcost}"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
JDK_CACHE="${THROUGHPUT_CACHE:-$HOME/.cache/vibe-bench/throughput}"
LANGS=(python java javascript)
need /usr/bin/time time

for l in "${LANGS[@]}"; do [ -f "$CORPORA/$l.origin" ] || bash "$ROOT/bench/corpora.sh" "$l"; done
PROJECTS=("${LANGS[@]/#/$CORPORA/}")

# java_base: the JDK's java.base sources as throughput.sh unzips them (the
# first src.zip found, or JDK_SRC_ZIP); echoes the directory, or nothing.
java_base() {
    local zip="${JDK_SRC_ZIP:-}" z
    if [ -z "$zip" ]; then
        for z in /usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip /usr/lib/jvm/*/lib/src.zip; do
            [ -f "$z" ] && { zip="$(readlink -f "$z")"; break; }
        done
    fi
    [ -n "$zip" ] || return 0
    mkdir -p "$JDK_CACHE"
    if [ "$(cat "$JDK_CACHE/java-base.origin" 2>/dev/null)" != "$zip" ]; then
        log "unzipping java.base/ of $zip"
        need unzip unzip
        rm -rf "$JDK_CACHE/java-base" "$JDK_CACHE/java-base.tmp" "$JDK_CACHE/java-base.origin"
        unzip -q "$zip" 'java.base/*' -d "$JDK_CACHE/java-base.tmp"
        mv "$JDK_CACHE/java-base.tmp/java.base" "$JDK_CACHE/java-base"
        rm -rf "$JDK_CACHE/java-base.tmp"
        echo "$zip" >"$JDK_CACHE/java-base.origin"
    fi
    echo "$JDK_CACHE/java-base"
}
if [ "${FIELD_COST_JDK:-1}" = 1 ]; then
    JB="$(java_base)"
    if [ -n "$JB" ]; then PROJECTS+=("$JB"); else log "no JDK src.zip found: java.base left out"; fi
fi
for p in "${PROJECTS[@]}"; do log "project $(basename "$p"): $(tree_summary "$p")"; done

private_binary
start_opensearch
CFG="$WORK/config"
make_config "$CFG" "$PREFIX"
drop_prefix "$PREFIX"
CLEANUPS+=("drop_prefix $PREFIX")
for p in "${PROJECTS[@]}"; do "$BIN" --config-dir "$CFG" source add "$p" >/dev/null; done
for p in "${PROJECTS[@]}"; do warm "$p"; done

# The full index that writes the dump; exit 2 (some files failed) is tolerated.
DUMP="$WORK/bulk.ndjson"
wait_quiet
c0="$(os_cpu)"; t0="$(date +%s%N)"; rc=0
VIBE_DUMP_BULK="$DUMP" /usr/bin/time -f '%U %S' -o "$WORK/scan.time" \
    "$BIN" --config-dir "$CFG" scan index --force --no-llm >"$WORK/scan.out" 2>"$WORK/scan.err" || rc=$?
t1="$(date +%s%N)"; c1="$(os_cpu)"
if [ "$rc" != 0 ]; then
    tail -n 20 "$WORK/scan.err" >&2
    [ "$rc" = 2 ] || { log "scan index failed (exit $rc)"; exit 1; }
    log "some files failed (exit 2), going on"
fi
SCAN="$(awk -v a="$t0" -v b="$t1" -v c0="$c0" -v c1="$c1" -v idle="$IDLE" \
    '{ printf "%.1f s wall, indexer CPU %.1f s, OpenSearch CPU %.1f s (%d %% idle before; dump written)", (b-a)/1e9, $1+$2, c1-c0, idle }' \
    <(tail -n1 "$WORK/scan.time"))"
log "$(tail -n1 "$WORK/scan.out"): $SCAN"
log "dump: $(($(stat -c %s "$DUMP") / 1048576)) MB"

echo
echo "== what each added field group costs and buys (issue 33, item 4) =="
echo "projects: $(for p in "${PROJECTS[@]}"; do printf '%s (%s) ' "$(basename "$p")" "$(tree_summary "$p")"; done)"
echo "binary built $BUILT; $(tail -n1 "$WORK/scan.out")"
(cd "$ROOT/bench" && python3 field_cost.py --dump "$DUMP" --prefix "$PREFIX" --url "$OS_URL" \
    --runs "${FIELD_COST_RUNS:-2}" --os-pid "${OS_PID:-0}" --quiet-wait "${BENCH_QUIET_WAIT:-60}" --scan "$SCAN" "$@")
machine_line "$LOAD0"
