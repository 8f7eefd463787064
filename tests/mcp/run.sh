#!/usr/bin/env bash
# MCP client tests (Python `mcp` SDK 2.x from PyPI) against the real gateway.
# Creates tests/mcp/.venv on first use. OpenSearch must answer (scripts/test.sh
# starts it).
set -euo pipefail
cd "$(dirname "$0")"
# mcp 2.3 or newer: the tests speak MCP 2026-07-28 (mode="2026-07-28").
# test_sdk1.py makes its own venv, .venv-sdk1, for the 1.x SDK (sdk1/requirements.txt).
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import mcp, pytest; from mcp_types.version import MODERN_PROTOCOL_VERSIONS as m; assert "2026-07-28" in m' 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
fi
.venv/bin/python -m pytest -q "$@"
