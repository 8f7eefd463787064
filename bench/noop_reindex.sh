#!/usr/bin/env bash
# No-op re-index (nothing changed since the last `scan index`) vs `b3sum` over
# the same files (issue 4). Indexes a copy of Python's standard library once
# into OpenSearch under a bench-only index prefix, then times `scan index
# --no-llm` again (best of $BENCH_RUNS, default 3) and b3sum.
#
#   bash bench/noop_reindex.sh
#
# Target: noop re-index / b3sum <= 2.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"
PREFIX="vibebench-noop"
need b3sum b3sum
need /usr/bin/time time
build
start_opensearch
drop_prefix "$PREFIX"
CLEANUPS+=("drop_prefix $PREFIX")

TREE="$(stdlib_copy stdlib)"
CFG="$WORK/config"
make_config "$CFG" "$PREFIX"
"$BIN" --config-dir "$CFG" source add "$TREE" >/dev/null

# The files the scanner reports: the walker's default exclusions (see
# ingest/src/scanner/walk.rs); the copy has no ignore files, symlinks or
# excluded directories.
( cd "$TREE" && find . -type f ! -name '*.log' ! -name '*.[Ll][Oo][Gg]' ! -iname '*.hprof' \
    ! -name .DS_Store ! -name Thumbs.db -print0 ) >"$WORK/files.lst"
NFILES="$(tr -cd '\0' <"$WORK/files.lst" | wc -c)"
warm "$TREE"

log "first index"
timed "$WORK/first.t" "$BIN" --config-dir "$CFG" scan index --no-llm
FIRST_LINE="$(grep '^[^ ]*: Scanned' "$WORK/cmd.err" || true)"
DOCS="$(curl -s "$OS_URL/${PREFIX}_files_*/_count" | python3 -c 'import json,sys;print(json.load(sys.stdin)["count"])')"

: >"$WORK/noop.t"; : >"$WORK/b3.t"
for ((i = 1; i <= RUNS; i++)); do
    log "run $i/$RUNS"
    timed "$WORK/noop.t" "$BIN" --config-dir "$CFG" scan index --no-llm
    NOOP_OUT="$(cat "$WORK/cmd.out")"
    NOOP_LINE="$(grep '^[^ ]*: Scanned' "$WORK/cmd.err" || true)"
    timed "$WORK/b3.t" bash -c 'cd "$1" && xargs -0 -a "$2" b3sum >/dev/null' _ "$TREE" "$WORK/files.lst"
done
case "$NOOP_OUT" in
    *"up to date"*) ;;
    *) log "the re-index was not a no-op: $NOOP_OUT"; exit 1 ;;
esac

T_NOOP="$(best "$WORK/noop.t")"; T_B3="$(best "$WORK/b3.t")"
C_NOOP="$(best_cpu "$WORK/noop.t")"; C_B3="$(best_cpu "$WORK/b3.t")"
R="$(ratio "$T_NOOP" "$T_B3")"; RC="$(ratio "$C_NOOP" "$C_B3")"
OK="$(awk -v r="$R" 'BEGIN{print (r <= 2) ? "met" : "MISSED"}')"

echo
echo "== no-op re-index vs b3sum (best of $RUNS) =="
echo "tree: Python stdlib copy, $(tree_summary "$TREE"); $NFILES files hashed by b3sum; $DOCS files in the index"
echo "first index:  ${FIRST_LINE:-?} ($(best "$WORK/first.t") s)"
echo "re-index:     ${NOOP_LINE:-?}"
echo "              $NOOP_OUT"
printf '%-34s %10s %10s %12s  %s\n' "run" "wall s" "CPU s" "peak RSS KB" "idle % before each run"
printf '%-34s %10s %10s %12s  %s\n' "scan index --no-llm (no-op)" "$T_NOOP" "$C_NOOP" "$(maxrss "$WORK/noop.t")" "$(idles "$WORK/noop.t")"
printf '%-34s %10s %10s %12s  %s\n' "b3sum (same files)" "$T_B3" "$C_B3" "$(maxrss "$WORK/b3.t")" "$(idles "$WORK/b3.t")"
printf '%-34s %10s %10s   target <= 2.00 (wall): %s\n' "ratio no-op / b3sum" "$R" "$RC" "$OK"
echo
machine_line "$LOAD0"
