#!/usr/bin/env bash
# The "unseen code" corpus of the context benchmark: the sources of small,
# little-known packages first published after mid-2025 (after the training of
# current models), in three languages, at fixed versions:
#   ${1:-$HOME/.cache/vibe-bench/unseen}/python/<pkg>/      (PyPI, pip)
#   ${1:-$HOME/.cache/vibe-bench/unseen}/javascript/<pkg>/  (npm, npm pack)
#   ${1:-$HOME/.cache/vibe-bench/unseen}/go/<pkg>/          (Go module proxy)
# Each <lang> folder is indexed as one project. Only source and the non-code
# files that hold behaviour (templates, shell scripts, config) are copied: no
# tests, no dependencies, no binaries, no docs, no generated Convex bindings.
# Idempotent: a <lang> folder with a matching VERSIONS file is kept.
set -euo pipefail
ROOT="${1:-$HOME/.cache/vibe-bench/unseen}"

PY_PKGS=(schlange-queue==0.2.0 spoolctl==0.4.11 aqworker==0.1.7 linkmind-task-queue==0.5.0
         webhookkit==0.2.0 ballast-py==0.1.1 brupy==0.21.3)
PY_DIRS=(schlange spoolctl aqworker linkmind_task_queue webhookkit ballast brupy)

# npm spec and the folder it goes to
JS_PKGS=(convex-revenuecat@0.3.2 convex-firecrawl-scrape@0.1.2 @ikhrustalev/convex-debouncer@0.1.2
         @durable-streams/client@0.2.7 @durable-streams/server@0.3.7 @jkershaw/mangodb@0.1.2
         next-cool-cache@0.3.1 @b3-crow/cctv-cli@0.1.3)
JS_DIRS=(convex-revenuecat convex-firecrawl-scrape convex-debouncer
         durable-streams-client durable-streams-server mangodb
         next-cool-cache cctv-cli)

GO_MODS=(github.com/carlos7ags/folio@v0.11.0 github.com/coregx/ahocorasick@v0.3.1
         github.com/synadia-io/orbit.go/counters@v0.1.3 github.com/synadia-io/orbit.go/pcgroups@v0.2.3)
GO_DIRS=(folio ahocorasick counters pcgroups)

TMP="$(mktemp -d)"; trap 'chmod -R u+w "$TMP" 2>/dev/null || true; rm -rf "$TMP"' EXIT

kept() { [ -f "$1/VERSIONS" ] && [ "$(cat "$1/VERSIONS")" = "$2" ]; }
count() { find "$1" -type f ! -name VERSIONS | wc -l; }

# copy_tree SRC DST FIND-EXPR...: copy the files under SRC that match, keeping paths
copy_tree() {
    local src="$1" dst="$2"; shift 2
    mkdir -p "$dst"
    (cd "$src" && find . -type f \( "$@" \) \
        ! -path '*/test/*' ! -path '*/tests/*' ! -path '*/__tests__/*' ! -path '*/testdata/*' \
        ! -path '*/_generated/*' ! -path '*/node_modules/*' ! -path '*/examples/*' \
        ! -path '*/.github/*' ! -path '*/__pycache__/*' ! -name '.*' \
        -print0 | xargs -0 -r cp --parents -t "$dst")
}

# --- Python ----------------------------------------------------------------
DEST="$ROOT/python"
if kept "$DEST" "${PY_PKGS[*]}"; then
    echo "corpus: $DEST (kept, $(count "$DEST") files)"
else
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
        --no-deps --no-compile --target "$TMP/site" "${PY_PKGS[@]}"
    rm -rf "$DEST"; mkdir -p "$DEST"
    for d in "${PY_DIRS[@]}"; do
        copy_tree "$TMP/site/$d" "$DEST/$d" \
            -name '*.py' -o -name '*.sql' -o -name '*.sh' -o -name '*.toml' -o -name '*.yaml' \
            -o -name '*.yml' -o -name '*.json' -o -name '*.ini' -o -name '*.html' -o -name '*.mako' \
            -o \( -name '*.jinja' ! -name '*.md.jinja' \)
    done
    echo "${PY_PKGS[*]}" >"$DEST/VERSIONS"
    echo "corpus: $DEST ($(count "$DEST") files)"
fi

# --- JavaScript / TypeScript -----------------------------------------------
DEST="$ROOT/javascript"
if kept "$DEST" "${JS_PKGS[*]}"; then
    echo "corpus: $DEST (kept, $(count "$DEST") files)"
else
    mkdir -p "$TMP/npm"
    rm -rf "$DEST"; mkdir -p "$DEST"
    for i in "${!JS_PKGS[@]}"; do
        spec="${JS_PKGS[$i]}" dir="${JS_DIRS[$i]}"
        tgz="$(cd "$TMP/npm" && npm pack -q "$spec" 2>/dev/null | tail -n1)"
        mkdir -p "$TMP/npm/$dir"; tar xzf "$TMP/npm/$tgz" -C "$TMP/npm/$dir"
        pkg="$TMP/npm/$dir/package"
        if [ -d "$pkg/src" ]; then
            # the package ships its TypeScript source: take it, not the build
            copy_tree "$pkg/src" "$DEST/$dir/src" \
                \( -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.json' \) \
                ! -name '*.d.ts' ! -name '*.test.ts' ! -name '*.test.tsx' ! -name 'test.ts'
        else
            # readable, unminified build output (tsc): ESM only, no typings or maps
            copy_tree "$pkg/dist" "$DEST/$dir/dist" -name '*.js' -o -name '*.mjs'
        fi
        cp "$pkg/package.json" "$DEST/$dir/package.json"
    done
    echo "${JS_PKGS[*]}" >"$DEST/VERSIONS"
    echo "corpus: $DEST ($(count "$DEST") files)"
fi

# --- Go ----------------------------------------------------------------------
DEST="$ROOT/go"
if kept "$DEST" "${GO_MODS[*]}"; then
    echo "corpus: $DEST (kept, $(count "$DEST") files)"
else
    rm -rf "$DEST"; mkdir -p "$DEST"
    for i in "${!GO_MODS[@]}"; do
        mod="${GO_MODS[$i]}" dir="${GO_DIRS[$i]}"
        src="$(cd "$TMP" && GOMODCACHE="$TMP/gomod" GOFLAGS=-modcacherw GO111MODULE=on \
               go mod download -json "$mod" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
        [ -d "$src" ] || { echo "corpus: go mod download $mod failed" >&2; exit 1; }
        copy_tree "$src" "$DEST/$dir" \
            \( -name '*.go' ! -name '*_test.go' \) -o -name '*.sh' -o -name 'Makefile' \
            -o -name 'go.mod' -o -name '*.h'
    done
    echo "${GO_MODS[*]}" >"$DEST/VERSIONS"
    echo "corpus: $DEST ($(count "$DEST") files)"
fi
