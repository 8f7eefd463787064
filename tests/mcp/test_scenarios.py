"""Every scenario of scenarios/*.json through the Python MCP SDK against the
real indexer's output."""

import json

import pytest
from mcp import Client

from scenario_check import check, load_scenarios

CASES = load_scenarios()


@pytest.mark.anyio
@pytest.mark.parametrize("tool,index,case", CASES, ids=[f"{t}#{i}" for t, i, _ in CASES])
async def test_scenario(gateway, tool, index, case):
    async with Client(gateway.url) as client:
        r = await client.call_tool(tool, case["args"])
    answer = r.structured_content if r.structured_content is not None else r.content[0].text
    problems = check(case, answer, bool(r.is_error))
    assert not problems, f"{tool} {json.dumps(case['args'], ensure_ascii=False)}: " + "; ".join(problems)
