#!/usr/bin/env bash
# Questions in words (issue 23): hit@1, hit@3, MRR, latency and answer size
# of search_by_code_functions / _classes / _variables through MCP, per
# language, beside BM25 over whole files and an any-word grep on the same
# queries in the same run (bench/concepts.py).
#
#   bash bench/concepts.sh [--misses N] [--json out.json]
#
# The look-ups: bench/concepts/questions.jsonl (260, Python / Go / Java /
# JavaScript) and questions_ru.jsonl (55, Russian, over bench/concepts/ru_tree),
# written from the source trees by someone who never saw the index; they are
# fixed. CONCEPTS_SETS=dev runs the tuning set (bench/concepts/dev.jsonl)
# instead. Projects: the python, go, java and javascript corpora of
# bench/corpora.sh (built when missing) and ru_tree: five projects, ~6,000
# files. CONCEPTS_KEEP=1 keeps the index (prefix vibebench-concepts, config
# in ~/.cache/vibe-bench/concepts) between runs, so a template change needs
# no full re-index; without it the prefix is fresh and dropped on exit.
# CONCEPTS_SETS=tests runs the Go and Python questions over those corpora
# with their tests (see below); CONCEPTS_SETS=more the Rust and TypeScript
# questions (questions_rust.jsonl, questions_typescript.jsonl) over the rust
# and typescript corpora (two projects). CONCEPTS_SETS=enriched runs the Russian questions about English code
# (questions_ru_enriched.jsonl, over the Python corpus) twice: indexed without
# an LLM, and enriched through a scripted Ollama-compatible server
# (bench/scripted_ollama.py) answering with Russian descriptions and tags
# written for those files (enriched_ru.json): what the enriched fields add.
# Each table is printed twice: pooled (the shared endpoint /mcp, no target:
# all five projects compete) and scoped (each project's own endpoint
# /mcp/<project>, baselines over its files).
# VIBE_BIN: a built binary (no cargo build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
PREFIX="vibebench-concepts"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
LANGS=(python go java javascript)
[ "${CONCEPTS_SETS:-test}" = more ] && LANGS=(rust typescript)
for l in "${LANGS[@]}"; do [ -d "$CORPORA/$l" ] || bash "$ROOT/bench/corpora.sh" "$l"; done
PROJECTS=("${LANGS[@]/#/$CORPORA/}" "$ROOT/bench/concepts/ru_tree")
case "${CONCEPTS_SETS:-test}" in
    dev) SETS=("$ROOT/bench/concepts/dev.jsonl") ;;
    enriched) SETS=("$ROOT/bench/concepts/questions_ru_enriched.jsonl"); PROJECTS=("$CORPORA/python") ;;
    tests) SETS=("$WORK/questions_go_python.jsonl"); PROJECTS=("$WORK/tests/go" "$WORK/tests/python") ;;
    more) SETS=("$ROOT/bench/concepts/questions_rust.jsonl" "$ROOT/bench/concepts/questions_typescript.jsonl")
          PROJECTS=("$CORPORA/rust" "$CORPORA/typescript") ;;
    *) SETS=("$ROOT/bench/concepts/questions.jsonl" "$ROOT/bench/concepts/questions_ru.jsonl") ;;
esac

