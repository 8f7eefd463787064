"""admin_sync runs the real `vibe-analyzer scan index` in the background while
queries keep being answered."""

import time

import anyio
import pytest
from mcp import Client


def completed_runs(gateway) -> int:
    """Index runs the gateway saw end (its log is at info level, see conftest)."""
    log = gateway.config_dir / "serve.log"
    return log.read_text(errors="replace").count("index run finished") if log.exists() else 0


@pytest.mark.anyio
async def test_admin_sync_races_with_queries(gateway):
    before = completed_runs(gateway)
    results: list[str] = []
    slowest = 0.0
    errors: list[str] = []

    async def sync_caller():
        async with Client(gateway.url) as c:
            r = await c.call_tool("admin_sync", {})
            results.append(r.structured_content["result"])

    async def querier(i: int):
        nonlocal slowest
        async with Client(gateway.url) as c:
            for q in range(6):
                tool, args = (("search_documentation", {"query": "Кто такой Бакобур?"}) if (i + q) % 2
                              else ("search_by_code_functions", {"query": "circle_area"}))
                t = time.perf_counter()
                r = await c.call_tool(tool, args)
                slowest = max(slowest, time.perf_counter() - t)
                if r.is_error or not r.structured_content["results"]:
                    errors.append(f"{tool}: {r.content}")
                await anyio.sleep(0.05)

    async with anyio.create_task_group() as tg:
        for _ in range(4):
            tg.start_soon(sync_caller)
        for i in range(4):
            tg.start_soon(querier, i)

    assert sorted(results) == ["AlreadyRunning"] * 3 + ["Started"], results
    assert not errors, errors
    assert slowest < 2.0, f"a query took {slowest:.2f}s during the index run"

    # The run finishes by itself; afterwards a new run can start and the data is intact.
    deadline = time.time() + 300
    while completed_runs(gateway) == before:
        assert time.time() < deadline, "the index run did not finish"
        await anyio.sleep(0.5)
    async with Client(gateway.url) as c:
        r = await c.call_tool("search_documentation", {"query": "Who is Kirikur?"})
        assert r.structured_content["results"][0]["path"] == "legends/kirikur.md"
        r = await c.call_tool("admin_sync", {})
        assert r.structured_content == {"result": "Started", "message": "Indexing started. Projects are updating now."}
    deadline = time.time() + 300
    while completed_runs(gateway) < before + 2:
        assert time.time() < deadline, "the second index run did not finish"
        await anyio.sleep(0.5)
