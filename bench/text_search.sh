#!/usr/bin/env bash
# search_code_text vs ripgrep on the same files (issue 13).
#
#   bash bench/text_search.sh [--json out.json] [--misses N] [--show-answer]
#
# A few hundred literal snippets sampled from the indexed files
# (identifiers, string fragments, punctuation-heavy lines, multi-word
# phrases; some case-insensitive, some with a path glob or a language) and
# ~30 regexes, through MCP (`serve start`, one session), against `rg -F` /
# `rg -e` with the same -i / -g options over the same trees: recall and
# precision of files and of (file, line) pairs, totals, and p50/p95 latency
# next to rg's time (bench/text_search.py run). What the `grams` field cost
# the index was measured once, against the mapping before it (git show
# d91b8e0:bench/text_search.sh; the figures: bench/README.md).
#
# Env: TEXT_CAP (files per project, default 600: ~3,000 files over python,
# java, javascript, go and rust from bench/corpora.sh), TEXT_N (literal
# snippets, default 320), TEXT_SEED (default 1), VIBE_BIN (a built
# vibe-analyzer: no cargo build).
# Needs OpenSearch (started or reused with tests/opensearch/start.sh); index
# prefix vibebench-text, dropped on exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
LOAD0="$(loadavg)"
PREFIX="vibebench-text"
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

CFG="$WORK/config"
setup "$CFG" "$PREFIX" "${PROJECTS[@]}"
log "indexing the corpus"
"$BIN" --config-dir "$CFG" scan index --no-llm --force >"$WORK/index.out" 2>"$WORK/index.err" || { tail -n 5 "$WORK/index.err" >&2; }

serve_mcp "$CFG"

BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-60}" wait_quiet
IDLE_Q="$IDLE"
"$VENV/bin/python" "$PY" run --url "http://127.0.0.1:$PORT/mcp" --opensearch "$OS_URL" --prefix "$PREFIX" "$@" "${PROJECTS[@]}"

echo
machine_line "$LOAD0"
echo "CPU idle before the queries: ${IDLE_Q}%; binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "run time: $((SECONDS - T0)) s"
