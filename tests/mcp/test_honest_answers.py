"""Honest answers (issue 12), end to end: the real binary indexes a temporary
tree into the real OpenSearch (own index prefix and config dir), `serve start`
serves it, and the Python MCP SDK asks.

* Two sources named `proj`: the target `proj` is an error listing both roots.
* Line ranges: inverted, past the end and reaching past the end say so.
* Empty content says why: binary, over the size limit, not valid UTF-8.
* Freshness: file answers and search results carry the indexed hash and
  `indexed_at`; a file changed or deleted on disk since is `stale: true`.
* `admin_sync` while a run goes answers AlreadyRunning with how long it runs;
  `show_projects` then tells each project's `indexed_at` and `last_sync`
  (ok, or the run's error line).
"""

from __future__ import annotations

import os

import shutil
import time

import anyio
import pytest
from mcp import Client

from conftest import serve_sources

PREFIX = "honest"
BIG_BYTES = 10 * 1024 * 1024 + 4096  # over the indexer's 10 MiB content limit


def text_of(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("honest")
    a, b = root / "a" / "proj", root / "b" / "proj"
    for d in (a, b):
        d.mkdir(parents=True)
        (d / "main.py").write_text("def hello():\n    return 1\n\n\ndef world():\n    return 2\n", encoding="utf-8")
    (a / "fresh.py").write_text("def fresh_function():\n    return 1\n", encoding="utf-8")
    (a / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    (a / "latin1.txt").write_bytes(b"caf\xe9 au lait\n")
    with open(a / "big.txt", "w", encoding="utf-8") as f:
        line = "x" * 1023 + "\n"
        f.write(line * (BIG_BYTES // 1024))
    with serve_sources(root / "config", PREFIX, [a, b]) as gw:
        yield {"url": gw.url, "a": a, "b": b}


async def call(url: str, tool: str, args: dict):
    async with Client(url) as c:
        return await c.call_tool(tool, args)


@pytest.mark.anyio
async def test_an_ambiguous_target_lists_the_candidates(served):
    r = await call(served["url"], "search_by_code_functions", {"query": "hello", "target": "proj"})
    assert r.is_error, r
    message = text_of(r)
    assert "names 2 projects" in message and str(served["a"]) in message and str(served["b"]) in message, message
    # A root (or a directory in it) picks one.
    r = await call(served["url"], "search_by_code_functions", {"query": "hello", "target": str(served["b"])})
    assert not r.is_error, text_of(r)
    assert [x["project"] for x in r.structured_content["results"]] == [str(served["b"])]


@pytest.mark.anyio
async def test_line_ranges_say_what_is_wrong(served):
    url, a = served["url"], str(served["a"])
    r = await call(url, "get_file_content", {"path": "main.py", "target": a, "start_line": 5, "end_line": 2})
    assert r.is_error and "start_line 5 is after end_line 2" in text_of(r), text_of(r)
    r = await call(url, "get_file_content", {"path": "main.py", "target": a, "start_line": 50})
    assert r.is_error and "past the end" in text_of(r) and "6 lines" in text_of(r), text_of(r)
    r = await call(url, "get_file_content", {"path": "main.py", "target": a, "start_line": 5, "end_line": 60})
    assert not r.is_error, text_of(r)
    s = r.structured_content
    assert (s["content"], s["end_line"], s["message"]) == ("def world():\n    return 2\n", 6, "the file ends at line 6")


@pytest.mark.anyio
async def test_empty_content_says_why(served):
    url, a = served["url"], str(served["a"])
    for path, words in [("logo.png", "binary file"), ("big.txt", "too large")]:
        r = await call(url, "get_file_content", {"path": path, "target": a})
        assert not r.is_error, text_of(r)
        s = r.structured_content
        assert s["content"] == "" and words in s["message"], (path, s)
    # A Latin-1 file is no reason for an empty answer: it is read decoded (issue 58).
    r = await call(url, "get_file_content", {"path": "latin1.txt", "target": a})
    assert r.structured_content["content"] == "café au lait\n", r.structured_content


@pytest.mark.anyio
async def test_answers_say_when_a_file_changed_since_indexing(served):
    url, a = served["url"], served["a"]
    fresh = a / "fresh.py"
    original = fresh.read_text(encoding="utf-8")
    indexed = fresh.stat()
    r = await call(url, "get_file_content", {"path": "fresh.py", "target": str(a)})
    s = r.structured_content
    assert s["stale"] is False and len(s["hash"]) == 12 and s["indexed_at"].endswith("Z"), s
    r = await call(url, "search_by_code_functions", {"query": "fresh_function", "target": str(a)})
    hit = r.structured_content["results"][0]
    assert hit["path"] == "fresh.py" and hit["hash"] == s["hash"] and "stale" not in hit, hit
    try:
        fresh.write_text(original + "\n\ndef added():\n    return 2\n", encoding="utf-8")
        r = await call(url, "get_file_content", {"path": "fresh.py", "target": str(a)})
        assert r.structured_content["stale"] is True, r.structured_content
        assert r.structured_content["content"] == original, "the answer is still what was indexed"
        r = await call(url, "search_by_code_functions", {"query": "fresh_function", "target": str(a)})
        assert r.structured_content["results"][0]["stale"] is True
        fresh.unlink()
        r = await call(url, "get_file_ast", {"path": "fresh.py", "target": str(a)})
        assert r.structured_content["stale"] is True, "a deleted file is stale too"
    finally:
        fresh.write_text(original, encoding="utf-8")
    # Freshness is told from size and mtime (nothing is read): the same text
    # written again is a change until it is indexed, or until its mtime is back.
    r = await call(url, "get_file_content", {"path": "fresh.py", "target": str(a)})
    assert r.structured_content["stale"] is True, "a new mtime"
    os.utime(fresh, ns=(indexed.st_atime_ns, indexed.st_mtime_ns))
    r = await call(url, "get_file_content", {"path": "fresh.py", "target": str(a)})
    assert r.structured_content["stale"] is False


@pytest.mark.anyio
async def test_sync_progress_and_outcome(served):
    url = served["url"]
    r = await call(url, "show_projects", {})
    projects = r.structured_content["projects"]
    assert len(projects) == 2 and all(p["indexed_at"].endswith("Z") for p in projects), projects
    assert all("last_sync" not in p for p in projects), "no sync ran through this server yet"
    # One source disappears: the run fails for it, the other is re-indexed.
    shutil.rmtree(served["b"])
    first = await call(url, "admin_sync", {})
    assert first.structured_content["result"] == "Started", first.structured_content
    second = await call(url, "admin_sync", {})
    s = second.structured_content
    if s["result"] == "AlreadyRunning":
        assert isinstance(s["running_secs"], int) and "Please wait" in s["message"], s
    deadline = time.time() + 120
    while True:
        r = await call(url, "show_projects", {})
        sync = r.structured_content.get("sync", {})
        if sync.get("state") in ("ok", "failed"):
            break
        assert sync.get("state") == "running", r.structured_content
        assert time.time() < deadline, "the sync did not finish"
        await anyio.sleep(0.3)
    by_root = {p["path"]: p for p in r.structured_content["projects"]}
    assert by_root[str(served["a"])]["last_sync"] == "ok", by_root
    if str(served["b"]) in by_root:
        outcome = by_root[str(served["b"])]["last_sync"]
        assert outcome != "ok" and outcome == sync["outcome"], (by_root, sync)
        assert sync["state"] == "failed", sync
