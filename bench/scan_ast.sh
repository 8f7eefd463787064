#!/usr/bin/env bash
# `scan ast` vs the parse-only floor vs universal-ctags, on a copy of Python's
# standard library (issue 3). Prints times (best of $BENCH_RUNS, default 3),
# the ratios (also the median of per-run ratios, scan and floor timed one
# right after the other: steadier when the host's speed drifts), and the peak
# RSS of `scan ast` on the tree and on a tree of four copies of it.
#
#   bash bench/scan_ast.sh
#
# Targets: scan_ast / parse_only <= 1.3; peak RSS flat as the tree grows.
# Then, when the corpora of bench/corpora.sh exist (VIBE_CORPORA), the same
# ratio per language on each corpus (best of $BENCH_RUNS; SCAN_AST_LANGS=0
# skips it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"
need ctags universal-ctags
need /usr/bin/time time
ctags --version | grep -q 'Universal Ctags' || { log "ctags is not universal-ctags"; exit 1; }
build

TREE="$(stdlib_copy stdlib)"
TREE4="$(four_copies "$TREE" stdlib4)"
log "tree: $TREE ($(tree_summary "$TREE")); x4: $(tree_summary "$TREE4")"
warm "$TREE"
CFG="$WORK/config"
mkdir -p "$CFG"
SCAN=("$BIN" --config-dir "$CFG" scan ast --format json --output "$WORK/ast.json" --target)
FLOOR=("$PARSE_ONLY")
CTAGS=(ctags -R -f "$WORK/tags")

# One warm-up run of each (the first `scan ast` also creates the config and
# identifies the licence, which later runs remember: timed apart), then the
# timed runs, interleaved so that a burst of load hits all three alike.
: >"$WORK/first.t"
timed "$WORK/first.t" "${SCAN[@]}" "$TREE"
"${FLOOR[@]}" "$TREE" >/dev/null
"${CTAGS[@]}" "$TREE"
: >"$WORK/scan.t"; : >"$WORK/floor.t"; : >"$WORK/ctags.t"
for ((i = 1; i <= RUNS; i++)); do
    log "run $i/$RUNS"
    # Each run writes a new file, as `scan ast` does by default (its output
    # name has a timestamp): replacing the previous 99 MB export would add
    # freeing its pages (~0.1 s) to the time of the scan.
    rm -f "$WORK/ast.json"; sync
    timed "$WORK/scan.t" "${SCAN[@]}" "$TREE"
    grep -q '^Scanned' "$WORK/cmd.err" && SCAN_LINE="$(grep '^Scanned' "$WORK/cmd.err")"
    timed "$WORK/floor.t" "${FLOOR[@]}" "$TREE"
    FLOOR_LINE="$(cat "$WORK/cmd.out")"
    timed "$WORK/ctags.t" "${CTAGS[@]}" "$TREE"
done
T_SCAN="$(best "$WORK/scan.t")"; T_FLOOR="$(best "$WORK/floor.t")"; T_CTAGS="$(best "$WORK/ctags.t")"
C_SCAN="$(best_cpu "$WORK/scan.t")"; C_FLOOR="$(best_cpu "$WORK/floor.t")"; C_CTAGS="$(best_cpu "$WORK/ctags.t")"
RSS1="$(maxrss "$WORK/scan.t")"
TAGS="$(grep -vc '^!_' "$WORK/tags" || true)"

log "scan ast on four copies"
warm "$TREE4"
: >"$WORK/scan4.t"
timed "$WORK/scan4.t" "${SCAN[@]}" "$TREE4"
T_SCAN4="$(best "$WORK/scan4.t")"; RSS4="$(maxrss "$WORK/scan4.t")"

verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN{ ok = (op == "<=") ? (v <= t) : (v >= t); print ok ? "met" : "MISSED" }'; }
R_FLOOR="$(ratio "$T_SCAN" "$T_FLOOR")"
R_CTAGS="$(ratio "$T_SCAN" "$T_CTAGS")"
RC_FLOOR="$(ratio "$C_SCAN" "$C_FLOOR")"
RC_CTAGS="$(ratio "$C_SCAN" "$C_CTAGS")"
R_RSS="$(ratio "$RSS4" "$RSS1")"