# CONCEPTS_SETS=tests: the Go and Python corpora with their tests put back
# (each corpus directory's *_test.go from Go's tree; CPython's Lib/test/test_*.py
# under test/), as real projects hold them, and the Go and Python questions.
if [ "${CONCEPTS_SETS:-test}" = tests ]; then
    grep -hE '"lang": "(go|python)"' "$ROOT/bench/concepts/questions.jsonl" >"$WORK/questions_go_python.jsonl"
    mkdir -p "$WORK/tests"
    cp -r "$CORPORA/go" "$CORPORA/python" "$WORK/tests/"
    GOSRC="$(go env GOROOT 2>/dev/null || echo /usr/local/go)/src"
    (cd "$WORK/tests/go" && find . -type d) | while read -r d; do
        for f in "$GOSRC/$d"/*_test.go; do [ -f "$f" ] && cp "$f" "$WORK/tests/go/$d/"; done
    done
    mkdir -p "$WORK/tests/python/test" && cp "$STDLIB"/test/test_*.py "$WORK/tests/python/test/"
    log "with tests: go $(find "$WORK/tests/go" -name '*_test.go' | wc -l) test files, python $(ls "$WORK/tests/python/test" | wc -l)"
fi

private_binary
start_opensearch
mcp_venv

run_questions() {
    BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-30}" wait_quiet
    LOAD0="$(loadavg)"
    (cd "$ROOT/bench" && "$VENV/bin/python" concepts.py --url "http://127.0.0.1:$PORT/mcp" \
        --sets "${SETS[@]}" --projects "${PROJECTS[@]}" "$@")
}

if [ "${CONCEPTS_SETS:-test}" = enriched ]; then
    echo "== without an LLM (scan index --no-llm)"
    index_projects "$WORK/plain" "$PREFIX-plain" "${PROJECTS[@]}"
    serve_mcp "$WORK/plain"
    run_questions "$@"
    OLLAMA_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    python3 "$ROOT/bench/scripted_ollama.py" --port "$OLLAMA_PORT" --answers "$ROOT/bench/concepts/enriched_ru.json" &
    CLEANUPS=("kill $! 2>/dev/null" "${CLEANUPS[@]}")
    CFG="$WORK/llm"
    make_config "$CFG" "$PREFIX-llm"
    python3 - "$CFG/config.json5" "http://127.0.0.1:$OLLAMA_PORT" <<'PY'
import re, sys
path, host = sys.argv[1:]
text = open(path).read()
text, n = re.subn(r'ollama:\s*\[', f'ollama: [ {{ host: "{host}", model: "qwen2.5-coder:3b-instruct" }},', text, count=1)
if n != 1:
    sys.exit("cannot set ollama in " + path)
open(path, "w").write(text)
PY
    drop_prefix "$PREFIX-llm"
    CLEANUPS+=("drop_prefix $PREFIX-llm")
    for p in "${PROJECTS[@]}"; do "$BIN" --config-dir "$CFG" source add "$p" >/dev/null; done
    "$BIN" --config-dir "$CFG" scan index >"$WORK/llm.out" 2>"$WORK/llm.err" || { tail "$WORK/llm.err" >&2; exit 1; }
    log "$(tail -n1 "$WORK/llm.out") (enriched by the scripted Ollama)"
    serve_mcp "$CFG"
    echo
    echo "== enriched (scripted Ollama: Russian descriptions and tags of the listed files)"
    run_questions "$@"
    echo
    machine_line "$LOAD0"
    exit 0
fi

if [ "${CONCEPTS_SETS:-test}" = tests ] || [ "${CONCEPTS_SETS:-test}" = more ]; then
    CFG="$WORK/config"
    index_projects "$CFG" "$PREFIX-$CONCEPTS_SETS" "${PROJECTS[@]}"
elif [ "${CONCEPTS_KEEP:-0}" = 1 ]; then
    CFG="$HOME/.cache/vibe-bench/concepts"
    [ -f "$CFG/config.json5" ] || make_config "$CFG" "$PREFIX"
    for p in "${PROJECTS[@]}"; do "$BIN" --config-dir "$CFG" source add "$p" >/dev/null 2>&1 || true; done
    t=$SECONDS
    "$BIN" --config-dir "$CFG" scan index --no-llm >"$WORK/index.out" 2>"$WORK/index.err" || { tail "$WORK/index.err" >&2; exit 1; }
    log "$(tail -n1 "$WORK/index.out") ($((SECONDS - t)) s, kept index)"
else
    CFG="$WORK/config"
    index_projects "$CFG" "$PREFIX" "${PROJECTS[@]}"
fi
serve_mcp "$CFG"
run_questions "$@"
echo
machine_line "$LOAD0"
echo "CPU idle before the look-ups: ${IDLE}%; binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "run time: $((SECONDS - T0)) s"
