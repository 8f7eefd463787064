"""Typed answers (issue 26, item 5): every tool declares an `outputSchema`
(valid JSON Schema, draft 2020-12, an object at its root, as MCP asks), and
every answer validates against it: plain answers, pages cut short
(`truncated`, `next_offset`), notes (a fuzzy or other-kind match, an
unknown target), a file not found, one symbol of an outline, a part of a
line, the callees, the `admin_sync` answers and the sync state
`show_projects` reports, and the error answers. Answers are checked against
a closed copy of the schema (see answer_schemas.py), so a field the schema
does not declare fails too.
"""

from __future__ import annotations

import time

import anyio
import jsonschema
import pytest
from mcp import Client

from answer_schemas import closed, schema_problems

# Calls per tool; each tool's list holds plain answers and edge answers.
CALLS: list[tuple[str, dict]] = [
    ("get_file_content", {"path": "calculator.rs"}),
    ("get_file_content", {"path": "calculator.rs", "start_line": 2, "end_line": 3}),
    ("get_file_content", {"path": "calculator.rs", "start_line": 7, "end_line": 7, "start_char": 5}),
    ("get_file_content", {"path": "calculator.rs", "start_line": 50, "end_line": 9999}),
    ("get_file_content", {"path": "LICENSE"}),
    ("get_file_ast", {"path": "calculator.rs"}),
    ("get_file_ast", {"path": "calculator.rs", "offset": 3}),
    ("get_file_ast", {"path": "Calculator.java", "symbol": "Calculator"}),
    ("get_file_ast", {"path": "legends/kirikur.md"}),
    ("show_projects", {}),
    ("show_projects", {"offset": 1}),
    ("show_stats", {}),
    ("show_stats", {"target": "samples"}),
    ("show_tree", {}),
    ("show_tree", {"target": "samples", "depth": 0}),
    ("show_tree", {"target": "knowledge", "path": "legends"}),
    ("search_by_code_imports", {"query": "HashMap"}),
    ("search_by_code_imports", {"query": "*", "limit": 1}),
    ("search_by_code_functions", {"query": "multiply", "limit": 2}),
    ("search_by_code_functions", {"query": "multiplyy"}),
    ("search_by_code_functions", {"query": "Calculator"}),
    ("search_by_code_functions", {"query": "add", "target": "no-such-project-anywhere"}),
    ("search_by_code_classes", {"query": "Calculator", "limit": 1, "offset": 1}),
    ("search_by_code_variables", {"query": "MAX_VALUE"}),
    ("search_code_text", {"query": "multiply", "limit": 1}),
    ("search_code_text", {"query": r"fn \w+\(", "regex": True, "path": "*.rs"}),
    ("search_code_text", {"query": "RETURN", "case_sensitive": False, "language": "python"}),
    ("find_references", {"query": "multiply", "limit": 1}),
    ("find_references", {"query": "calculate", "direction": "callees"}),
    ("find_references", {"query": "HashMap", "kind": "import"}),
    ("search_documentation", {"query": "Kirikur"}),
    ("search_documentation", {"query": "release", "limit": 1}),
    ("search_documentation", {"query": "Кто такой Бакобур?"}),
]

# Calls answered with an error (isError), whose `{error}` must fit the schema too.
ERRORS: list[tuple[str, dict]] = [
    ("get_file_content", {"path": "calculator.rs", "start_line": 9, "end_line": 2}),
    ("get_file_ast", {"path": "calculator.rs", "symbol": "NoSuchElementAnywhere"}),
    ("search_code_text", {"query": "(", "regex": True}),
    ("find_references", {"query": "add", "direction": "sideways"}),
    ("find_references", {"query": "add", "kind": "banana"}),
    ("get_file_content", {"path": "no/such/file.rs"}),
    ("get_file_ast", {"path": "no/such/file.rs"}),
    ("search_by_code_functions", {}),
]


async def listed(client: Client) -> dict:
    return {t.name: t for t in (await client.list_tools()).tools}


