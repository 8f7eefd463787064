"""What a new user met in the first hour (issue 59), end to end: the real
binary indexes two small projects into the real OpenSearch (own prefix and
config dir), `serve start` serves them, and the Python MCP SDK asks.

* A typo ranks the closer name first: `parseadr` finds `parseaddr` (one
  edit) before `parsestr` (two), whatever their paths.
* A hierarchy stays in the languages whose types can extend each other: a
  Python exception's chain does not go on into a Rust trait of the same name.
"""

from __future__ import annotations

import pytest
from conftest import call_text as call, serve_sources

PREFIX = "firsthour"

MAILBOX_PY = '''class Parser:
    def parsestr(self, text):
        return text.split()
'''

UTILS_PY = '''def parseaddr(addr):
    """Split an address into its name and mail parts."""
    return addr.partition("<")
'''

ERRORS_PY = '''class Error(Exception):
    pass


class ParseError(Error):
    pass
'''

ERROR_RS = '''use std::fmt::{Debug, Display};

pub trait Error: Debug + Display {
    fn source(&self) -> Option<&dyn Error> {
        None
    }
}

#[derive(Debug)]
pub struct Bad;

impl Error for Bad {}
'''


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("firsthour")
    projects = {
        "mail": {"a_parser.py": MAILBOX_PY, "b_utils.py": UTILS_PY, "errors.py": ERRORS_PY},
        "crate": {"src/error.rs": ERROR_RS},
    }
    for project, files in projects.items():
        for rel, text in files.items():
            (root / project / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / project / rel).write_text(text, encoding="utf-8")
    with serve_sources(root / "config", PREFIX, [root / p for p in projects]) as gw:
        yield gw.url


def names(answer: dict) -> list[str]:
    return [m["name"] for r in answer["results"] for m in r.get("matches", r.get("types", []))]


@pytest.mark.anyio
async def test_a_typo_ranks_the_closer_name_first(served):
    _, answer = await call(served, "search_by_code_functions", {"query": "parseadr"})
    assert names(answer)[:2] == ["parseaddr", "parsestr"], answer


@pytest.mark.anyio
@pytest.mark.parametrize(
    "query,direction,expected",
    [("ParseError", "supertypes", ("errors.py", "Error")), ("Exception", "subtypes", ("errors.py", "ParseError"))],
)
async def test_a_hierarchy_stays_in_the_language(served, query, direction, expected):
    args = {"query": query, "direction": direction, "depth": 3}
    _, answer = await call(served, "find_references", args)
    found = [(r["path"], t["name"]) for r in answer["results"] for t in r["types"]]
    assert expected in found, answer
    assert all(path.endswith(".py") for path, _ in found), answer["results"]
    if direction == "supertypes":
        assert "Exception" in answer.get("not_indexed", []), answer
