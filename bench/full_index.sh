#!/usr/bin/env bash
# Full index (`scan index --no-llm --force`) vs a raw `_bulk` of the same
# documents (issue 4), on a copy of Python's standard library, plus the peak
# RSS of the full index on the tree and on a tree of four copies of it.
#
#   bash bench/full_index.sh
#
# The raw side: the indexer's own documents, as `ingest/examples/bulk_bodies.rs`
# builds them with the indexer's code (`_source` no longer holds the
# match-only fields, so scrolling it back out would not give the same
# documents); bench/export_bulk.py
# points them at fresh indices created from the same templates, cut at the
# indexer's MAX_BULK_BYTES (5 MiB), and they are posted with curl one after
# the other (bench/raw_bulk.sh), once with the template's refresh interval
# and once with refresh off until the end; the faster of the two is the
# baseline.
#
# Targets: product docs/s / raw docs/s >= 0.8; peak RSS flat as the tree grows.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE="$ROOT/bench"

LOAD0="$(loadavg)"
PREFIX="vibebench-full"
PREFIX4="vibebench-full4"
MAX_BULK_BYTES="$(sed -n 's/^pub const MAX_BULK_BYTES: usize = \(.*\);/\1/p' "$ROOT/ingest/src/indexer/bulk.rs" | tr -d ' ')"
MAX_BULK_BYTES="$((MAX_BULK_BYTES))"
need /usr/bin/time time
build
start_opensearch
for p in "$PREFIX" "$PREFIX4"; do
    drop_prefix "$p"
    CLEANUPS+=("drop_prefix $p")
done

TREE="$(stdlib_copy stdlib)"
TREE4="$(four_copies "$TREE" stdlib4)"
CFG="$WORK/config"; CFG4="$WORK/config4"
make_config "$CFG" "$PREFIX"
make_config "$CFG4" "$PREFIX4"
"$BIN" --config-dir "$CFG" source add "$TREE" >/dev/null
"$BIN" --config-dir "$CFG4" source add "$TREE4" >/dev/null
warm "$TREE"

# Documents written, from the closing line of `scan index`.
written() { sed -n 's/.*Files: \([0-9]*\), Analysis: \([0-9]*\).*/\1 \2/p' "$WORK/cmd.out" | awk '{print $1 + $2}'; }

log "first index (installs the templates); the documents to $WORK/bulk.ndjson"
"$BIN" --config-dir "$CFG" scan index --no-llm >/dev/null 2>&1
"$BULK_BODIES" "$PREFIX" "$TREE" >"$WORK/bulk.ndjson"

: >"$WORK/full.t"
for ((i = 1; i <= RUNS; i++)); do
    log "full index run $i/$RUNS"
    timed "$WORK/full.t" "$BIN" --config-dir "$CFG" scan index --no-llm --force
    DOCS="$(written)"
    SCAN_LINE="$(grep '^[^ ]*: Scanned' "$WORK/cmd.err" || true)"
    [ -z "$(grep '^error:' "$WORK/cmd.err" || true)" ] || { log "indexing errors:"; grep '^error:' "$WORK/cmd.err" | head >&2; }
done

log "preparing the raw bodies from the indexer's documents"
RAW_FILES="${PREFIX}_data_files_rawbench_g0"
RAW_ANALYSIS="${PREFIX}_data_analysis_rawbench_g0"
RAW_DOCS="$(cd "$HERE" && python3 export_bulk.py "$WORK/bulk.ndjson" "$RAW_FILES" "$RAW_ANALYSIS" \
    "$WORK/chunks" "$MAX_BULK_BYTES")"
rm -f "$WORK/bulk.ndjson"
CHUNKS="$(ls "$WORK/chunks"/chunk-*.ndjson | wc -l)"
BYTES="$(cat "$WORK/chunks"/chunk-*.ndjson | wc -c)"

: >"$WORK/raw-on.t"; : >"$WORK/raw-off.t"
for ((i = 1; i <= RUNS; i++)); do
    log "raw _bulk run $i/$RUNS (refresh on, then off)"
    for mode in on off; do
        curl -s -o /dev/null -X DELETE "$OS_URL/$RAW_FILES,$RAW_ANALYSIS?ignore_unavailable=true"
        rm -f "$WORK/chunks"/response-*.json
        timed "$WORK/raw-$mode.t" bash "$HERE/raw_bulk.sh" "$OS_URL" "$RAW_FILES" "$RAW_ANALYSIS" "$WORK/chunks" "$mode"
        if grep -l '"errors":true' "$WORK/chunks"/response-*.json >/dev/null 2>&1; then
            log "raw _bulk reported item errors"; exit 1
        fi
    done
done
T_RAW_ON="$(best "$WORK/raw-on.t")"; T_RAW_OFF="$(best "$WORK/raw-off.t")"
# The raw baseline is the faster of the two refresh settings.
cat "$WORK/raw-on.t" "$WORK/raw-off.t" >"$WORK/raw.t"
RAW_COUNT="$(curl -s "$OS_URL/$RAW_FILES,$RAW_ANALYSIS/_count" | python3 -c 'import json,sys;print(json.load(sys.stdin)["count"])')"
curl -s -o /dev/null -X DELETE "$OS_URL/$RAW_FILES,$RAW_ANALYSIS?ignore_unavailable=true"

