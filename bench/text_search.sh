#!/usr/bin/env bash
# search_code_text vs ripgrep on the same files (issue 13), and what its
# `grams` field costs the index.
#
#   bash bench/text_search.sh [--json out.json] [--misses N] [--show-answer]
#
# 1. Index cost. The corpus (below) and, unless BENCH_STDLIB=0, the Python
#    standard library copy of bench/full_index.sh are fully indexed
#    (`scan index --no-llm --force`, BENCH_RUNS times each, best wall time)
#    with the files mapping as it was before (no `grams` field, no index
#    sort: bench/text_search.py old-template, installed under the bench
#    prefix with a version above the build's, so that the installer keeps it;
#    the indexer run with VIBE_BENCH_NO_GRAMS=1, so it computes and sends no
#    grams either) and with the shipped one. After each mapping the files indices are
#    force-merged and measured: store bytes per source byte.
# 2. Queries. A few hundred literal snippets sampled from the indexed files
#    (identifiers, string fragments, punctuation-heavy lines, multi-word
#    phrases; some case-insensitive, some with a path glob or a language)
#    and ~30 regexes, through MCP (`serve start`, one session), against
#    `rg -F` / `rg -e` with the same -i / -g options over the same trees:
#    recall and precision of files and of (file, line) pairs, totals, and
#    p50/p95 latency next to rg's time (bench/text_search.py run).
#
# Env: TEXT_CAP (files per project, default 600: ~3,000 files over python,
# java, javascript, go and rust from bench/corpora.sh), TEXT_N (literal
# snippets, default 320), TEXT_SEED (default 1), BENCH_RUNS (default 3),
# BENCH_STDLIB=0 (skip the stdlib index timing), TEXT_COST=0 (skip the
# index cost part: one index, then the queries), VIBE_BIN (a built
# vibe-analyzer: no cargo build).
# Needs OpenSearch (started or reused with tests/opensearch/start.sh); index
# prefixes vibebench-text and vibebench-textlib, dropped on exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
LOAD0="$(loadavg)"
PREFIX="vibebench-text"
PREFIX_LIB="vibebench-textlib"
PY="$ROOT/bench/text_search.py"
need rg ripgrep
need /usr/bin/time time

private_binary
start_opensearch
mcp_venv
if [ ! -f "${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}/go.origin" ]; then
    log "preparing the corpora (bench/corpora.sh)"
    bash "$ROOT/bench/corpora.sh" >&2
fi

log "preparing the corpus"
mapfile -t PROJECTS < <(python3 "$ROOT/bench/relevance.py" corpus --out "$WORK/projects" --cap "${TEXT_CAP:-600}")
[ "${#PROJECTS[@]}" -gt 0 ] || { log "no project"; exit 1; }

# setup CFG PREFIX DIR...: a config with its own prefix and these sources.
setup() {
    local cfg="$1" prefix="$2"; shift 2
    make_config "$cfg" "$prefix"
    drop_prefix "$prefix"
    CLEANUPS+=("drop_prefix $prefix")
    for p in "$@"; do "$BIN" --config-dir "$cfg" source add "$p" >/dev/null; warm "$p"; done
}

# mapping PREFIX old|new: the files index template the next full index uses.
mapping() {
    local prefix="$1" which="$2"
    if [ "$which" = old ]; then
        python3 "$PY" old-template --prefix "$prefix" --out "$WORK/old-template.json"
        curl -s -o /dev/null -f -X PUT "$OS_URL/_index_template/${prefix}_files" \
            -H 'content-type: application/json' --data-binary @"$WORK/old-template.json"
    else
        # The next run installs the shipped template.
        curl -s -o /dev/null -X DELETE "$OS_URL/_index_template/${prefix}_files"
    fi
}

