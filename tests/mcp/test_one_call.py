"""One call answers (issue 32), end to end: the real binary indexes a
temporary project into the real OpenSearch (own prefix and config dir),
`serve start` serves it, and the Python MCP SDK asks as an assistant does.

* A name followed by words (`cache_with_limit maxsize`) looks up the name
  and shows only the lines of its definition that hold the words (and the
  lines their statements go on over), numbered, with `…` where lines are
  left out; the doc block is not among them.
* Words the definition does not hold: its first lines, and a note says so.
* A name alone shows the definition's first lines, without gaps.
* A call that names its project is not told the project's root again, and
  code comes with its common indentation taken off.
"""

from __future__ import annotations

import pytest
from conftest import call_text as call, serve_files

PREFIX = "onecall"


def long_function() -> str:
    body = [f"    step_{i} = compute({i})" for i in range(40)]
    body[25] = "    if maxsize is not None and len(cache) > maxsize:"
    body[26] = "        evict(cache)"
    return "\n".join(
        [
            "def cache_with_limit(user_function, maxsize=128):",
            '    """Wrap user_function in a cache.',
            "",
            "    maxsize bounds how many results are kept.",
            '    """',
            "    cache = {}",
            *body,
            "    return cache",
            "",
            "",
            "class Holder:",
            "    def method(self):",
            "        value = 1",
            "        return value",
            "",
            "",
            "def tiny_step(n):",
            '    """Tiny doc."""',
            "    return n + 1",
            "",
        ]
    )


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("onecall"), PREFIX, "proj", {"cache.py": long_function()}) as gw:
        yield gw.url


@pytest.mark.anyio
async def test_a_name_then_words_shows_the_lines_holding_them(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "cache_with_limit maxsize", "target": "proj"})
    m = answer["results"][0]["matches"][0]
    assert m["name"] == "cache_with_limit"
    # The signature, then line 32 (the hit) and 33 (its `if` goes on); not the docstring (2-5).
    assert m["code_lines"] == "1,32-33", m
    assert "\n32\t    if maxsize is not None and len(cache) > maxsize:\n" in text, text
    assert "maxsize bounds" not in text and "step_3 " not in text, text
    assert "\n…\n32\t" in text, text
    assert "project:" not in text, text


@pytest.mark.anyio
async def test_a_short_definition_keeps_the_doc_its_code_leaves_out(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "tiny_step return", "target": "proj"})
    m = answer["results"][0]["matches"][0]
    assert m["name"] == "tiny_step" and "code_skip" in m and m["doc"].startswith("Tiny doc"), m
    assert "Tiny doc" in text and "\t(doc comment)\n" in text, text


@pytest.mark.anyio
async def test_words_it_does_not_hold_give_its_first_lines_and_say_so(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "cache_with_limit surrogate", "target": "proj"})
    assert answer["results"][0]["matches"][0]["name"] == "cache_with_limit"
    assert 'no line of cache_with_limit holds "surrogate"' in answer["note"], answer
    # Its first lines without a gap; the one `…` says more follow.
    assert "\n6\t    cache = {}\n" in text and text.count("…") == 1 and text.endswith("\n…"), text


@pytest.mark.anyio
async def test_a_name_alone_shows_its_first_lines(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "cache_with_limit"})
    m = answer["results"][0]["matches"][0]
    assert "code_lines" not in m and m["code"].startswith("def cache_with_limit"), m
    assert "project:" in text, "a call without a target is told the project"
    assert "\n7\t    step_0 = compute(0)\n" in text, text


@pytest.mark.anyio
async def test_text_hits_lose_their_common_indentation(served):
    text, _ = await call(served, "search_code_text", {"query": "value", "target": "proj"})
    # Lines 52-53 are indented 8 spaces in the file; the hits share them.
    assert "52: value = 1\n" in text and "53: return value" in text, text