log "full index of four copies"
warm "$TREE4"
"$BIN" --config-dir "$CFG4" scan index --no-llm >/dev/null 2>&1
: >"$WORK/full4.t"
timed "$WORK/full4.t" "$BIN" --config-dir "$CFG4" scan index --no-llm --force
DOCS4="$(written)"

T_FULL="$(best "$WORK/full.t")"; T_RAW="$(best "$WORK/raw.t")"; T_FULL4="$(best "$WORK/full4.t")"
C_FULL="$(best_cpu "$WORK/full.t")"; C_RAW="$(best_cpu "$WORK/raw.t")"
O_FULL="$(best_os_cpu "$WORK/full.t")"; O_RAW="$(best_os_cpu "$WORK/raw.t")"; O_FULL4="$(best_os_cpu "$WORK/full4.t")"
RATE_FULL="$(awk -v d="$DOCS" -v t="$T_FULL" 'BEGIN{printf "%.0f", d/t}')"
RATE_RAW="$(awk -v d="$RAW_DOCS" -v t="$T_RAW" 'BEGIN{printf "%.0f", d/t}')"
RATE_FULL4="$(awk -v d="$DOCS4" -v t="$T_FULL4" 'BEGIN{printf "%.0f", d/t}')"
R="$(ratio "$RATE_FULL" "$RATE_RAW")"
RSS1="$(maxrss "$WORK/full.t")"; RSS4="$(maxrss "$WORK/full4.t")"; R_RSS="$(ratio "$RSS4" "$RSS1")"
# The indexer waits this long after an alias swap before it drops the old
# generation (only when there is one: every --force run here).
GRACE="$(sed -n 's/.*OLD_GENERATION_GRACE: .*from_secs(\([0-9]*\)).*/\1/p' "$ROOT/ingest/src/indexer/store.rs")"
GRACE="${GRACE:-0}"
CORES="$(nproc)"
FLOOR="$(awk -v a="$C_FULL" -v b="$O_FULL" -v n="$CORES" 'BEGIN{printf "%.2f", (a+b)/n}')"

echo
echo "== full index vs raw _bulk (best of $RUNS) =="
echo "tree: Python stdlib copy, $(tree_summary "$TREE")"
echo "index: ${SCAN_LINE:-?}"
echo "raw:   $RAW_DOCS documents ($RAW_COUNT after refresh), $CHUNKS bodies of <= $MAX_BULK_BYTES bytes (+ last document), $((BYTES / 1024 / 1024)) MB"
printf '%-32s %6s %7s %7s %7s %8s %11s  %s\n' "run" "docs" "wall s" "docs/s" "CPU s" "OS CPU s" "peak RSS KB" "idle % before each run"
printf '%-32s %6s %7s %7s %7s %8s %11s  %s\n' "scan index --no-llm --force" "$DOCS" "$T_FULL" "$RATE_FULL" "$C_FULL" "$O_FULL" "$RSS1" "$(idles "$WORK/full.t")"
printf '%-32s %6s %7s %7s %7s %8s %11s  %s\n' "raw _bulk with curl (best)" "$RAW_DOCS" "$T_RAW" "$RATE_RAW" "$C_RAW" "$O_RAW" "-" "$(idles "$WORK/raw.t")"
echo "  raw _bulk wall s with refresh on: $T_RAW_ON, with refresh off until the end: $T_RAW_OFF"
printf '%-32s %6s   target >= 0.80: %s\n' "ratio product / raw (docs/s)" "$R" "$(awk -v r="$R" 'BEGIN{print (r >= 0.8) ? "met" : "MISSED"}')"
echo "  the product's wall time includes its wait for reads on the old generation (none run here; at most ${GRACE} s);"
echo "  (product CPU + OpenSearch CPU) / $CORES cores = $FLOOR s: OpenSearch runs on the same cores as the indexer here."
echo
echo "== full index peak RSS =="
printf '%-32s %6s %7s %7s %8s %11s\n' "tree" "docs" "wall s" "docs/s" "OS CPU s" "peak RSS KB"
printf '%-32s %6s %7s %7s %8s %11s\n' "stdlib x1 ($(tree_summary "$TREE"))" "$DOCS" "$T_FULL" "$RATE_FULL" "$O_FULL" "$RSS1"
printf '%-32s %6s %7s %7s %8s %11s\n' "stdlib x4 ($(tree_summary "$TREE4"))" "$DOCS4" "$T_FULL4" "$RATE_FULL4" "$O_FULL4" "$RSS4"
printf '%-32s %6s   target: flat (<= 1.25): %s\n' "ratio RSS x4 / x1" "$R_RSS" "$(awk -v r="$R_RSS" 'BEGIN{print (r <= 1.25) ? "met" : "MISSED"}')"
echo
machine_line "$LOAD0"
