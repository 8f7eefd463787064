"""A relay between an MCP client and gateways, for tests that watch or
spread the POSTs a client sends: forward one request to a backend, send its
answer back as it came, and run the relay on a thread of its own."""

from __future__ import annotations

import contextlib
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator


def forward(handler: BaseHTTPRequestHandler, backend: str, headers: dict[str, str]) -> tuple[bytes, int]:
    """POSTs the handler's request body to `backend` (same path, these
    headers) and writes the backend's status, content type, session id and
    body back to the client. Returns the request body and the status."""
    body = handler.rfile.read(int(handler.headers.get("content-length", 0)))
    req = urllib.request.Request(backend + handler.path, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            status, reply, answer = r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        status, reply, answer = e.code, e.headers, e.read()
    handler.send_response(status)
    for name in ("content-type", "mcp-session-id"):
        if reply.get(name):
            handler.send_header(name, reply[name])
    handler.send_header("content-length", str(len(answer)))
    handler.end_headers()
    handler.wfile.write(answer)
    return body, status


@contextlib.contextmanager
def serving(server: ThreadingHTTPServer) -> Iterator[ThreadingHTTPServer]:
    """Runs the relay on a daemon thread while the block runs."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
