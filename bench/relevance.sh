#!/usr/bin/env bash
# Relevance + latency + answer size of the code searches through MCP
# (search_by_code_functions / _classes / _variables), with a whole-word grep
# baseline on the same queries in the same run. The oracle is universal-ctags:
# the relevant files of a look-up are those where ctags defines the name with
# a kind of that tool.
#
#   bash bench/relevance.sh [--json out.json] [--misses N] [--show-answer]
#
# Env: RELEVANCE_PROJECTS="dir1 dir2 ..." (default: the corpora of
# RELEVANCE_LANGS, default python java javascript go rust, under
# ${VIBE_CORPORA:-~/.cache/vibe-bench/corpora}; a missing one is built by
# bench/corpora.sh), RELEVANCE_CAP (files per project, default 700),
# RELEVANCE_N (names per tool and language, default 100), RELEVANCE_SEED
# (default 1), RELEVANCE_LIMIT (a limit to pass; default: the tool's own),
# VIBE_BIN (a built vibe-analyzer: no cargo build, e.g. while others hold the
# build lock).
# RELEVANCE_PREFIX (default vibebench-rel): the index prefix.
# Needs OpenSearch (started or reused with tests/opensearch/start.sh); builds
# the release binary; index prefix vibebench-rel, dropped on exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
PREFIX="${RELEVANCE_PREFIX:-vibebench-rel}" # (its own prefix beside another run on a shared node)
need ctags universal-ctags
need rg ripgrep
ctags --version 2>/dev/null | grep -q 'Universal Ctags' || { log "ctags is not universal-ctags"; exit 1; }

private_binary
T1=$SECONDS
start_opensearch
mcp_venv

log "preparing the corpus"
mapfile -t PROJECTS < <(python3 "$ROOT/bench/relevance.py" corpus --out "$WORK/projects")
[ "${#PROJECTS[@]}" -gt 0 ] || { log "no project"; exit 1; }

CFG="$WORK/config"
index_projects "$CFG" "$PREFIX" "${PROJECTS[@]}"

serve_mcp "$CFG"

# Others compile on this machine: wait a little for it to calm down (lib.sh).
BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-60}" wait_quiet
log "CPU idle before the look-ups: ${IDLE}%"
LOAD0="$(loadavg)"
"$VENV/bin/python" "$ROOT/bench/relevance.py" run --url "http://127.0.0.1:$PORT/mcp" --opensearch "$OS_URL" \
    --prefix "$PREFIX" --work "$WORK/run" "$@" "${PROJECTS[@]}"
echo
machine_line "$LOAD0"
echo "CPU idle before the look-ups: ${IDLE}%; binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "run time: $((SECONDS - T0)) s, of which $((T1 - T0)) s building (waiting for the cargo lock included)"
