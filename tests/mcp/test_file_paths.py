"""A file is found by its path as given, but for case, as a suffix and as a
substring (issue 33).

The exact and the case-insensitive match (`path.lower`) come first, in one
cheap search; the suffix and substring matches are leading wildcards, a
second search made only when the first found nothing. These tests pin the
behaviour that split must keep: every kind of path still finds its file, an
exact path wins over files it is a suffix of, and an ambiguous part names
the candidates."""

import pytest
from mcp import Client

from conftest import call_text, serve_files

PREFIX = "filepaths"

FILES = {
    "lib/Net/HttpClient.java": "package net;\n\n/** Sends requests. */\npublic class HttpClient {\n  int timeout;\n}\n",
    "a/Config.java": "package a;\n\npublic class Config {\n  String name;\n}\n",
    "old/a/Config.java": "package old.a;\n\npublic class Config {\n  String legacyName;\n}\n",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("filepaths"), PREFIX, "paths", FILES) as gw:
        yield gw


@pytest.mark.anyio
@pytest.mark.parametrize(
    "asked",
    ["lib/Net/HttpClient.java", "LIB/net/httpclient.JAVA", "Net/HttpClient.java", "httpclient.java", "HttpClie"],
)
async def test_every_kind_of_path_finds_the_file(served, asked):
    text, answer = await call_text(served.url, "get_file_content", {"path": asked})
    assert answer["path"] == "lib/Net/HttpClient.java", answer
    assert "public class HttpClient {" in text, text


@pytest.mark.anyio
async def test_an_exact_path_wins_over_the_files_it_is_a_suffix_of(served):
    text, answer = await call_text(served.url, "get_file_content", {"path": "a/Config.java"})
    assert answer["path"] == "a/Config.java", answer
    assert "legacyName" not in text, text


@pytest.mark.anyio
async def test_an_ambiguous_part_names_the_candidates(served):
    async with Client(served.url) as c:
        r = await c.call_tool("get_file_content", {"path": "Config.java"})
    text = "".join(getattr(x, "text", "") for x in r.content)
    assert r.is_error, text
    assert "matches 2 files" in text and "a/Config.java" in text and "old/a/Config.java" in text, text


@pytest.mark.anyio
async def test_the_outline_is_found_but_for_case_too(served):
    text, answer = await call_text(served.url, "get_file_ast", {"path": "lib/net/httpclient.java"})
    assert answer["path"] == "lib/Net/HttpClient.java", answer
    assert "HttpClient" in text, text


@pytest.mark.anyio
async def test_an_ambiguous_part_with_a_symbol_is_the_file_that_defines_it(served):
    # Both Config.java files match the part; only the old one has legacyName.
    text, answer = await call_text(served.url, "get_file_ast", {"path": "Config.java", "symbol": "Config.legacyName"})
    assert answer["path"] == "old/a/Config.java", answer
    assert "legacyName" in text, text
    # A symbol both define leaves the path ambiguous, and says so.
    async with Client(served.url) as c:
        r = await c.call_tool("get_file_ast", {"path": "Config.java", "symbol": "Config"})
    said = "".join(getattr(x, "text", "") for x in r.content)
    assert r.is_error and "matches 2 files" in said and 'of those defining "config"' in said, said
    # A symbol neither defines keeps the first error, naming the candidates.
    async with Client(served.url) as c:
        r = await c.call_tool("get_file_ast", {"path": "Config.java", "symbol": "Nothing"})
    said = "".join(getattr(x, "text", "") for x in r.content)
    assert r.is_error and "matches 2 files" in said and "defining" not in said, said
