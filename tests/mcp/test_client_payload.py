"""What a model reads, whatever its client's rule (issue 54).

Claude Code, Codex and opencode hand their model the JSON of
`structuredContent` when a result has it and drop the text; Open WebUI and
others read the text. By default (`mcp.typed_output` false) a result carries
the compact text alone and `tools/list` declares no `outputSchema`, so every
client's model reads the same text once. A program turns typed output on in
the config, or per endpoint with `?typed_output=true`.
"""

from __future__ import annotations

import json

import pytest
from mcp import Client

from conftest import EVERY_TOOL_CALL, OPENSEARCH, PREFIX, free_port, start_server

CALLS = EVERY_TOOL_CALL


@pytest.fixture(scope="module")
def default_server(gateway, tmp_path_factory):
    """The session's index served from a config that leaves `mcp` at its defaults."""
    config_dir = tmp_path_factory.mktemp("default-config")
    port = free_port()
    config = {"version": "0.2.0", "opensearch": {"hosts": [OPENSEARCH], "index_prefix": PREFIX},
              "mcp": {"host": "127.0.0.1", "port": port}, "ollama": [], "sources": []}
    (config_dir / "config.json5").write_text(json.dumps(config), encoding="utf-8")
    proc = start_server(gateway.bin, config_dir, port)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    proc.wait(timeout=15)


async def answers(url: str) -> tuple[list, dict]:
    async with Client(url) as client:
        tools = (await client.list_tools()).tools
        results = {name: await client.call_tool(name, args) for name, args in CALLS.items()}
    return tools, results


@pytest.mark.anyio
async def test_by_default_a_result_is_its_text_alone(default_server):
    tools, results = await answers(default_server)
    assert [t.name for t in tools if t.output_schema is not None] == []
    for name, r in results.items():
        assert not r.is_error, (name, r.content)
        assert r.structured_content is None, name
        assert len(r.content) == 1 and r.content[0].type == "text", name
        text = r.content[0].text
        assert text and not text.startswith("{"), (name, text[:200])
    # A tool error is text alone too.
    async with Client(default_server) as client:
        bad = await client.call_tool("search_code_text", {"query": "(", "regex": True})
    assert bad.is_error and bad.structured_content is None, bad


@pytest.mark.anyio
async def test_typed_output_per_endpoint(default_server, gateway):
    # The default server's endpoint with ?typed_output=true: schemas and structured answers.
    tools, results = await answers(default_server + "?typed_output=true")
    assert all(t.output_schema is not None for t in tools), [t.name for t in tools if t.output_schema is None]
    for name, r in results.items():
        assert isinstance(r.structured_content, dict), name
    # The same text either way.
    _, plain = await answers(default_server)
    for name in CALLS:
        if name not in ("show_projects", "show_stats"):  # their "last indexed" ages move
            assert plain[name].content[0].text == results[name].content[0].text, name
    # The session's server has typed output on in its config; =false turns it off for one endpoint.
    tools, results = await answers(gateway.url + "?typed_output=false")
    assert all(t.output_schema is None for t in tools)
    assert all(r.structured_content is None for r in results.values())
