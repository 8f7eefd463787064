"""Helpers shared by the Python benches (relevance, references, text_search)."""

from __future__ import annotations

import json
import urllib.request


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))]


def os_json(base: str, path: str, body: dict | None = None, method: str | None = None, timeout: int = 600) -> dict:
    """One OpenSearch request with a JSON body (POST) or none (GET)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data else "GET"),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        raw = r.read()
        return json.loads(raw) if raw else {}


def log(msg: str) -> None:
    import sys
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


class McpCall:
    """One tool call's outcome: the parsed answer, its text size in bytes,
    the client-side latency, and the error (exception or isError) if any."""

    def __init__(self, tool: str, args: dict):
        self.tool, self.args = tool, args
        self.answer = None
        self.bytes = 0
        self.latency_ms = float("nan")
        self.error: str | None = None


async def run_mcp_calls(url: str, calls: list[McpCall], warmup: list[tuple[str, dict]] = ()) -> None:
    """Runs the calls one after another in one MCP session (Python SDK over
    Streamable HTTP), filling in each call's outcome; the warm-up calls are
    made first and not measured."""
    import time

    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with Client(streamable_http_client(url, http_client=httpx2.AsyncClient(timeout=httpx2.Timeout(60))),
                      mode="legacy") as client:
        for tool, args in warmup:
            await client.call_tool(tool, args)
        for c in calls:
            t = time.perf_counter()
            try:
                r = await client.call_tool(c.tool, c.args)
            except Exception as e:  # noqa: BLE001 - recorded as an error
                c.latency_ms = (time.perf_counter() - t) * 1000
                c.error = f"{type(e).__name__}: {e}"[:300]
                continue
            c.latency_ms = (time.perf_counter() - t) * 1000
            text = "".join(getattr(x, "text", "") or "" for x in (r.content or []))
            c.bytes = len(text.encode("utf-8"))
            if r.is_error:
                c.error = f"isError: {text[:200]}"
                continue
            try:
                c.answer = json.loads(text)
            except ValueError:
                c.answer = r.structured_content
