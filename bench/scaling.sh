#!/usr/bin/env bash
# The measured inputs of docs/scaling.md: bytes per file in each index (files
# = stored content + grams; analysis = AST, symbols, references) for
# code and for Markdown, and the full-index time per 1,000 files.
#
#   bash bench/scaling.sh
#
# Trees: Go's standard library (/usr/local/go/src, code) and every Markdown
# file under ~/.cargo/registry/src (READMEs, changelogs, guides), copied so
# that both are plain trees. Each is indexed with `scan index --no-llm
# --force` under its own prefix; sizes are read from `_cat/indices` after a
# refresh and a force merge to one segment (the steady state of a quiet index).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"
need /usr/bin/time time
private_binary
start_opensearch

CODE="$WORK/go"; DOCS="$WORK/markdown"
mkdir -p "$CODE" "$DOCS"
cp -a /usr/local/go/src/. "$CODE/"
i=0
while IFS= read -r -d '' f; do
    i=$((i + 1)); mkdir -p "$DOCS/$((i / 100))"
    cp "$f" "$DOCS/$((i / 100))/$i-$(basename "$f")"
done < <(find "$HOME/.cargo/registry/src" -name '*.md' -print0)

printf '%-9s %7s %8s %9s %12s %12s %10s %9s\n' tree files "src MB" "index s" "files B/f" "analysis B/f" "total B/f" "s/1000"
for tree in code docs; do
    dir="$CODE"; [ "$tree" = docs ] && dir="$DOCS"
    prefix="vibebench-scale-$tree"
    drop_prefix "$prefix"; CLEANUPS+=("drop_prefix $prefix")
    cfg="$WORK/config-$tree"
    make_config "$cfg" "$prefix"
    "$BIN" --config-dir "$cfg" source add "$dir" >/dev/null
    warm "$dir"
    "$BIN" --config-dir "$cfg" scan index --no-llm >/dev/null 2>&1 # installs templates, warms
    : >"$WORK/t-$tree"
    timed "$WORK/t-$tree" "$BIN" --config-dir "$cfg" scan index --no-llm --force
    secs="$(best "$WORK/t-$tree")"
    curl -s -XPOST "$OS_URL/${prefix}_data_*/_refresh" >/dev/null
    curl -s -XPOST "$OS_URL/${prefix}_data_*/_forcemerge?max_num_segments=1" >/dev/null
    sizes="$(curl -s "$OS_URL/_cat/indices/${prefix}_data_*?bytes=b&h=index,docs.count,pri.store.size")"
    files_b="$(awk '$1 ~ /_data_files_/ { print $3 }' <<<"$sizes")"
    analysis_b="$(awk '$1 ~ /_data_analysis_/ { print $3 }' <<<"$sizes")"
    docs="$(awk '$1 ~ /_data_files_/ { print $2 }' <<<"$sizes")"
    src_mb="$(du -sm "$dir" | cut -f1)"
    awk -v t="$tree" -v n="$docs" -v mb="$src_mb" -v s="$secs" -v f="$files_b" -v a="$analysis_b" 'BEGIN {
        printf "%-9s %7d %8d %9.1f %12d %12d %10d %9.2f\n", t, n, mb, s, f / n, a / n, (f + a) / n, s * 1000 / n }'
done
echo "(bytes per file: primary store after a force merge, replicas not counted; index s: one full --force run)"
machine_line "$LOAD0"
