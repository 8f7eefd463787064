"""An old client: the Python SDK `mcp` 1.x (`tests/mcp/sdk1/requirements.txt`,
in its own venv `tests/mcp/.venv-sdk1`, created from PyPI on first use)
opens a session with `initialize` at 2025-11-25, lists the 13 tools and
calls every read-only one, on the endpoint that also serves 2026-07-28."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import EVERY_TOOL_CALL

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-sdk1"
REQUIREMENTS = HERE / "sdk1" / "requirements.txt"


def sdk1_python() -> Path:
    """The venv's python, the venv created (or mended) when it lacks the 1.x SDK."""
    python = VENV / "bin" / "python"
    check = "import importlib.metadata as m; assert m.version('mcp').startswith('1.')"
    if not python.exists() or subprocess.run([str(python), "-c", check], capture_output=True).returncode != 0:
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
                       check=True, timeout=600)
    return python


def test_an_sdk_1_client_initializes_and_calls_every_tool(gateway):
    run = subprocess.run([str(sdk1_python()), str(HERE / "sdk1" / "client.py"), gateway.url],
                         input=json.dumps(EVERY_TOOL_CALL), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout)
    assert seen["protocol_version"] == "2025-11-25"
    assert seen["server"] == "vibe-analyzer" and seen["session"]
    assert len(seen["tools"]) == 13, seen["tools"]
    for name, answer in seen["answers"].items():
        assert not answer["is_error"] and answer["text"], (name, answer)
