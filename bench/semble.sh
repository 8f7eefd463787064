#!/usr/bin/env bash
# semble's public code-retrieval benchmark (MinishLab/semble `benchmarks/`,
# labels and repos.json of the fork michalfedyna/semble at bc2181c): 62
# repositories (ziglang/zig is left out: too large to fetch here), 1,231
# questions, NDCG@10 over files, scored as their code does (bench/semble.py).
# Each repository's benchmark_root is one project; the questions go through
# the MCP gateway as an assistant's first call would (one identifier:
# search_by_code_classes when it starts upper-case, else
# search_by_code_functions; words: search_by_code_functions; limit 10), with
# `target` = the repo's project (per-repo) or without it, all 62 projects
# behind one server (one-index). Printed beside semble's published numbers
# and their BM25 and ripgrep baselines re-run on the same files
# (bench/semble_baselines.py, once, cached).
#
#   bash bench/semble.sh [--split dev|heldout|all] [--mode per-repo|one-index|both]
#                        [--reindex] [--mirrors DIR] [--misses N] [--json F] [--index-only]
#
# The trees live under $SEMBLE_ROOT (default ~/.cache/vibe-bench/semble): when
# they are missing, `--mirrors DIR` lays them out from bare git mirrors
# (bench/semble_layout.py says which). The index is kept under the prefix
# vibebench-semble (config dir $SEMBLE_ROOT/config): a project already indexed
# is not indexed again unless --reindex. Tune on `dev` only; `heldout` is run
# to report a number (splits: bench/semble_data.py). VIBE_BIN: a built binary
# (no cargo build).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    echo "usage: bash bench/semble.sh [--split dev|heldout|all] [--mode per-repo|one-index|both] [--reindex] [--mirrors DIR] [--misses N] [--json F] [--index-only]" >&2
    exit 2
}
SPLIT=all MODE=both REINDEX=0 MIRRORS="" INDEX_ONLY=0 PYARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --split) SPLIT="$2"; shift 2 ;;
        --mode) MODE="$2"; shift 2 ;;
        --reindex) REINDEX=1; shift ;;
        --mirrors) MIRRORS="$2"; shift 2 ;;
        --misses|--json) PYARGS+=("$1" "$2"); shift 2 ;;
        --index-only) INDEX_ONLY=1; shift ;;
        -h|--help) usage ;;
        *) echo "unknown argument: $1" >&2; usage ;;
    esac
done
case "$SPLIT" in dev|heldout|all) ;; *) usage ;; esac
case "$MODE" in per-repo|one-index|both) ;; *) usage ;; esac

T0=$SECONDS
SROOT="${SEMBLE_ROOT:-$HOME/.cache/vibe-bench/semble}"
PREFIX="vibebench-semble"
CFG="$SROOT/config"

if [ -n "$MIRRORS" ]; then
    python3 "$ROOT/bench/semble_layout.py" --mirrors "$MIRRORS" --root "$SROOT"
fi
if [ ! -f "$SROOT/layout.json" ] || [ ! -d "$SROOT/repos" ]; then
    cat >&2 <<EOF
The benchmark's trees are not under $SROOT.
Bring bare git mirrors of michalfedyna/semble and of the 62 repositories of its
benchmarks/repos.json (bench/README.md, "semble's benchmark", says how), then:
    bash bench/semble.sh --mirrors DIR
EOF
    exit 1
fi
mapfile -t REPOS < <(python3 -c 'import json,sys; print("\n".join(sorted(json.load(open(sys.argv[1])))))' "$SROOT/layout.json")

private_binary
start_opensearch

# Every repository is one project of the one config (one-index mode needs
# them all), indexed one at a time (nice: the machine is shared), skipped
# when the prefix's meta index holds the project (its root) unless
# --reindex. $STATE/NAME.indexed keeps the seconds its last index took.
[ -f "$CFG/config.json5" ] || make_config "$CFG" "$PREFIX"
STATE="$SROOT/state"
mkdir -p "$STATE"
curl -s "$OS_URL/${PREFIX}_meta/_search?size=10000&_source=root" 2>/dev/null \
    | python3 -c 'import json,sys; [print(h["_source"]["root"]) for h in json.load(sys.stdin).get("hits",{}).get("hits",[])]' \
    >"$WORK/indexed" 2>/dev/null || true
"$BIN" --config-dir "$CFG" source list >"$WORK/sources" 2>/dev/null || true
todo=0 t=$SECONDS
for r in "${REPOS[@]}"; do
    grep -qF "$SROOT/repos/$r" "$WORK/sources" || "$BIN" --config-dir "$CFG" source add "$SROOT/repos/$r" >/dev/null
    [ "$REINDEX" = 0 ] && grep -qxF "$SROOT/repos/$r" "$WORK/indexed" && continue
    todo=$((todo + 1))
    t1=$SECONDS
    force=()
    [ "$REINDEX" = 1 ] && force=(--force)
    rc=0
    nice -n 10 "$BIN" --config-dir "$CFG" scan index --no-llm "${force[@]}" -t "$SROOT/repos/$r" \
        >"$WORK/index.out" 2>"$WORK/index.err" || rc=$?
    if [ "$rc" != 0 ] && [ "$rc" != 2 ]; then tail -n 20 "$WORK/index.err" >&2; log "indexing $r failed ($rc)"; exit "$rc"; fi
    [ "$rc" = 2 ] && log "$r: some files failed (exit 2), going on"
    echo "$((SECONDS - t1))" >"$STATE/$r.indexed"
    log "$r: $(tail -n1 "$WORK/index.out") ($((SECONDS - t1)) s)"
done
[ "$todo" = 0 ] && log "all ${#REPOS[@]} projects already indexed (--reindex to force)" \
    || log "indexed $todo projects in $((SECONDS - t)) s"
[ "$INDEX_ONLY" = 1 ] && exit 0

mcp_venv
cl100k_venv

# Their BM25 and ripgrep on the same files: computed once (a venv with
# their dependencies), cached in $SROOT/baselines.json.
if [ ! -s "$SROOT/baselines.json" ]; then
    if [ ! -x "$SROOT/venv/bin/python" ] || ! "$SROOT/venv/bin/python" -c 'import bm25s, chonkie, vicinity' 2>/dev/null; then
        log "creating $SROOT/venv (bm25s, chonkie[code]==1.6.2, vicinity, model2vec: their BM25's dependencies)"
        python3 -m venv "$SROOT/venv"
        "$SROOT/venv/bin/pip" install -q --disable-pip-version-check bm25s 'chonkie[code]==1.6.2' vicinity numpy pathspec model2vec
    fi
    need rg ripgrep
    log "their BM25 and ripgrep over the 62 repositories (once)"
    nice -n 10 "$SROOT/venv/bin/python" "$ROOT/bench/semble_baselines.py" --root "$SROOT" --out "$SROOT/baselines.json"
fi

serve_mcp "$CFG"
BENCH_QUIET_WAIT="${BENCH_QUIET_WAIT:-30}" wait_quiet
LOAD0="$(loadavg)"
(cd "$ROOT/bench" && "$VENV/bin/python" semble.py --url "http://127.0.0.1:$PORT/mcp" --root "$SROOT" \
    --split "$SPLIT" --mode "$MODE" "${PYARGS[@]}")
echo
machine_line "$LOAD0"
echo "binary built $BUILT; commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "index time per project (s): $(cat "$STATE"/*.indexed 2>/dev/null | awk '{ s += $1 } END { print s + 0 }') in all"
echo "run time: $((SECONDS - T0)) s"
