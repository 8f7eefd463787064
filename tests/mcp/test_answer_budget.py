"""The answer budget (issue 24), end to end: the real binary indexes large
generated trees (tests/mcp/budget_pages.py: a JDK-like Java class, a
generated 20,000-line file, a minified bundle, a long Markdown guide, a deep
tree, 50 small projects) into the real OpenSearch (own index prefix and
config dir, default `mcp.answer_budget`), `serve start` serves them, and the
Python MCP SDK asks. Every answer keeps to the budget; each cut answer says
`truncated: true` and the way to the rest, and following it gives the file
or the list back whole: nothing missing, nothing repeated. Every answer fits
the tool's outputSchema.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from mcp import Client

from answer_schemas import schema_problems
from budget_pages import follow_content, follow_list, write_fixture
from conftest import OPENSEARCH, binary, free_port, start_server, wipe

PREFIX = "budget"
BUDGET = 12_000  # the default mcp.answer_budget


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("budget")
    sources = write_fixture(root / "src")
    config_dir = root / "config"
    config_dir.mkdir()
    port = free_port()
    config = {"version": "0.2.0", "opensearch": {"hosts": [OPENSEARCH], "index_prefix": PREFIX},
              "mcp": {"host": "127.0.0.1", "port": port}, "ollama": [], "sources": [str(s) for s in sources]}
    (config_dir / "config.json5").write_text(json.dumps(config), encoding="utf-8")
    wipe(PREFIX)
    bin = binary()
    subprocess.run([str(bin), "--config-dir", str(config_dir), "scan", "index", "--no-llm"],
                   check=True, capture_output=True, timeout=900)
    proc = start_server(bin, config_dir, port)
    # Typed answers through the endpoint switch (the config keeps the default).
    yield {"url": f"http://127.0.0.1:{port}/mcp?typed_output=true", "big": sources[0]}
    subprocess.run([str(bin), "--config-dir", str(config_dir), "serve", "stop"], capture_output=True)
    proc.wait(timeout=15)
    wipe(PREFIX)


def caller(client: Client):
    tools: dict = {}

    async def call(tool: str, args: dict):
        r = await client.call_tool(tool, args)
        text = "".join(getattr(c, "text", "") for c in r.content)
        assert len(text.encode()) <= BUDGET, f"{tool} {args}: {len(text.encode())} bytes"
        assert not r.is_error, f"{tool} {args}: {text[:500]}"
        # Cut pages fit the tool's outputSchema, closed (the SDK checks it open).
        if not tools:
            tools.update({t.name: t for t in (await client.list_tools()).tools})
        assert not schema_problems(tools, tool, r.structured_content), schema_problems(tools, tool, r.structured_content)
        return text, r.structured_content
    return call


@pytest.mark.anyio
@pytest.mark.parametrize("path", ["gen/constants.py", "src/BigMap.java", "dist/bundle.min.js"])
async def test_file_content_pages_give_the_file_back_byte_for_byte(served, path):
    async with Client(served["url"]) as c:
        call = caller(c)
        _, first = await call("get_file_content", {"path": path, "target": "bigproj"})
        # Cut into pages, or (the bundle: 3 lines) its long lines shortened.
        cut = first.get("truncated") is True and first["next_start_line"] > 1
        assert cut or first.get("shortened_lines"), {k: str(v)[:200] for k, v in first.items()}
        assert first["total_lines"] >= 3
        back, sizes = await follow_content(call, path, "bigproj")
    assert back == (served["big"] / path).read_text(encoding="utf-8")
    assert len(sizes) > 3 and max(sizes) <= BUDGET


@pytest.mark.anyio
async def test_a_minified_line_is_shortened_and_says_so(served):
    async with Client(served["url"]) as c:
        _, a = await caller(c)("get_file_content", {"path": "dist/bundle.min.js", "target": "bigproj"})
    assert a["shortened_lines"] == [2, 3], a.get("shortened_lines")
    assert "shortened" in a["message"] and "start_line 2" in a["message"], a["message"]


@pytest.mark.anyio
async def test_file_ast_is_an_outline_that_pages_and_a_symbol_comes_whole(served):
    async with Client(served["url"]) as c:
        call = caller(c)
        names, sizes, first = await follow_list(call, "get_file_ast", {"path": "src/BigMap.java", "target": "bigproj"},
                                                "elements", lambda e: f"{e.get('owner')}.{e['name']}@{e['lines']}")
        assert first["truncated"] is True and first["next_offset"] > 0
        assert first["imports"]["total"] == 40 and len(first["imports"]["first"]) == 10
        assert len(names) == first["total_elements"] == len(set(names)), (len(names), first["total_elements"])
        method = next(e for e in first["elements"] if e["name"] == "method3")
        assert len(method["signature"]) <= 125 and method["signature"].endswith("…"), method
        assert method["doc"] == "Computes value number 3 for the given key.", method
        # 20,000 elements: pages go past any search window.
        names, _, first = await follow_list(call, "get_file_ast", {"path": "gen/constants.py", "target": "bigproj"},
                                            "elements", lambda e: e["name"])
        assert names == [f"CONSTANT_{i}" for i in range(1, 20_001)], (len(names), names[-3:])
        _, one = await call("get_file_ast", {"path": "src/BigMap.java", "target": "bigproj", "symbol": "BigMap.method3"})
        m = one["matches"][0]
        assert "throws IllegalStateException" in m["signature"] and "Second sentence about method3" in m["doc"]
        # A class's members page with offset.
        names, _, first = await follow_list(call, "get_file_ast",
                                            {"path": "src/BigMap.java", "target": "bigproj", "symbol": "BigMap"},
                                            "members", lambda e: e["name"])
        assert first["truncated"] is True and len(names) == first["total_members"] == len(set(names)) > 400


@pytest.mark.anyio
async def test_show_tree_cuts_by_depth_for_all_projects_and_opens_a_directory(served):
    async with Client(served["url"]) as c:
        call = caller(c)
        _, a = await call("show_tree", {})
        assert a["truncated"] is True and "files" in a["tree"] and "…" in a["tree"], a
        assert a["tree"].count("project-") == 50, a["tree"][:500]
        _, one = await call("show_tree", {"target": "bigproj"})
        assert one["truncated"] is True and re.search(r"… \d+ files", one["tree"]), one["tree"]
        _, sub = await call("show_tree", {"target": "bigproj", "path": "pkg/mod3", "depth": 2})
        assert sub["path"] == "pkg/mod3" and sub["total_files"] == 18 and sub["depth"] == 2, sub
        assert "sub5" in sub["tree"] and "deep\n" in sub["tree"] and "… 3 files" in sub["tree"], sub["tree"]


@pytest.mark.anyio
async def test_documentation_answers_with_the_passage_that_matched(served):
    async with Client(served["url"]) as c:
        _, a = await caller(c)("search_documentation", {"query": "how to publish a package", "target": "bigproj"})
    r = a["results"][0]
    assert r["path"] == "docs/guide.md" and r["title"] == "Operations guide"
    assert r["description"].startswith("How the service is built")
    assert r["sections"][0]["heading"] == "Topic 137: publishing a package", r["sections"]
    assert "run make publish after the release tag is pushed" in r["sections"][0]["passage"], r["sections"]
    assert len(r.get("other_headings", [])) <= 4 and r["headings_total"] == 201


@pytest.mark.anyio
async def test_projects_stats_searches_and_errors_keep_to_the_budget(served):
    async with Client(served["url"]) as c:
        call = caller(c)
        names, sizes, first = await follow_list(call, "show_projects", {}, "projects", lambda p: p["path"])
        assert first["total"] == 51 and len(names) == 51 == len(set(names)), (first["total"], len(names))
        await call("show_stats", {})
        for tool, args in [("search_code_text", {"query": "CONSTANT_1", "limit": 10}),
                           ("search_by_code_functions", {"query": "method", "limit": 10}),
                           ("find_references", {"query": "apply", "limit": 10}),
                           ("search_documentation", {"query": "project service", "limit": 10})]:
            await call(tool, args)
        # An error that lists many candidates is cut too.
        r = await c.call_tool("get_file_ast", {"path": "src/BigMap.java", "target": "bigproj", "symbol": "nope"})
        text = "".join(getattr(x, "text", "") for x in r.content)
        assert r.is_error and len(text.encode()) <= BUDGET and "no element named" in text, text[:300]
