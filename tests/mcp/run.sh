#!/usr/bin/env bash
# MCP client tests (Python `mcp` SDK 2.x from PyPI) against the real gateway.
# Creates tests/mcp/.venv on first use. OpenSearch must answer (scripts/test.sh
# starts it).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import mcp, pytest' 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
fi
.venv/bin/python -m pytest -q "$@"
