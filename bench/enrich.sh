#!/usr/bin/env bash
# Enrichment with a real model on this machine (issue 56): SmolLM2-135M served
# by llama.cpp (tests/llm/start.sh), driven through the CLI as a user would.
#
#   bash bench/enrich.sh
#
# Prints:
# - speed: seconds per file and per 1,000 prompt tokens, tokens per file, of a
#   `scan index` that enriches a Python subset (ENRICH_FILES, default 150: the
#   files the Python look-ups expect, then others) and the Russian-described
#   tree (bench/concepts/ru_tree);
# - answers: the share valid at once, repaired, or not JSON, and the files not
#   enriched with why, with the JSON schema and without (`json_schema: false`),
#   each a `scan analyze` of the same ENRICH_PAIR_FILES (default 40) files;
# - what qwen2.5-coder 3B would take per 1,000 files on a laptop CPU and on one
#   GPU, from those tokens and published llama.cpp throughput;
# - the concept look-ups over those projects (questions_ru.jsonl and the
#   Python look-ups of questions.jsonl whose files are in the subset) on an
#   index without the LLM and on the enriched one.
# Nothing is expected of a 135M model's words: this is the pipeline's floor.
# VIBE_BIN: a built binary (no cargo build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
FILES="${ENRICH_FILES:-150}"
PAIR_FILES="${ENRICH_PAIR_FILES:-40}"
PREFIX="vibebench-enrich"
[ -d "$CORPORA/python" ] || bash "$ROOT/bench/corpora.sh" python

private_binary
start_opensearch
mcp_venv
bash "$ROOT/tests/llm/start.sh" start
LLM_URL="http://127.0.0.1:${LLM_PORT:-8081}"

python3 "$ROOT/bench/enrich.py" subset --corpus "$CORPORA/python" --questions "$ROOT/bench/concepts/questions.jsonl" \
    --files "$FILES" --out "$WORK/sub/python" --set-out "$WORK/questions_python.jsonl"
PROJECTS=("$WORK/sub/python" "$ROOT/bench/concepts/ru_tree")
SETS=("$WORK/questions_python.jsonl" "$ROOT/bench/concepts/questions_ru.jsonl")

# with_model CFG SCHEMA: the real model as the config's only host.
with_model() {
    python3 - "$1/config.json5" "$LLM_URL" "$2" <<'PY'
import re, sys
path, host, schema = sys.argv[1:]
text = open(path).read()
entry = f'{{ host: "{host}", api: "openai", model: "smollm2-135m", timeout_secs: 300, json_schema: {schema} }},'
text, n = re.subn(r'ollama:\s*\[', 'ollama: [ ' + entry, text, count=1)
if n != 1:
    sys.exit("cannot set ollama in " + path)
open(path, "w").write(text)
PY
}

# A pair of `scan analyze` runs over the same files, with and without the schema.
mkdir -p "$WORK/pair"
(cd "$WORK/sub/python" && find . -name '*.py' | LC_ALL=C sort | head -n "$PAIR_FILES" | tar -cf - -T -) | tar -C "$WORK/pair" -xf -
for schema in true false; do
    make_config "$WORK/analyze-$schema" "$PREFIX-unused"
    with_model "$WORK/analyze-$schema" "$schema"
    log "scan analyze of $PAIR_FILES files, json_schema: $schema"
    # A model that answers nothing usable stops the run (its host is taken
    # out after 3 batches); the counts up to there are still the figures.
    "$BIN" --config-dir "$WORK/analyze-$schema" scan analyze --target "$WORK/pair" --output "$WORK/analyze-$schema.json" \
        >/dev/null 2>"$WORK/analyze-$schema.err" || log "json_schema: $schema: $(grep -m1 '^error' "$WORK/analyze-$schema.err")"
done

# The index without the LLM, and the enriched one (schema on).
index_projects "$WORK/plain" "$PREFIX-plain" "${PROJECTS[@]}"
make_config "$WORK/llm" "$PREFIX-llm"
with_model "$WORK/llm" true
drop_prefix "$PREFIX-llm"
CLEANUPS+=("drop_prefix $PREFIX-llm")
for p in "${PROJECTS[@]}"; do "$BIN" --config-dir "$WORK/llm" source add "$p" >/dev/null; done
log "scan index with the model: $(find "${PROJECTS[@]}" -type f | wc -l) files"
"$BIN" --config-dir "$WORK/llm" scan index >"$WORK/llm.out" 2>"$WORK/llm.err" || { tail "$WORK/llm.err" >&2; exit 1; }

LOAD0="$(loadavg)"
for run in plain llm; do
    serve_mcp "$WORK/$run"
    (cd "$ROOT/bench" && "$VENV/bin/python" concepts.py --url "http://127.0.0.1:$PORT/mcp" \
        --sets "${SETS[@]}" --projects "${PROJECTS[@]}" --json "$WORK/concepts-$run.json" >"$WORK/concepts-$run.txt")
    kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true
done

echo "== enrichment with SmolLM2-135M (llama.cpp, $(nproc) cores)"
python3 "$ROOT/bench/enrich.py" report \
    --run "index, schema=$WORK/llm.err" "analyze, schema=$WORK/analyze-true.err" "analyze, no schema=$WORK/analyze-false.err" \
    --extrapolate "index, schema" \
    --concepts "no LLM=$WORK/concepts-plain.json" "SmolLM2-135M=$WORK/concepts-llm.json"
echo
grep -h "^look-ups" "$WORK/concepts-plain.txt"
machine_line "$LOAD0"
echo "binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD); run time: $((SECONDS - T0)) s"
