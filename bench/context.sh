#!/usr/bin/env bash
# What an assistant's FIRST tool call puts in the model's context: is the
# answer's source line in it, and how many tokens (cl100k_base) does it cost,
# counted by each client's rule: the text (Open WebUI, Cursor), and what a
# structured-first client hands its model (Claude Code, Codex, opencode: the
# compact JSON of `structuredContent` when a result has it, else the text);
# both with the server's defaults and with typed output (`?typed_output=true`
# on the same server). And the tokens of the tool list a client sends a model
# (bench/context.py).
#
#   bash bench/context.sh [--misses N] [--json out.json]
#   CONTEXT_SET=unseen bash bench/context.sh [--misses N]
#
# The question sets, each reported on its own: bench/context/questions.jsonl
# (45, fixed, written blind from the corpus trees) and details.jsonl (64
# questions about a detail: a default, a limit, a condition...; see
# bench/context/README.md). Projects: the python, java, javascript and go
# corpora of bench/corpora.sh (built when missing), indexed with
# `scan index --no-llm` under the prefix vibebench-context and served once,
# with the config's defaults. An older binary that ignores `typed_output`
# shows its own default on both sides.
# CONTEXT_SET=unseen runs bench/context/unseen.jsonl instead (66 questions
# about code no model has seen, over the corpus of
# bench/context/unseen/corpus.sh: python, javascript and go packages first
# published in 2025-2026, indexed under the prefix vibebench-unseen), with
# its halves (first calls in words, answers inside a body) reported apart.
# CONTEXT_KEEP=1 keeps the index (config in ~/.cache/vibe-bench/context)
# between runs, so that a gateway-only change needs no re-index; without it
# the prefix is fresh and dropped on exit. VIBE_BIN: a built binary (no cargo
# build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
if [ "${CONTEXT_SET:-fixed}" = unseen ]; then
    PREFIX="vibebench-unseen"
    CORPORA="$HOME/.cache/vibe-bench/unseen"
    LANGS=(python javascript go)
    bash "$ROOT/bench/context/unseen/corpus.sh" "$CORPORA" >&2
    SETS=(--questions "$ROOT/bench/context/unseen.jsonl")
else
    PREFIX="vibebench-context"
    CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
    LANGS=(python java javascript go)
    for l in "${LANGS[@]}"; do [ -d "$CORPORA/$l" ] || bash "$ROOT/bench/corpora.sh" "$l"; done
    SETS=(--questions "$ROOT/bench/context/questions.jsonl" --questions "$ROOT/bench/context/details.jsonl")
fi
PROJECTS=("${LANGS[@]/#/$CORPORA/}")

private_binary
start_opensearch
mcp_venv
cl100k_venv

# serve CONFIG: `serve start` on a free port with the config's own `mcp`
# settings (the defaults); sets PORT; the server is stopped on exit.
serve() {
    local cfg="$1"
    PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    RUST_LOG="${RUST_LOG:-warn}" "$BIN" --config-dir "$cfg" serve start --host 127.0.0.1 --port "$PORT" \
        >"$WORK/serve.log" 2>&1 &
    local pid=$!
    CLEANUPS=("kill $pid 2>/dev/null; wait $pid 2>/dev/null" "${CLEANUPS[@]}")
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || break
        if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
            log "server on port $PORT"
            return 0
        fi
        sleep 0.1
    done
    tail -n 5 "$WORK/serve.log" >&2
    log "serve start failed"
    exit 1
}

if [ "${CONTEXT_KEEP:-0}" = 1 ]; then
    CFG="$HOME/.cache/vibe-bench/context${CONTEXT_SET:+-$CONTEXT_SET}"
    [ -f "$CFG/config.json5" ] || make_config "$CFG" "$PREFIX"
    for p in "${PROJECTS[@]}"; do "$BIN" --config-dir "$CFG" source add "$p" >/dev/null 2>&1 || true; done
    log "indexing (scan index --no-llm, kept index)"
    t=$SECONDS
    "$BIN" --config-dir "$CFG" scan index --no-llm >"$WORK/index.out" 2>"$WORK/index.err" \
        || { rc=$?; tail -n 20 "$WORK/index.err" >&2; [ "$rc" = 2 ] || exit "$rc"; log "some files failed (exit 2), going on"; }
    log "$(tail -n1 "$WORK/index.out") ($((SECONDS - t)) s, kept index)"
else
    CFG="$WORK/text"
    index_projects "$CFG" "$PREFIX" "${PROJECTS[@]}"
fi

serve "$CFG"

BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-30}" wait_quiet
LOAD0="$(loadavg)"
(cd "$ROOT/bench" && "$VENV/bin/python" context.py --url "http://127.0.0.1:$PORT/mcp" \
    "${SETS[@]}" --corpora "$CORPORA" "$@")
echo
machine_line "$LOAD0"
echo "binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- gateway common 2>/dev/null || echo ' (gateway/common modified)')"
echo "run time: $((SECONDS - T0)) s"
