"""One call answers a detail (issue 68), end to end: the real binary
indexes a temporary project into the real OpenSearch (own prefix and config
dir), `serve start` serves it, and the Python MCP SDK asks as an assistant
does.

* A question in words that finds a function shows, under it, the named
  values it reads, where they are defined: in its own file (`value L4:`)
  and in another (`value settings.py:2:`); a value its shown lines already
  hold is not said twice.
* Reads of named values are references of their own kind: find_references
  finds them, and `kind: "read"` asks for them alone.
* A definition of up to 40 lines is shown whole for a question; a longer
  one shows its first line and the statements that decide, the line
  holding the question's words among them.
* Of the best file's definitions, the one whose own lines hold the
  question's words comes first, not the one whose name reads like it.
* A path glob without `/` reaches files at any depth in show_tree, as
  ripgrep's `-g` does; one that matches nothing says so.
"""

from __future__ import annotations

import pytest
from conftest import call_text as call, serve_files

PREFIX = "namedvalues"

SETTINGS = "# Settings of the uploader.\nRETRY_DELAY_SECONDS = 2.5\nCHUNK_BYTES = 65536\n"

UPLOADER = "\n".join(
    [
        "from settings import RETRY_DELAY_SECONDS, CHUNK_BYTES",
        "import time",
        "",
        "MAX_UPLOAD_ATTEMPTS = 7",
        "",
        "",
        "def upload_with_retries(client, blob):",
        '    """Send a blob to the storage service, trying again on failure."""',
        "    for attempt in range(MAX_UPLOAD_ATTEMPTS):",
        "        if client.put(blob[:CHUNK_BYTES]):",
        "            return True",
        "        time.sleep(RETRY_DELAY_SECONDS * attempt)",
        "    return False",
        "",
        "",
        "def summarize_report(rows):",
        '    """Summarize the rows of a report."""',
        *[f"    total_{i} = sum(r[{i}] for r in rows)" for i in range(50)],
        "    if len(rows) > 1000:",
        "        raise ValueError('report too large to summarize')",
        *[f"    average_{i} = total_{i} / len(rows)" for i in range(10)],
        "    return total_0",
        "",
    ]
)

SCRIPT = "#!/bin/sh\n# Rotate the upload logs.\nKEEP_DAYS=14\nfind /var/log/uploads -mtime +$KEEP_DAYS -delete\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    files = {"settings.py": SETTINGS, "uploader.py": UPLOADER, "ops/scripts/rotate.sh": SCRIPT}
    with serve_files(tmp_path_factory.mktemp("namedvalues"), PREFIX, "proj", files) as gw:
        yield gw.url


@pytest.mark.anyio
async def test_a_function_found_in_words_shows_the_values_it_reads(served):
    question = {"query": "how many attempts does the upload of a blob make", "target": "proj"}
    text, answer = await call(served, "search_by_code_functions", question)
    m = answer["results"][0]["matches"][0]
    assert m["name"] == "upload_with_retries", answer
    # Its own file's constant and the imported ones, each once, with its line.
    # Each on a line of its own, in any order.
    shown = [line.strip() for line in text.splitlines()]
    values = ("L4: MAX_UPLOAD_ATTEMPTS = 7", "settings.py:2: RETRY_DELAY_SECONDS = 2.5", "settings.py:3: CHUNK_BYTES = 65536")
    for value in values:
        assert shown.count(f"value {value}") == 1, text
    by_name = {v["name"]: v for v in m["values"]}
    assert by_name["MAX_UPLOAD_ATTEMPTS"]["line"] == 4 and "path" not in by_name["MAX_UPLOAD_ATTEMPTS"], m
    assert by_name["RETRY_DELAY_SECONDS"]["path"] == "settings.py", m


@pytest.mark.anyio
async def test_reads_of_a_named_value_are_references_of_their_own_kind(served):
    text, answer = await call(served, "find_references", {"query": "RETRY_DELAY_SECONDS", "target": "proj"})
    uses = [(r["path"], u["line"], u["kind"]) for r in answer["results"] for u in r["references"]]
    assert ("uploader.py", 12, "read") in uses, uses
    _, only = await call(served, "find_references", {"query": "MAX_UPLOAD_ATTEMPTS", "kind": "read", "target": "proj"})
    lines = [u["line"] for r in only["results"] for u in r["references"]]
    assert lines == [9], only


@pytest.mark.anyio
async def test_a_long_definition_shows_the_statements_that_decide(served):
    question = {"query": "when is a report too large to summarize", "target": "proj"}
    text, answer = await call(served, "search_by_code_functions", question)
    m = answer["results"][0]["matches"][0]
    assert m["name"] == "summarize_report", answer
    # Its first line, the raise and the condition above it; not all 66 lines.
    assert "raise ValueError('report too large to summarize')" in text, text
    assert "if len(rows) > 1000:" in text, text
    assert len(m["code"].splitlines()) <= 16, m["code"]


@pytest.mark.anyio
async def test_a_short_definition_is_shown_whole_for_a_question(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "send a blob to storage", "target": "proj"})
    m = answer["results"][0]["matches"][0]
    assert m["name"] == "upload_with_retries", answer
    assert "\n13\treturn False" in text.replace("\t    ", "\t"), text


@pytest.mark.anyio
async def test_a_glob_without_a_slash_reaches_any_depth(served):
    text, answer = await call(served, "show_tree", {"path": "*.sh", "target": "proj"})
    assert answer["total_files"] == 1 and "rotate.sh" in answer["tree"], answer
    text, answer = await call(served, "show_tree", {"path": "ops/*.sh", "target": "proj"})
    assert answer["total_files"] == 0, answer
    assert "the path glob `ops/*.sh` matches no indexed file" in answer["note"], answer


@pytest.mark.anyio
async def test_a_glob_with_a_bang_leaves_out_what_it_matches(served):
    _, answer = await call(served, "search_code_text", {"query": "upload", "path": "!ops/**", "target": "proj"})
    paths = [r["path"] for r in answer["results"]]
    assert "uploader.py" in paths and not any(p.startswith("ops/") for p in paths), answer
    _, answer = await call(served, "search_code_text", {"query": "upload", "path": "ops/**", "target": "proj"})
    assert [r["path"] for r in answer["results"]] == ["ops/scripts/rotate.sh"], answer
