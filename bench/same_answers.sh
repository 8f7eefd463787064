#!/usr/bin/env bash
# Whether the working tree answers every tool call as a base commit does
# (a refactor's pairing): each binary indexes the same trees under its own
# prefix and serves them, and bench/same_answers.py makes the same calls to
# both (names from the ranked maps, through every tool; the fixed first
# calls of bench/context; imports, documentation, trees, projects, stats)
# and compares the structured answers, the texts and the errors; then the
# cl100k tokens each tool's answers cost on each side, as the text and as a
# structured-first client hands them (the compact JSON of structuredContent).
#
#   BASE_REV=<commit> bash bench/same_answers.sh [--names N] [--show N]
#
# Env: BASE_REV (default HEAD: the last commit against the working tree),
# VIBE_BIN / VIBE_BASE_BIN (built binaries: no build), SAME_PROJECTS
# ("dir1 dir2 ...", default the python, go, javascript and markdown corpora
# of bench/corpora.sh and the repo's fixtures: samples and knowledge). Needs
# OpenSearch (started or reused); prefixes vibebench-same-base / -new,
# dropped on exit. Exit 1 when an answer differs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BASE_REV="${BASE_REV:-HEAD}"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
if [ -n "${SAME_PROJECTS:-}" ]; then
    read -r -a PROJECTS <<<"$SAME_PROJECTS"
else
    bash "$ROOT/bench/corpora.sh" python go javascript markdown >&2
    PROJECTS=("$CORPORA/python" "$CORPORA/go" "$CORPORA/javascript" "$CORPORA/markdown"
        "$ROOT/tests/fixtures/samples" "$ROOT/tests/fixtures/knowledge")
fi

private_binary
BIN_new="$BIN"
base_binary "$BASE_REV" "$HOME/.cache/vibe-bench/throughput"
start_opensearch
mcp_venv
cl100k_venv

declare -A URL
for side in base new; do
    BIN="$([ "$side" = base ] && echo "$BIN_base" || echo "$BIN_new")"
    index_projects "$WORK/$side" "vibebench-same-$side" "${PROJECTS[@]}"
    serve_mcp "$WORK/$side"
    URL[$side]="http://127.0.0.1:$PORT/mcp"
done

log "base $REV_base at ${URL[base]}, new (the working tree) at ${URL[new]}"
"$VENV/bin/python" "$ROOT/bench/same_answers.py" --base "${URL[base]}" --new "${URL[new]}" "$@"
