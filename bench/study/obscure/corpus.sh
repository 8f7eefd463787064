#!/usr/bin/env bash
# The "little-known code" corpus of the second agent study: the Python
# sources of six recent packages (the MCP SDK 2.x among them), installed at
# fixed versions with pip into a temp dir and copied (only *.py) to
#   ${1:-$HOME/.cache/vibe-bench/obscure}/pylibs/
# Idempotent: an existing pylibs/ with a matching VERSIONS file is kept.
set -euo pipefail
DEST="${1:-$HOME/.cache/vibe-bench/obscure}/pylibs"
PKGS=(mcp==2.3.0 mcp_types==2.3.0 httpx2==2.16.2 httpcore2==2.16.2 sse-starlette==3.7.1 truststore==0.10.5)
DIRS=(mcp mcp_types httpx2 httpcore2 sse_starlette truststore)
if [ -f "$DEST/VERSIONS" ] && [ "$(cat "$DEST/VERSIONS")" = "${PKGS[*]}" ]; then
    echo "corpus: $DEST (kept)"; exit 0
fi
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --no-deps --target "$TMP/site" "${PKGS[@]}"
rm -rf "$DEST"; mkdir -p "$DEST"
(cd "$TMP/site" && find "${DIRS[@]}" -name '*.py' -print0 | xargs -0 cp --parents -t "$DEST")
echo "${PKGS[*]}" >"$DEST/VERSIONS"
echo "corpus: $DEST ($(find "$DEST" -name '*.py' | wc -l) files)"
