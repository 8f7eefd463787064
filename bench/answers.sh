#!/usr/bin/env bash
# Answer bytes of every MCP tool against the answer budget (issue 24):
# median, p95 and max per tool over real trees (Python's stdlib, guava,
# npm bundles, Go's standard library from bench/corpora.sh) and the large
# generated files of tests/mcp/budget_pages.py (a JDK-like Java class, a
# generated 20,000-line file, a minified bundle, a long Markdown guide, a deep
# tree) plus 50 small projects for show_projects and show_tree; in the same
# run, every cut file or list is followed to its end (next_start_line,
# next_start_char, next_offset) and compared with the source: byte for byte,
# every element once. Ends with KB R@3 of the documentation scenarios.
#
#   bash bench/answers.sh [--files N] [--seed S]
#
# Env: ANSWERS_PROJECTS="dir1 dir2 ..." (default: python, java/guava,
# javascript, go under ${VIBE_CORPORA:-~/.cache/vibe-bench/corpora}),
# VIBE_BIN (a built vibe-analyzer: no cargo build). Needs OpenSearch (started
# or reused); index prefix vibebench-ans, dropped on exit. The default
# mcp.answer_budget is measured.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
PREFIX="vibebench-ans"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
private_binary
start_opensearch
mcp_venv

if [ -n "${ANSWERS_PROJECTS:-}" ]; then
    read -r -a REAL <<<"$ANSWERS_PROJECTS"
else
    REAL=()
    for d in python java/guava-32.1.3-jre javascript go; do
        [ -d "$CORPORA/$d" ] && REAL+=("$CORPORA/$d")
    done
fi
[ "${#REAL[@]}" -gt 0 ] || log "no real corpus found under $CORPORA (bench/corpora.sh): generated trees only"

log "writing the generated trees"
mapfile -t GEN < <("$VENV/bin/python" -c "
import sys; sys.path.insert(0, '$ROOT/tests/mcp')
from pathlib import Path
from budget_pages import write_fixture
for p in write_fixture(Path('$WORK/gen')): print(p)")

CFG="$WORK/config"
index_projects "$CFG" "$PREFIX" "${REAL[@]}" "${GEN[@]}" "$ROOT/tests/fixtures/knowledge"
serve_mcp "$CFG"

"$VENV/bin/python" "$ROOT/bench/answers.py" --url "http://127.0.0.1:$PORT/mcp" --big "${GEN[0]}" "$@" "${REAL[@]}"
echo
echo "projects: ${#REAL[@]} real + ${#GEN[@]} generated + knowledge; binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "run time: $((SECONDS - T0)) s"