# cost NAME CFG PREFIX: full index times and store sizes with both mappings.
cost() {
    local name="$1" cfg="$2" prefix="$3" which i
    log "$name: first index (installs the templates)"
    "$BIN" --config-dir "$cfg" scan index --no-llm >/dev/null 2>&1 || true
    for which in old new; do : >"$WORK/$name-$which.t"; done
    for ((i = 1; i <= RUNS; i++)); do
        for which in old new; do
            mapping "$prefix" "$which"
            log "$name: full index, $which mapping, run $i/$RUNS"
            # Before search_code_text the indexer sent no grams either.
            if [ "$which" = old ]; then export VIBE_BENCH_NO_GRAMS=1; else unset VIBE_BENCH_NO_GRAMS; fi
            timed "$WORK/$name-$which.t" "$BIN" --config-dir "$cfg" scan index --no-llm --force
            unset VIBE_BENCH_NO_GRAMS
            [ -z "$(grep '^error:' "$WORK/cmd.err" || true)" ] || { log "indexing errors:"; grep '^error:' "$WORK/cmd.err" | head >&2; }
            if [ "$i" = 1 ]; then
                curl -s "$OS_URL/${prefix}_data_files_*/_mapping" | grep -q '"grams":{' && has=1 || has=0
                [ "$which:$has" = "old:0" ] || [ "$which:$has" = "new:1" ] || { log "$which mapping not in effect"; exit 1; }
                python3 "$PY" store --opensearch "$OS_URL" --prefix "$prefix" >"$WORK/$name-$which.store"
            fi
        done
    done
    mapping "$prefix" new
    python3 - "$name" "$WORK/$name-old.t" "$WORK/$name-new.t" "$WORK/$name-old.store" "$WORK/$name-new.store" <<'EOF' >>"$WORK/cost.md"
import json, sys
name, told, tnew, sold, snew = sys.argv[1:]
def runs(p): return [list(map(float, l.split())) for l in open(p) if l.strip()]
o, n = runs(told), runs(tnew)
bo, bn = min(r[0] for r in o), min(r[0] for r in n)
co, cn = min(r[2] for r in o), min(r[2] for r in n)
oo, on = min(r[4] for r in o), min(r[4] for r in n)
so, sn = json.load(open(sold)), json.load(open(snew))
src = sn["source_bytes"]
print(f"| {name} | {sn['docs']:,} files, {src / 1e6:.1f} MB | {bo:.2f} s / {bn:.2f} s = **{bn / bo:.2f}** | "
      f"{co:.1f} / {cn:.1f} | {oo:.1f} / {on:.1f} | {so['store_bytes'] / 1e6:.1f} MB / {sn['store_bytes'] / 1e6:.1f} MB | "
      f"{so['store_bytes'] / src:.2f} / {sn['store_bytes'] / src:.2f} (+{(sn['store_bytes'] - so['store_bytes']) / src:.2f}) | "
      f"{'/'.join(str(int(r[3])) for r in o + n)} |")
EOF
}

: >"$WORK/cost.md"
CFG="$WORK/config"
setup "$CFG" "$PREFIX" "${PROJECTS[@]}"
if [ "${TEXT_COST:-1}" != 0 ]; then
    cost corpus "$CFG" "$PREFIX"
fi
if [ "${TEXT_COST:-1}" != 0 ] && [ "${BENCH_STDLIB:-1}" != 0 ]; then
    TREE="$(stdlib_copy stdlib)"
    setup "$WORK/config-lib" "$PREFIX_LIB" "$TREE"
    cost stdlib "$WORK/config-lib" "$PREFIX_LIB"
    drop_prefix "$PREFIX_LIB"
fi
log "final index of the corpus with the shipped mapping"
"$BIN" --config-dir "$CFG" scan index --no-llm --force >"$WORK/index.out" 2>"$WORK/index.err" || { tail -n 5 "$WORK/index.err" >&2; }

serve_mcp "$CFG"

BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-60}" wait_quiet
IDLE_Q="$IDLE"
"$VENV/bin/python" "$PY" run --url "http://127.0.0.1:$PORT/mcp" --opensearch "$OS_URL" --prefix "$PREFIX" "$@" "${PROJECTS[@]}"

echo
echo "Index cost: full index (\`scan index --no-llm --force\`, best of $RUNS) and files-index store (force-merged), before / after the \`grams\` field:"
echo
echo "| tree | indexed | full index, before / after = ratio | indexer CPU s | OpenSearch CPU s | files index store | store / source bytes | CPU idle % before runs |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
cat "$WORK/cost.md"
echo
machine_line "$LOAD0"
echo "CPU idle before the queries: ${IDLE_Q}%; binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "run time: $((SECONDS - T0)) s"
