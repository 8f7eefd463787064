"""How a name is looked up (issue 33: one search where there were two to
four), end to end: the real binary indexes a temporary project into the real
OpenSearch (own prefix and config dir), `serve start` serves it, and the
Python MCP SDK asks.

* A name is looked up among every kind at once, the tool's kinds first: a
  name only another kind defines answers with that element and says so; a
  name both kinds define answers with the tool's kind, and the other kind
  follows on the next page.
* An identifier no element has (`load_confg`) gets close names first and
  matches by words after them; the next page goes on with the words.
"""

from __future__ import annotations

import pytest
from conftest import call_text as call, serve_files

PREFIX = "namepasses"

CONFIG_PY = '''class Settings:
    pass


def load_config(path):
    """Read the settings file."""
    return Settings()
'''

OTHER_PY = '''def settings():
    return load_defaults()
'''


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    files = {"config.py": CONFIG_PY, "other.py": OTHER_PY}
    with serve_files(tmp_path_factory.mktemp("namepasses"), PREFIX, "proj", files) as gw:
        yield gw.url


def found(answer: dict) -> list[tuple[str, str, str]]:
    return [(r["path"], m["name"], m["kind"]) for r in answer["results"] for m in r["matches"]]


@pytest.mark.anyio
async def test_a_name_only_another_kind_defines_answers_with_it(served):
    _, answer = await call(served, "search_by_code_classes", {"query": "load_config", "target": "proj"})
    assert found(answer) == [("config.py", "load_config", "function")], answer
    assert "other kinds" in answer["note"], answer


@pytest.mark.anyio
async def test_the_tools_kind_comes_first_and_other_kinds_follow(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "Settings", "target": "proj"})
    # `settings` (a function, other case) outranks `Settings` (a class, exact).
    assert found(answer) == [("other.py", "settings", "function")], answer
    assert (answer["total"], answer["next_offset"]) == (2, 1), answer
    assert text.startswith("1 more result: offset=1\nnote: the rest are weaker matches"), text
    _, rest = await call(served, "search_by_code_functions", {"query": "Settings", "target": "proj", "offset": 1})
    assert found(rest) == [("config.py", "Settings", "class")], rest
    assert "note" not in rest, "a later page does not claim the tool's kinds lack the name"


@pytest.mark.anyio
async def test_an_unknown_identifier_gets_close_names_then_words(served):
    text, answer = await call(served, "search_by_code_functions", {"query": "load_confg", "target": "proj"})
    assert found(answer) == [("config.py", "load_config", "function")], answer
    assert "close" in answer["note"] and "the rest are matches by words" in answer["note"], answer
    assert answer["next_offset"] == 1 and text.startswith("1 more result: offset=1"), text
    _, rest = await call(served, "search_by_code_functions", {"query": "load_confg", "target": "proj", "offset": 1})
    assert [r["path"] for r in rest["results"]] == ["other.py"], rest
    assert "rank by the word" in rest["note"], rest
