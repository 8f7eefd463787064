"""Helpers shared by the Python benches: OpenSearch requests, percentiles,
logging, and one MCP runner (`McpSession`, `run_mcp_calls`)."""

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


class McpSession:
    """One MCP session (the Python SDK of tests/mcp/.venv over Streamable
    HTTP) whose `call` measures one tool call into an `McpCall`:

        async with McpSession(url) as mcp:
            c = await mcp.call("search_code_text", {"query": "TODO"})
    """

    def __init__(self, url: str, timeout_s: float = 60):
        self.url, self.timeout_s = url, timeout_s
        self.client = None

    async def __aenter__(self) -> "McpSession":
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        transport = streamable_http_client(self.url, http_client=httpx2.AsyncClient(timeout=httpx2.Timeout(self.timeout_s)))
        self._client = Client(transport, mode="legacy")
        self.client = await self._client.__aenter__()
        return self

    async def __aexit__(self, *exc) -> None:
        await self._client.__aexit__(*exc)

    async def tool_names(self) -> set[str]:
        listed = await self.client.list_tools()
        return {t.name for t in getattr(listed, "tools", listed)}

    async def call(self, tool: str, args: dict, error_chars: int = 200) -> McpCall:
        """One call, measured: its answer (the text parsed, else the
        structured content), bytes, latency and error."""
        import time

        c = McpCall(tool, dict(args))
        t = time.perf_counter()
        try:
            r = await self.client.call_tool(tool, args)
        except Exception as e:  # noqa: BLE001 - recorded as an error
            c.latency_ms = (time.perf_counter() - t) * 1000
            c.error = f"{type(e).__name__}: {e}"[:300]
            return c
        c.latency_ms = (time.perf_counter() - t) * 1000
        text = "".join(getattr(x, "text", "") or "" for x in (r.content or []))
        c.bytes = len(text.encode("utf-8"))
        if r.is_error:
            c.error = f"isError: {text[:error_chars]}"
            return c
        try:
            c.answer = json.loads(text)
        except ValueError:
            c.answer = r.structured_content
        return c


async def run_mcp_calls(url: str, calls: list[McpCall], warmup: list[tuple[str, dict]] = ()) -> None:
    """Runs the calls one after another in one MCP session, filling in each
    call's outcome; the warm-up calls are made first and not measured."""
    async with McpSession(url) as mcp:
        for tool, args in warmup:
            await mcp.client.call_tool(tool, args)
        for c in calls:
            done = await mcp.call(c.tool, c.args)
            c.answer, c.bytes, c.latency_ms, c.error = done.answer, done.bytes, done.latency_ms, done.error
