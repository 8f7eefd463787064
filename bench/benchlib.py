"""Helpers shared by the Python benches: OpenSearch requests, percentiles,
logging, the stdlib corpus (lib.sh's, not a copy of it), and one MCP runner
(`McpSession`, `run_mcp_calls`)."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent


WORD = re.compile(r"\w+")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_a-zA-Z]+")


def split_words(text: str) -> list[str]:
    """Words with identifiers split on case and `_`, lower case (the bench's
    plain baselines and its vocabulary count)."""
    out = []
    for token in WORD.findall(text):
        for part in token.split("_"):
            out.extend(w.lower() for w in CAMEL.findall(part) if w)
    return out


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))]


def opensearch_url() -> str:
    """$VIBE_OPENSEARCH_URL, else the local test node."""
    return os.environ.get("VIBE_OPENSEARCH_URL", "http://127.0.0.1:9200").rstrip("/")


def ast_aliases(prefix: str) -> str:
    """Every project's AST alias under a bench prefix: `<p>_ast_<h>` (an
    index of an older binary is renamed so when this one installs templates)."""
    return f"{prefix}_ast_*"


def files_aliases(prefix: str) -> str:
    """Every project's files alias under a bench prefix."""
    return f"{prefix}_files_*"


def os_json(base: str, path: str, body: dict | None = None, method: str | None = None, timeout: int = 600) -> dict:
    """One OpenSearch request with a JSON body (POST) or none (GET)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data else "GET"),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        raw = r.read()
        return json.loads(raw) if raw else {}


def os_scroll(base: str, index: str, body: dict, keep: str = "1m"):
    """Every hit of a search on `index` (a name, alias or pattern), page by
    page through a scroll, which is cleared at the end."""
    page = os_json(base, f"/{index}/_search?scroll={keep}", body)
    try:
        while page["hits"]["hits"]:
            yield from page["hits"]["hits"]
            page = os_json(base, "/_search/scroll", {"scroll": keep, "scroll_id": page["_scroll_id"]})
    finally:
        if page.get("_scroll_id"):
            os_json(base, "/_search/scroll", {"scroll_id": page["_scroll_id"]}, method="DELETE")


def logger(tag: str):
    """A `log(*parts)` that prints `[tag] parts...` to stderr."""
    def log(*parts) -> None:
        print(f"[{tag}]", *parts, file=sys.stderr, flush=True)
    return log


log = logger("bench")


def quiet_mcp_logs() -> None:
    """Only errors from the MCP SDK (it warns when it cannot validate an
    alias name) and warnings from its HTTP client."""
    logging.getLogger("mcp").setLevel(logging.ERROR)
    logging.getLogger("client").setLevel(logging.ERROR)
    logging.getLogger("httpx2").setLevel(logging.WARNING)


def stdlib_copy(dst: Path, *find_tests: str) -> Path:
    """The Python standard library copied to dst by bench/lib.sh's
    `stdlib_copy_to` (no site-packages, no __pycache__; find tests such as
    "-name", "*.py" keep only the files passing them). An existing dst is
    kept as it is (incremental reruns)."""
    if dst.is_dir():
        return dst
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    subprocess.run(["bash", "-c", 'source "$0" && stdlib_copy_to "$@"', str(BENCH / "lib.sh"), str(tmp), *find_tests],
                   check=True)
    tmp.rename(dst)
    return dst


class McpCall:
    """One tool call's outcome: the parsed answer, its text and size in
    bytes, the structured content, the client-side latency, and the error
    (exception or isError) if any."""

    def __init__(self, tool: str, args: dict):
        self.tool, self.args = tool, args
        self.answer = None
        self.text = ""
        self.structured = None
        self.bytes = 0
        self.latency_ms = float("nan")
        self.error: str | None = None


class McpSession:
    """One MCP session (the Python SDK of tests/mcp/.venv over Streamable
    HTTP) whose `call` measures one tool call into an `McpCall`:

        async with McpSession(url) as mcp:
            c = await mcp.call("search_code_text", {"query": "TODO"})
    """

    def __init__(self, url: str, timeout_s: float = 60, token: str | None = None, typed: bool = True):
        # The benches read typed answers (structuredContent): asked for on the
        # endpoint, since a server sends the text alone by default. typed=False
        # keeps the URL as given (what a model reads: context.py, the study).
        if typed and "typed_output" not in url:
            url += ("&" if "?" in url else "?") + "typed_output=true"
        self.url, self.timeout_s, self.token = url, timeout_s, token
        self.client = None

    async def __aenter__(self) -> "McpSession":
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(self.timeout_s))
        transport = streamable_http_client(self.url, http_client=http)
        self._client = Client(transport, mode="legacy")
        self.client = await self._client.__aenter__()
        return self

    async def __aexit__(self, *exc) -> None:
        await self._client.__aexit__(*exc)

    async def tool_names(self) -> set[str]:
        listed = await self.client.list_tools()
        return {t.name for t in getattr(listed, "tools", listed)}

    async def call(self, tool: str, args: dict, error_chars: int = 200, parse: bool = True) -> McpCall:
        """One call, measured: its answer (the text parsed, else the
        structured content; not parsed with parse=False), bytes, latency
        and error."""
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
        c.text, c.structured = text, r.structured_content
        c.bytes = len(text.encode("utf-8"))
        if r.is_error:
            c.error = f"isError: {text[:error_chars]}"
            return c
        if not parse:
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
