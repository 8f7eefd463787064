#!/usr/bin/env bash
# Definition coverage of `vibe-analyzer scan ast` against universal-ctags on
# corpora of real code (made by bench/corpora.sh). For each language: `scan
# ast --format json` and `ctags -R --output-format=json` over the same tree,
# then bench/coverage.py counts, per ctags kind, how many ctags definitions the
# AST export holds (same file, same name, starting at ctags' line, up to 3
# lines before it, or before an annotation header), and prints a sample of the
# missed ones.
#
#   bash bench/coverage.sh [--lang python[,go...]] [--missed N] [--json OUT] [--build]
#
# Uses target/release/vibe-analyzer as it is (built only when missing, or
# with --build). VIBE_CORPORA as in corpora.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LANGS="python,go,rust,java,kotlin,javascript,typescript,bash,csharp,batch,c,cpp,php,ruby,lua,elixir,scala,haskell,zig"
PY_ARGS=()
BUILD=""
while [ $# -gt 0 ]; do
    case "$1" in
    --lang) LANGS="$2"; shift 2 ;;
    --missed) PY_ARGS+=(--missed "$2"); shift 2 ;;
    --json) PY_ARGS+=(--json "$(realpath -m "$2")"); shift 2 ;;
    --build) BUILD=1; shift ;;
    *) log "unknown argument $1"; exit 2 ;;
    esac
done
IFS=, read -r -a LANG_LIST <<<"$LANGS"

LOAD0="$(loadavg)"
ctags_and_binary "$BUILD"
bash "$ROOT/bench/corpora.sh" "${LANG_LIST[@]}" >"$WORK/corpora.txt"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"

ctags_lang() {
    case "$1" in
    python) echo Python ;; go) echo Go ;; rust) echo Rust ;; java) echo Java ;;
    kotlin) echo Kotlin ;; javascript) echo JavaScript ;; typescript) echo TypeScript ;;
    bash) echo Sh ;; csharp) echo C# ;; batch) echo DosBatch ;; c) echo C ;; cpp) echo C++ ;;
    php) echo PHP ;; ruby) echo Ruby ;; lua) echo Lua ;; elixir) echo Elixir ;;
    scala) echo Scala ;; haskell) echo Haskell ;; zig) echo Zig ;;
    esac
}
# ctags reads every `.h` as C++; the scanner reads one as C unless it holds
# C++ syntax (README, "Languages"): in the C corpus, `.h` files are C's.
ctags_map() {
    case "$1" in
    c) echo "--langmap=C:.c.h" ;;
    # ctags 5.9 has no Scala or Zig parser: regex ones (bench/ctags/) stand in.
    scala | zig) echo "--options=$ROOT/bench/ctags/$1.ctags" ;;
    *) echo "--langmap=$(ctags_lang "$1"):+" ;; # (no change)
    esac
}

for lang in "${LANG_LIST[@]}"; do
    tree="$CORPORA/$lang"
    log "$lang: scan ast and ctags over $tree"
    cfg="$WORK/config-$lang"
    mkdir -p "$cfg"
    "$BIN" --config-dir "$cfg" source add "$tree" >/dev/null
    "$BIN" --config-dir "$cfg" scan ast --target "$tree" --format json --output "$WORK/$lang.ast.json" 2>"$WORK/$lang.scan.err" \
        || { cat "$WORK/$lang.scan.err" >&2; exit 1; }
    (cd "$tree" && ctags -R --languages="$(ctags_lang "$lang")" "$(ctags_map "$lang")" --extras=-F --fields=+nKzs \
        --pattern-length-limit=0 --output-format=json -f "$WORK/$lang.tags" .)
done

echo "== corpora"
cat "$WORK/corpora.txt"
echo "binary: target/release/vibe-analyzer built $BUILT, workspace HEAD $(git -C "$ROOT" rev-parse --short HEAD)"
echo "ctags: $(ctags --version | head -n1)"
python3 "$ROOT/bench/coverage.py" "$WORK" "$CORPORA" "${LANG_LIST[@]}" "${PY_ARGS[@]}"
echo
machine_line "$LOAD0"