@pytest.mark.anyio
async def test_every_tool_declares_an_output_schema(gateway):
    async with Client(gateway.url) as client:
        tools = await listed(client)
    for name, tool in tools.items():
        schema = tool.output_schema
        assert schema is not None, name
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft202012Validator.check_schema(closed(schema))
        assert schema["type"] == "object", name
        # The budget guard's note and an error are answers of every tool.
        assert {"required": ["truncated", "note"]} in schema["anyOf"], name
        assert {"required": ["error"]} in schema["anyOf"], name
    # The same shape, the same schema.
    assert "search_knowledge" not in tools, "an alias answers to its name but is not listed"
    assert tools["search_by_code_classes"].output_schema == tools["search_by_code_functions"].output_schema


@pytest.mark.anyio
async def test_every_answer_validates_against_its_schema(gateway):
    found: list[str] = []
    seen: dict[str, list[dict]] = {}
    async with Client(gateway.url) as client:
        tools = await listed(client)
        for name, args in CALLS:
            # The SDK itself raises on an answer its schema rejects.
            r = await client.call_tool(name, args)
            assert not r.is_error, (name, args, r.content)
            found += [f"{p} (args {args})" for p in schema_problems(tools, name, r.structured_content)]
            seen.setdefault(name, []).append(r.structured_content)
        for name, args in ERRORS:
            r = await client.call_tool(name, args)
            assert r.is_error, (name, args, r.structured_content)
            assert set(r.structured_content) == {"error"}, r.structured_content
            found += [f"{p} (args {args})" for p in schema_problems(tools, name, r.structured_content)]
    assert not found, "\n".join(found)
    assert set(seen) == set(tools) - {"admin_sync"}, "every tool but admin_sync is called here"
    answers = [a for list_ in seen.values() for a in list_]
    # The edge answers really were among them.
    assert any(a.get("truncated") is True and "next_offset" in a for a in answers), "a page cut short"
    assert any("start_char" in a and "line_chars" in a for a in seen["get_file_content"]), "a part of a line"
    assert any("symbol" in a for a in seen["get_file_ast"]), "one symbol"
    assert any("calls" in r for a in seen["find_references"] for r in a["results"]), "callees"
    assert sum("note" in a for a in seen["search_by_code_functions"]) >= 2, "fuzzy, other kind, unknown target"


@pytest.mark.anyio
async def test_a_wrong_answer_does_not_validate(gateway):
    """The schemas are not so loose that anything passes."""
    async with Client(gateway.url) as client:
        tools = await listed(client)
        r = await client.call_tool("search_by_code_functions", {"query": "multiply"})
    good = r.structured_content
    assert not schema_problems(tools, "search_by_code_functions", good)
    without_total = {k: v for k, v in good.items() if k != "total"}
    assert schema_problems(tools, "search_by_code_functions", without_total)
    wrong_type = dict(good, results=[dict(good["results"][0], matches="multiply")])
    assert schema_problems(tools, "search_by_code_functions", wrong_type)
    undeclared = dict(good, score=1.0)
    assert schema_problems(tools, "search_by_code_functions", undeclared)
    # The budget guard's note alone fits every tool's schema.
    note = {"truncated": True, "note": "the answer (20000 bytes) is over the answer budget"}
    assert all(not schema_problems(tools, name, note) for name in tools)


@pytest.mark.anyio
async def test_admin_sync_and_the_sync_state_validate(gateway):
    async with Client(gateway.url) as client:
        tools = await listed(client)
        first = await client.call_tool("admin_sync", {})
        second = await client.call_tool("admin_sync", {})
        answers = [("admin_sync", first.structured_content), ("admin_sync", second.structured_content)]
        assert second.structured_content["result"] == "AlreadyRunning", second.structured_content
        during = await client.call_tool("show_projects", {})
        answers.append(("show_projects", during.structured_content))
        deadline = time.time() + 300
        while True:
            after = await client.call_tool("show_projects", {})
            state = after.structured_content.get("sync", {}).get("state")
            if state in ("ok", "failed"):
                break
            assert time.time() < deadline, "the index run did not finish"
            await anyio.sleep(0.5)
        answers.append(("show_projects", after.structured_content))
    assert state == "ok", after.structured_content
    found = [p for name, a in answers for p in schema_problems(tools, name, a)]
    assert not found, "\n".join(found)
