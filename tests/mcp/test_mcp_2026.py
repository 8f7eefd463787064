"""MCP 2026-07-28 beside 2025-11-25 on the same endpoint (issue 71).

The SDK `mcp` 2.3 in its modern mode (`mode="2026-07-28"`: no handshake, no
session, every request stamped with `_meta` and the routing headers) and in
its `auto` mode (`server/discover` first, no fallback needed), and the same
requests sent by hand: `server/discover`, `resultType`, the routing headers
checked, a version the server does not speak refused with the versions it
does. Every HTTP exchange of the SDK's client is recorded.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from conftest import EVERY_TOOL_CALL

MODERN = "2026-07-28"
SPOKEN = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN]
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


class Recorder:
    """An httpx2 client for the SDK that remembers every exchange."""

    def __init__(self):
        self.requests: list[httpx2.Request] = []
        self.responses: list[httpx2.Response] = []

        async def on_request(request: httpx2.Request) -> None:
            self.requests.append(request)

        async def on_response(response: httpx2.Response) -> None:
            self.responses.append(response)

        self.client = httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300),
                                         event_hooks={"request": [on_request], "response": [on_response]})

    def methods(self) -> list[str]:
        return [json.loads(r.content)["method"] for r in self.requests if r.method == "POST"]

    def statuses(self) -> list[int]:
        return [r.status_code for r in self.responses]


def post(url: str, body: dict, headers: dict[str, str]) -> tuple[int, dict, dict]:
    """(HTTP status, response headers, JSON body) of one POST."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream", **headers})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def modern(url: str, method: str, params: dict | None = None, *, name: str | None = None,
           headers: dict[str, str] | None = None, meta: dict | None = None) -> tuple[int, dict, dict]:
    """One stateless request, stamped as a 2026-07-28 client stamps it."""
    stamp = {"mcp-protocol-version": MODERN, "mcp-method": method}
    if name is not None:
        stamp["mcp-name"] = name
    body = {"jsonrpc": "2.0", "id": 9, "method": method, "params": {**(params or {}), "_meta": meta or META}}
    return post(url, body, {**stamp, **(headers or {})})


@pytest.mark.anyio
async def test_modern_mode_lists_and_calls_every_tool(gateway):
    rec = Recorder()
    async with Client(streamable_http_client(gateway.url, http_client=rec.client), mode=MODERN) as client:
        assert client.protocol_version == MODERN
        tools = (await client.list_tools()).tools
        assert len(tools) == 13, [t.name for t in tools]
        for name, args in EVERY_TOOL_CALL.items():
            r = await client.call_tool(name, args)
            assert not r.is_error, (name, r.content)
            assert r.content[0].text and isinstance(r.structured_content, dict), name
    # No handshake, no session: each request stamped on its own.
    assert rec.methods() == ["tools/list", *(["tools/call"] * len(EVERY_TOOL_CALL))], rec.methods()
    assert set(rec.statuses()) == {200}, rec.statuses()
    assert all("mcp-session-id" not in r.headers for r in rec.responses)
    for request in rec.requests:
        assert request.headers["mcp-protocol-version"] == MODERN
        body = json.loads(request.content)
        assert request.headers["mcp-method"] == body["method"]
        assert body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == MODERN
    # A stateless answer is one JSON body, which any proxy passes on.
    assert {r.headers["content-type"] for r in rec.responses} == {"application/json"}


@pytest.mark.anyio
async def test_auto_mode_discovers_with_no_400(gateway):
    rec = Recorder()
    async with Client(streamable_http_client(gateway.url, http_client=rec.client)) as client:
        assert client.protocol_version == MODERN
        assert client.server_info.name == "vibe-analyzer"
        assert "instead of searching again" in client.instructions
        r = await client.call_tool("search_by_code_functions", {"query": "multiply"})
        assert not r.is_error and "multiply" in r.content[0].text
    # The SDK lists the tools for the call's output schema, beside the call.
    methods = rec.methods()
    assert methods[0] == "server/discover" and sorted(methods[1:]) == ["tools/call", "tools/list"], methods
    assert set(rec.statuses()) == {200}, rec.statuses()


