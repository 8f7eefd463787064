"""One project's endpoint, `/mcp/<project>`: the tools are the same, and a
call that names no target searches that project only. An assistant set up
inside one project (Claude Code's `.mcp.json`, Cursor's project settings)
gets answers from it first without having to know its name; `target: "all"`
still searches every project, another project's target still wins, and a
target that names no project keeps the endpoint's."""

import urllib.parse

import pytest
from mcp import Client

from conftest import FIXTURES


def projects_of(answer: dict) -> set[str]:
    return {r["project"] for r in answer.get("results", [])}


async def call(url: str, tool: str, args: dict) -> dict:
    async with Client(url) as client:
        r = await client.call_tool(tool, args)
        assert not r.is_error, (tool, args, r.content)
        return r.structured_content


@pytest.mark.anyio
async def test_a_project_endpoint_searches_its_project(gateway):
    samples, knowledge = str(FIXTURES / "samples"), str(FIXTURES / "knowledge")
    base = f"http://127.0.0.1:{gateway.port}/mcp"
    # The knowledge base answers "Kirikur" on the shared endpoint and on its own.
    assert knowledge in projects_of(await call(base, "search_documentation", {"query": "Kirikur"}))
    assert projects_of(await call(f"{base}/knowledge", "search_documentation", {"query": "Kirikur"})) == {knowledge}
    # The samples' endpoint does not reach it, unless the call asks for every project or names it.
    assert knowledge not in projects_of(await call(f"{base}/samples", "search_documentation", {"query": "Kirikur"}))
    for target in ["all", "knowledge"]:
        a = await call(f"{base}/samples", "search_documentation", {"query": "Kirikur", "target": target})
        assert knowledge in projects_of(a), target
    # An empty target, as small models send for optional parameters, keeps the endpoint's project.
    a = await call(f"{base}/knowledge", "search_by_code_functions", {"query": "multiply", "target": ""})
    assert samples not in projects_of(a), a
    assert projects_of(await call(f"{base}/samples", "search_by_code_functions", {"query": "multiply"})) == {samples}
    # A project's path, percent-encoded, names it too (two projects may share a name).
    encoded = urllib.parse.quote(knowledge, safe="")
    assert projects_of(await call(f"{base}/{encoded}", "search_documentation", {"query": "Kirikur"})) == {knowledge}
    # A target that names no project (a small model's guess) keeps the endpoint's project, and says so.
    a = await call(f"{base}/samples", "search_by_code_functions", {"query": "multiply", "target": "my-repo"})
    assert projects_of(a) == {samples}, a
    assert 'unknown target "my-repo"' in a["note"] and "samples" in a["note"], a
    # show_tree of the endpoint's project needs no target.
    tree = await call(f"{base}/samples", "show_tree", {})
    assert "calculator.py" in str(tree), tree


@pytest.mark.anyio
async def test_an_unknown_project_endpoint_says_so(gateway):
    # As an unknown target does: every project is searched, and the answer says why.
    async with Client(f"http://127.0.0.1:{gateway.port}/mcp/no-such-project") as client:
        r = await client.call_tool("search_by_code_functions", {"query": "multiply"})
        assert not r.is_error, r.content
        a = r.structured_content
        assert a["results"] and 'unknown target "no-such-project"' in a["note"], a


@pytest.mark.anyio
async def test_a_project_endpoint_says_so_in_its_instructions(gateway):
    # A small model reads the instructions first: on a project's endpoint they
    # name the project and say to omit `target`; the shared endpoint's say to pass it.
    base = f"http://127.0.0.1:{gateway.port}/mcp"
    async with Client(f"{base}/samples") as client:
        assert 'answers from the project "samples": omit `target`' in client.instructions, client.instructions
        assert "instead of searching again" in client.instructions
    # The shared endpoint, and one whose name names no project (its calls search every project).
    for url in (base, f"{base}/no-such-project"):
        async with Client(url) as client:
            assert "pass the project you work in" in client.instructions, (url, client.instructions)
            assert "this endpoint answers from" not in client.instructions, url
