"""A question in words asks for the code, not for its tests (issue 23).

Tests use the words of the code they test, often more of them. In a tree
with an implementation and its tests, the question finds the
implementation first and the tests still come below it; a test's name still
finds the test, as names rank by the name tiers alone."""

import pytest
from conftest import call_text, serve_files

PREFIX = "qrank"

IMPLEMENTATION = '''
def backoff_delay(attempt, base=0.5, cap=30.0):
    """Compute the delay before the next retry attempt: exponential backoff, capped."""
    return min(cap, base * 2 ** attempt)
'''

# More of the question's words than the implementation, several times over.
TESTS = '''
def test_retry_delay_is_computed_for_each_attempt():
    """The retry delay computed for each attempt doubles: delay before the next retry attempt."""
    assert backoff_delay(1) == 1.0


def test_retry_delay_computed_is_capped():
    """The computed retry delay before the next attempt is capped."""
    assert backoff_delay(10) == 30.0
'''


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    files = {"backoff.py": IMPLEMENTATION, "tests/test_backoff.py": TESTS}
    with serve_files(tmp_path_factory.mktemp("qrank"), PREFIX, "retrying", files) as gw:
        yield gw


@pytest.mark.anyio
async def test_a_question_finds_the_code_before_its_tests(served):
    _, a = await call_text(served.url, "search_by_code_functions", {"query": "where is the retry delay computed before the next attempt?"})
    paths = [r["path"] for r in a["results"]]
    assert paths[0] == "backoff.py", a
    assert a["results"][0]["matches"][0]["name"] == "backoff_delay", a


@pytest.mark.anyio
async def test_a_test_name_still_finds_the_test(served):
    _, a = await call_text(served.url, "search_by_code_functions", {"query": "test_retry_delay_computed_is_capped"})
    assert a["results"][0]["path"] == "tests/test_backoff.py", a
