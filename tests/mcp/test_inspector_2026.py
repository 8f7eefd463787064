"""The MCP Inspector of the new line (@modelcontextprotocol/inspector 2.12.0,
its CLI with `--protocol-era modern`: MCP 2026-07-28, no fallback) lists the
13 tools and calls each read tool (issue 71). A recording forwarder between
the Inspector and the gateway keeps every POST: none is `initialize`, none
carries a session, every one names 2026-07-28 in `MCP-Protocol-Version` and
its method in `Mcp-Method`, and every one is answered with HTTP 200.
`admin_sync` is listed but not called: it writes the index (test_admin_sync.py
calls it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import EVERY_TOOL_CALL
from relay import forward, serving

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
MODERN = "2026-07-28"


class Recording(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, backend: str):
        self.backend = backend
        self.seen: list[dict] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Forward)


class Forward(BaseHTTPRequestHandler):
    server: Recording

    def do_POST(self):
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
        body, status = forward(self, self.server.backend, headers)
        with self.server.lock:
            self.server.seen.append({"method": json.loads(body).get("method"), "status": status,
                                     "version": self.headers.get("mcp-protocol-version"),
                                     "mcp_method": self.headers.get("mcp-method"),
                                     "session": self.headers.get("mcp-session-id")})

    def do_GET(self):  # a stateless server offers no GET stream
        self.send_response(405)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def recorded(gateway):
    with serving(Recording(f"http://127.0.0.1:{gateway.port}")) as server:
        yield server


def inspector(url: str, *args: str) -> dict:
    npx = shutil.which("npx")
    if not npx:
        pytest.skip("npx is not installed")
    cmd = [npx, "-y", INSPECTOR, "--cli", url, "--transport", "http", "--protocol-era", "modern", *args]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip("the inspector could not be fetched in time")
    if r.returncode != 0 and "npm" in r.stderr and "ERR" in r.stderr:
        pytest.skip(f"the inspector is not available: {r.stderr[-300:]}")
    assert r.returncode == 0, (args, r.stderr[-2000:])
    return json.loads(r.stdout)


def test_inspector_modern_lists_and_calls_every_tool(recorded):
    url = f"http://127.0.0.1:{recorded.server_address[1]}/mcp"
    tools = [t["name"] for t in inspector(url, "--method", "tools/list")["tools"]]
    assert len(tools) == 13 and set(EVERY_TOOL_CALL) | {"admin_sync"} == set(tools), tools
    for name, args in EVERY_TOOL_CALL.items():
        answer = inspector(url, "--method", "tools/call", "--tool-name", name, "--tool-args-json", json.dumps(args))
        assert answer.get("isError") is False and answer["content"][0]["text"].strip(), (name, answer)
    seen = recorded.seen
    methods = {s["method"] for s in seen}
    assert "initialize" not in methods and {"tools/list", "tools/call"} <= methods, methods
    assert all(s["version"] == MODERN for s in seen), [s for s in seen if s["version"] != MODERN]
    assert all(s["mcp_method"] == s["method"] for s in seen), seen
    assert all(s["session"] is None and s["status"] == 200 for s in seen), seen
    assert sum(s["method"] == "tools/call" for s in seen) == len(EVERY_TOOL_CALL)