echo
echo "== scan ast vs parse-only vs ctags (best of $RUNS, wall seconds) =="
echo "tree: Python $(python3 -c 'import sys;print(sys.version.split()[0])') stdlib copy, $(tree_summary "$TREE")"
echo "scan ast:   ${SCAN_LINE:-?}"
echo "parse_only: $FLOOR_LINE"
echo "ctags:      $TAGS tags"
printf '%-34s %10s %10s  %s\n' "tool" "wall s" "CPU s" "idle % before each run"
printf '%-34s %10s %10s  %s\n' "vibe-analyzer scan ast (json)" "$T_SCAN" "$C_SCAN" "$(idles "$WORK/scan.t")"
printf '%-34s %10s %10s  %s\n' "  first run, new config dir" "$(best "$WORK/first.t")" "$(best_cpu "$WORK/first.t")" "$(idles "$WORK/first.t")"
printf '%-34s %10s %10s  %s\n' "parse_only (floor)" "$T_FLOOR" "$C_FLOOR" "$(idles "$WORK/floor.t")"
printf '%-34s %10s %10s  %s\n' "ctags -R (one thread)" "$T_CTAGS" "$C_CTAGS" "$(idles "$WORK/ctags.t")"
printf '%-34s %10s %10s   target <= 1.30 (wall): %s\n' "ratio scan_ast / parse_only" "$R_FLOOR" "$RC_FLOOR" "$(verdict "$R_FLOOR" 1.3 '<=')"
R_PAIRED="$(paired_median "$WORK/scan.t" "$WORK/floor.t")"
printf '%-34s %10s %10s   target <= 1.30 (wall): %s\n' "  median of paired runs" "$R_PAIRED" "" "$(verdict "$R_PAIRED" 1.3 '<=')"
printf '%-34s %10s %10s\n' "ratio scan_ast / ctags" "$R_CTAGS" "$RC_CTAGS"
echo
echo "== scan ast peak RSS =="
printf '%-34s %10s %12s\n' "tree" "wall s" "peak RSS KB"
printf '%-34s %10s %12s\n' "stdlib x1 ($(tree_summary "$TREE"))" "$T_SCAN" "$RSS1"
printf '%-34s %10s %12s\n' "stdlib x4 ($(tree_summary "$TREE4"))" "$T_SCAN4" "$RSS4"
printf '%-34s %10s   target: flat (<= 1.25): %s\n' "ratio RSS x4 / x1" "$R_RSS" "$(verdict "$R_RSS" 1.25 '<=')"
echo
machine_line "$LOAD0"

CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
[ "${SCAN_AST_LANGS:-1}" = 1 ] && [ -d "$CORPORA" ] || exit 0
echo
echo "== per language: scan ast vs parse-only on the corpora of bench/corpora.sh (best of $RUNS) =="
printf '%-11s %7s %7s  %18s  %18s  %6s %6s %7s\n' "language" "files" "MB" "scan ast wall/CPU" "parse_only wall/CPU" "wall" "CPU" "paired"
for dir in "$CORPORA"/*/; do
    lang="$(basename "$dir")"
    warm "$dir"
    : >"$WORK/l_scan.t"; : >"$WORK/l_floor.t"
    for ((i = 1; i <= RUNS; i++)); do
        rm -f "$WORK/ast.json"; sync
        timed "$WORK/l_scan.t" "${SCAN[@]}" "$dir"
        timed "$WORK/l_floor.t" "${FLOOR[@]}" "$dir"
    done
    ws="$(best "$WORK/l_scan.t")"; cs="$(best_cpu "$WORK/l_scan.t")"
    wf="$(best "$WORK/l_floor.t")"; cf="$(best_cpu "$WORK/l_floor.t")"
    printf '%-11s %7s %7s  %18s  %18s  %6s %6s %7s\n' "$lang" "$(find "$dir" -type f | wc -l)" \
        "$(du -sm "$dir" | cut -f1)" "$ws / $cs" "$wf / $cf" "$(ratio "$ws" "$wf")" "$(ratio "$cs" "$cf")" \
        "$(paired_median "$WORK/l_scan.t" "$WORK/l_floor.t")"
done
echo
machine_line "$LOAD0"
