#!/usr/bin/env bash
# Direct supertypes of `vibe-analyzer scan ast` (AstElement.supertypes, bare
# names) against universal-ctags' `inherits` field on corpora of real code
# (bench/corpora.sh), per language: recall and precision of the (type,
# supertype) pairs, over the types both sides know. bench/hierarchy.py does
# the counting; its docstring says what the oracle is and what is left out.
#
#   bash bench/hierarchy.sh [--lang java,python...] [--tree LANG=PATH]... [--missed N] [--json OUT] [--build]
#
# Default rows: java, python, csharp, typescript, javascript, go (ctags'
# `inherits`); rust (ctags' impl and trait tags, their headers read); kotlin
# and scala (regex oracles on the headers); and java.base of the JDK's src.zip when found
# (HIERARCHY_JDK=0 leaves it out; JDK_SRC_ZIP picks the zip; unzipped once
# into the cache throughput.sh uses). --tree adds any other tree as a row of
# LANG (e.g. --tree python=$SITE/pydantic, --tree swift=DIR, --tree dart=DIR:
# Swift and Dart have no oracle, their rows give counts only).
#
# HIERARCHY_KEEP=DIR keeps the exports and tags there, for
# `python3 bench/hierarchy.py DIR [--missed N]` without a new scan.
# Uses target/release/vibe-analyzer as it is (built only when missing, or
# with --build). VIBE_CORPORA as in corpora.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LANGS="java,python,csharp,typescript,javascript,go,kotlin,rust,cpp,php,ruby,scala"
TREES=()
PY_ARGS=()
BUILD=""
while [ $# -gt 0 ]; do
    case "$1" in
    --lang) LANGS="$2"; shift 2 ;;
    --tree) TREES+=("$2"); shift 2 ;;
    --missed) PY_ARGS+=(--missed "$2"); shift 2 ;;
    --json) PY_ARGS+=(--json "$(realpath -m "$2")"); shift 2 ;;
    --build) BUILD=1; shift ;;
    *) log "unknown argument $1"; exit 2 ;;
    esac
done
IFS=, read -r -a LANG_LIST <<<"$LANGS"

LOAD0="$(loadavg)"
ctags_and_binary "$BUILD"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
CORPUS_LANGS=()
for lang in "${LANG_LIST[@]}"; do
    case "$lang" in swift | dart) ;; *) CORPUS_LANGS+=("$lang") ;; esac # (no corpus: --tree only)
done
[ ${#CORPUS_LANGS[@]} -eq 0 ] || bash "$ROOT/bench/corpora.sh" "${CORPUS_LANGS[@]}" >"$WORK/corpora.txt"

# java.base of a JDK's src.zip, shared with throughput.sh's cache. Echoes its path.
java_base() {
    local cache="${THROUGHPUT_CACHE:-$HOME/.cache/vibe-bench/throughput}" zip="${JDK_SRC_ZIP:-}" z
    if [ -z "$zip" ]; then
        for z in /usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip /usr/lib/jvm/*/lib/src.zip; do
            [ -f "$z" ] && { zip="$(readlink -f "$z")"; break; }
        done
    fi
    [ -n "$zip" ] || { log "no JDK src.zip found: java.base left out"; return 0; }
    if [ "$(cat "$cache/java-base.origin" 2>/dev/null)" != "$zip" ]; then
        log "unzipping java.base/ of $zip"
        need unzip unzip
        mkdir -p "$cache"
        rm -rf "$cache/java-base" "$cache/java-base.tmp" "$cache/java-base.origin"
        unzip -q "$zip" 'java.base/*' -d "$cache/java-base.tmp"
        mv "$cache/java-base.tmp/java.base" "$cache/java-base"
        rm -rf "$cache/java-base.tmp"
        echo "$zip" >"$cache/java-base.origin"
    fi
    echo "$cache/java-base"
}

# Rows: label, language, tree.
: >"$WORK/rows.tsv"
for lang in "${CORPUS_LANGS[@]}"; do
    printf '%s\t%s\t%s\n' "$lang" "$lang" "$CORPORA/$lang" >>"$WORK/rows.tsv"
    if [ "$lang" = java ] && [ "${HIERARCHY_JDK:-1}" = 1 ]; then
        jb="$(java_base)"
        [ -z "$jb" ] || printf '%s\t%s\t%s\n' java.base java "$jb" >>"$WORK/rows.tsv"
    fi
done
for t in "${TREES[@]}"; do
    lang="${t%%=*}"; tree="$(realpath "${t#*=}")"
    printf '%s\t%s\t%s\n' "$lang/$(basename "$tree")" "$lang" "$tree" >>"$WORK/rows.tsv"
done

ctags_lang() {
    case "$1" in
    python) echo Python ;; go) echo Go ;; java) echo Java ;; javascript) echo JavaScript ;;
    typescript) echo TypeScript ;; csharp) echo C# ;; rust) echo Rust ;;
    cpp) echo C++ ;; php) echo PHP ;; ruby) echo Ruby ;;
    esac
}

n=0
while IFS=$'\t' read -r label lang tree; do
    n=$((n + 1))
    log "$label: scan ast and ctags over $tree"
    cfg="$WORK/config-$n"
    mkdir -p "$cfg"
    "$BIN" --config-dir "$cfg" source add "$tree" >/dev/null
    "$BIN" --config-dir "$cfg" scan ast --target "$tree" --format json --output "$WORK/$n.ast.json" 2>"$WORK/$n.scan.err" \
        || { cat "$WORK/$n.scan.err" >&2; exit 1; }
    cl="$(ctags_lang "$lang")"
    [ -n "$cl" ] || continue # (no ctags oracle for this language)
    # The directories the scanner skips by default are skipped here too.
    (cd "$tree" && ctags -R --languages="$cl" --extras=-F --fields=+inKzs --pattern-length-limit=0 \
        --exclude=node_modules --exclude=target --exclude=venv --exclude=.venv --exclude=__pycache__ \
        --exclude=.git --exclude=.idea --output-format=json -f "$WORK/$n.tags" .)
done <"$WORK/rows.tsv"

echo "== corpora"
[ ! -f "$WORK/corpora.txt" ] || cat "$WORK/corpora.txt"
awk -F'\t' '{ print "row " NR ": " $1 " (" $2 ") " $3 }' "$WORK/rows.tsv"
echo "binary: target/release/vibe-analyzer built $BUILT, workspace HEAD $(git -C "$ROOT" rev-parse --short HEAD)"
echo "ctags: $(ctags --version | head -n1)"
if [ -n "${HIERARCHY_KEEP:-}" ]; then # (rerun: python3 bench/hierarchy.py "$HIERARCHY_KEEP")
    mkdir -p "$HIERARCHY_KEEP"
    cp "$WORK"/rows.tsv "$WORK"/*.ast.json "$HIERARCHY_KEEP"/
    cp "$WORK"/*.tags "$HIERARCHY_KEEP"/ 2>/dev/null || true
fi
python3 "$ROOT/bench/hierarchy.py" "$WORK" "${PY_ARGS[@]}"
echo
machine_line "$LOAD0"
