#!/usr/bin/env bash
# No-op re-index (nothing changed since the last `scan index`) vs `b3sum` over
# the same files (issue 4). Indexes a copy of Python's standard library once
# into OpenSearch under a bench-only index prefix, then times `scan index
# --no-llm` again and b3sum (best of $BENCH_RUNS, default 3). The same on a
# tree of four copies shows which part of the cost is per run and which per file.
#
#   bash bench/noop_reindex.sh          (BENCH_X4=0 skips the four-copy tree)
#
# Target: no-op re-index / b3sum <= 2 (on the stdlib tree).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"
PREFIX="vibebench-noop"
need b3sum b3sum
need /usr/bin/time time
build
start_opensearch

TREE="$(stdlib_copy stdlib)"
TREES=("$TREE")
[ "${BENCH_X4:-1}" = 0 ] || TREES+=("$(four_copies "$TREE" stdlib4)")

ROWS=()
for tree in "${TREES[@]}"; do
    label="stdlib x1"; [ "$tree" = "$TREE" ] || label="stdlib x4"
    tag="${label// /_}"
    # One config (and index prefix) per tree: `scan index` removes projects
    # that are not in its config.
    cfg="$WORK/config-$tag"; prefix="$PREFIX-${tag#stdlib_}"
    make_config "$cfg" "$prefix"
    drop_prefix "$prefix"
    CLEANUPS+=("drop_prefix $prefix")
    "$BIN" --config-dir "$cfg" source add "$tree" >/dev/null
    # The files the scanner reports: the walker's default exclusions (see
    # ingest/src/scanner/walk.rs: the stdlib's own `venv` package is one); the
    # copy has no ignore files and no symlinks.
    (cd "$tree" && find . -type d \( -name target -o -name node_modules -o -name __pycache__ -o -name .venv \
        -o -name venv -o -name .git -o -name .idea \) -prune -o -type f ! -iname '*.log' ! -iname '*.hprof' \
        ! -name .DS_Store ! -name Thumbs.db -print0) >"$WORK/files-$tag.lst"
    nfiles="$(tr -cd '\0' <"$WORK/files-$tag.lst" | wc -c)"
    warm "$tree"

    log "$label: first index"
    : >"$WORK/first-$tag.t"
    timed "$WORK/first-$tag.t" "$BIN" --config-dir "$cfg" scan index --no-llm
    docs="$(curl -s "$OS_URL/${prefix}_data_files_*/_count" | python3 -c 'import json,sys;print(json.load(sys.stdin)["count"])')"

    : >"$WORK/noop-$tag.t"; : >"$WORK/b3-$tag.t"
    for ((i = 1; i <= RUNS; i++)); do
        log "$label: run $i/$RUNS"
        timed "$WORK/noop-$tag.t" "$BIN" --config-dir "$cfg" scan index --no-llm
        out="$(cat "$WORK/cmd.out")"
        case "$out" in
            *"up to date"*) ;;
            *) log "the re-index was not a no-op: $out"; exit 1 ;;
        esac
        line="$(grep ': Scanned' "$WORK/cmd.err" || true)"
        timed "$WORK/b3-$tag.t" bash -c 'cd "$1" && xargs -0 -a "$2" b3sum >/dev/null' _ "$tree" "$WORK/files-$tag.lst"
    done
    t_noop="$(best "$WORK/noop-$tag.t")"; t_b3="$(best "$WORK/b3-$tag.t")"
    c_noop="$(best_cpu "$WORK/noop-$tag.t")"; c_b3="$(best_cpu "$WORK/b3-$tag.t")"
    ROWS+=("$label|$(tree_summary "$tree"), $docs in the index, $nfiles hashed by b3sum; first index $(best "$WORK/first-$tag.t") s|$line|$t_noop|$c_noop|$(maxrss "$WORK/noop-$tag.t")|$(idles "$WORK/noop-$tag.t")|$t_b3|$c_b3|$(maxrss "$WORK/b3-$tag.t")|$(idles "$WORK/b3-$tag.t")")
done

echo
echo "== no-op re-index vs b3sum (best of $RUNS) =="
printf '%-34s %8s %8s %12s  %s\n' "run" "wall s" "CPU s" "peak RSS KB" "idle % before each run"
for row in "${ROWS[@]}"; do
    IFS='|' read -r label about line t_noop c_noop rss_noop idle_noop t_b3 c_b3 rss_b3 idle_b3 <<<"$row"
    r="$(ratio "$t_noop" "$t_b3")"; rc="$(ratio "$c_noop" "$c_b3")"
    echo "-- $label: $about"
    echo "   re-index: $line"
    printf '%-34s %8s %8s %12s  %s\n' "scan index --no-llm (no-op)" "$t_noop" "$c_noop" "$rss_noop" "$idle_noop"
    printf '%-34s %8s %8s %12s  %s\n' "b3sum (same files)" "$t_b3" "$c_b3" "$rss_b3" "$idle_b3"
    if [ "$label" = "stdlib x1" ]; then
        printf '%-34s %8s %8s   target <= 2.00 (wall): %s\n' "ratio no-op / b3sum" "$r" "$rc" \
            "$(awk -v r="$r" 'BEGIN{print (r <= 2) ? "met" : "MISSED"}')"
    else
        printf '%-34s %8s %8s\n' "ratio no-op / b3sum" "$r" "$rc"
    fi
done
echo
machine_line "$LOAD0"
