"""The tool list, identity and instructions, seen by the Python MCP SDK."""

import json
import urllib.request

import pytest
from mcp import Client

from conftest import EVERY_TOOL_CALL

EXPECTED_TOOLS = [
    "admin_sync",
    "get_file_content",
    "get_file_ast",
    "show_projects",
    "show_stats",
    "show_tree",
    "search_by_code_imports",
    "search_by_code_functions",
    "search_by_code_classes",
    "search_by_code_variables",
    "search_code_text",
    "find_references",
    "search_documentation",
]


@pytest.mark.anyio
@pytest.mark.parametrize("mode, version", [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
async def test_tool_list_and_identity(gateway, mode, version):
    # `legacy`: an old client's `initialize`; `auto`: `server/discover` (test_mcp_2026.py).
    async with Client(gateway.url, mode=mode) as client:
        assert client.server_info.name == "vibe-analyzer"
        assert client.server_info.version
        # True of every answer: no "one call is enough" while a first answer can lack the line.
        assert "instead of searching again" in client.instructions
        assert "One call is enough" not in client.instructions
        assert client.protocol_version == version
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == EXPECTED_TOOLS
        for t in tools:
            assert t.annotations.read_only_hint is (t.name != "admin_sync"), t.name
            assert t.input_schema["type"] == "object"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_every_tool_answers_with_structured_content(gateway, mode):
    calls = {**EVERY_TOOL_CALL, "search_knowledge": {"query": "Kirikur"}}
    async with Client(gateway.url, mode=mode) as client:
        for name, args in calls.items():
            r = await client.call_tool(name, args)
            assert not r.is_error, (name, r.content)
            assert isinstance(r.structured_content, dict), name
            # The text is written for a model (mcp.answer_format "text"): plain, not JSON.
            text = r.content[0].text
            assert text and not text.startswith("{"), (name, text[:200])
        a = (await client.call_tool("search_documentation", {"query": "Kirikur"})).structured_content
        k = (await client.call_tool("search_knowledge", {"query": "Kirikur"})).structured_content
        assert a == k, "search_knowledge is identical to search_documentation"


def raw_initialize(url: str, version: str) -> dict:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json", "accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read().decode()
    for line in text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            msg = json.loads(line[5:])
            if msg.get("id") == 1:
                return msg["result"]
    return json.loads(text)["result"]


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_protocol_versions(gateway, version):
    assert raw_initialize(gateway.url, version)["protocolVersion"] == version
    # The URL users paste (no /mcp) works too.
    assert raw_initialize(gateway.url.removesuffix("/mcp"), version)["protocolVersion"] == version


@pytest.mark.anyio
async def test_a_glob_that_matches_no_file_says_so_and_names_a_wider_one(gateway):
    async with Client(gateway.url) as client:
        r = await client.call_tool("search_code_text", {"query": "Kirikur", "path": "legends/*/kirikur.md"})
        text = r.content[0].text
        assert "`legends/*/kirikur.md` matches no indexed file" in text, text
        assert "`legends/**/kirikur.md` reaches deeper" in text, text
        r = await client.call_tool("search_code_text", {"query": "Kirikur", "path": "legends/**/kirikur.md"})
        assert "legends/kirikur.md" in r.content[0].text
        # A glob that matches files, none of them holding the text: no note.
        r = await client.call_tool("search_code_text", {"query": "no such text here", "path": "legends/*"})
        assert "matches no indexed file" not in r.content[0].text, r.content[0].text


@pytest.mark.anyio
async def test_a_text_page_header_counts_the_files_shown(gateway):
    async with Client(gateway.url) as client:
        first = await client.call_tool("search_code_text", {"query": "Calculator", "limit": 2})
        total = first.structured_content["total"]
        assert total > 4, first.structured_content
        offset = first.structured_content["next_offset"]
        assert first.content[0].text.startswith(f"{total - 2} more results: offset={offset}"), first.content[0].text
        second = await client.call_tool("search_code_text", {"query": "Calculator", "limit": 2, "offset": offset})
        assert second.content[0].text.startswith(f"3-4 of {total} shown"), second.content[0].text
        assert len(second.structured_content["results"]) == 2