@pytest.mark.anyio
async def test_modern_mode_on_a_project_endpoint(gateway):
    status, _, answer = modern(gateway.url + "/samples", "server/discover")
    assert status == 200
    assert "samples" in answer["result"]["instructions"], answer
    async with Client(gateway.url + "/samples", mode=MODERN) as client:
        r = await client.call_tool("show_tree", {})
        assert not r.is_error and "calculator" in r.content[0].text.lower(), r.content


def test_discover_names_the_versions_and_the_server(gateway):
    status, headers, answer = modern(gateway.url, "server/discover")
    assert status == 200 and "mcp-session-id" not in {k.lower() for k in headers}
    result = answer["result"]
    assert result["supportedVersions"] == SPOKEN
    assert result["resultType"] == "complete"
    assert result["capabilities"]["tools"] == {}
    assert result["ttlMs"] >= 0 and result["cacheScope"] in ("private", "public")
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "vibe-analyzer"
    assert "instead of searching again" in result["instructions"]


def test_results_carry_their_type_for_the_new_revision_only(gateway):
    status, _, listed = modern(gateway.url, "tools/list")
    assert status == 200 and listed["result"]["resultType"] == "complete"
    assert len(listed["result"]["tools"]) == 13 and "ttlMs" in listed["result"]
    status, _, called = modern(gateway.url, "tools/call", {"name": "show_stats", "arguments": {}}, name="show_stats")
    assert status == 200 and called["result"]["resultType"] == "complete"
    assert called["result"]["isError"] is False
    # An old client's handshake gets the old shape.
    from test_tools import raw_initialize
    result = raw_initialize(gateway.url, "2025-11-25")
    assert result["protocolVersion"] == "2025-11-25" and "resultType" not in result


@pytest.mark.parametrize("header, meta", [(True, True), (False, True), (True, False)])
def test_a_version_not_spoken_is_refused_naming_those_spoken(gateway, header, meta):
    body = {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {}}
    if meta:
        body["params"]["_meta"] = {**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
    headers = {"mcp-method": "tools/list", **({"mcp-protocol-version": "2099-01-01"} if header else {})}
    status, _, answer = post(gateway.url, body, headers)
    assert status == 400, answer
    assert answer["id"] == 4
    error = answer["error"]
    assert error["code"] == -32022
    assert error["data"] == {"supported": SPOKEN, "requested": "2099-01-01"}
    assert all(v in error["message"] for v in SPOKEN), error["message"]


@pytest.mark.parametrize("headers, why", [
    ({"mcp-method": "tools/list"}, "Mcp-Method"),
    ({"mcp-name": "show_projects"}, "Mcp-Name"),
    ({"mcp-protocol-version": "2025-11-25"}, "MCP-Protocol-Version"),
])
def test_routing_headers_must_match_the_body(gateway, headers, why):
    status, _, answer = modern(gateway.url, "tools/call", {"name": "show_stats", "arguments": {}}, name="show_stats",
                               headers=headers)
    assert status == 400, answer
    assert answer["error"]["code"] == -32020, answer
    assert answer["id"] == 9


def test_an_envelope_without_capabilities_is_invalid(gateway):
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN}
    status, _, answer = modern(gateway.url, "tools/list", meta=meta)
    assert status == 400 and answer["error"]["code"] == -32602, answer
    assert "clientCapabilities" in answer["error"]["message"]


@pytest.mark.anyio
async def test_old_clients_still_initialize(gateway):
    rec = Recorder()
    async with Client(streamable_http_client(gateway.url, http_client=rec.client), mode="legacy") as client:
        assert client.protocol_version == "2025-11-25"
        assert len((await client.list_tools()).tools) == 13
        r = await client.call_tool("search_by_code_classes", {"query": "Calculator"})
        assert not r.is_error
    assert rec.methods()[:2] == ["initialize", "notifications/initialized"], rec.methods()
    assert any("mcp-session-id" in r.headers for r in rec.responses)
