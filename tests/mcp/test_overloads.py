"""A name's overloads show their code too (issue 32).

Guava's `Hashing.consistentHash(HashCode, int)` is a three-line delegate to
`consistentHash(long, int)`, where the work is. A name look-up used to
show only the first overload's code, so the answering line needed a
second call. The best match's overloads (the same name and owner, in the
same file) now show their stored first lines; the same name in another
class of that file does not."""

import pytest

from conftest import call_text, serve_files

PREFIX = "overloads"

BUCKETS = """package demo;

public final class Buckets {
  /** Assigns a bucket to a hash code. */
  public static int assign(HashCode code, int buckets) {
    return assign(code.asLong(), buckets);
  }

  /** Assigns a bucket to a long, jumping until out of range. */
  public static int assign(long input, int buckets) {
    int candidate = 0;
    while (candidate < buckets) {
      candidate = jumpFrom(candidate, input);
    }
    return candidate;
  }

  /** The next bucket to try after assign's candidate. */
  static int jumpFrom(int candidate, long input) {
    return candidate + 1 + (int) (input & 1);
  }
}

final class Legacy {
  /** Assigns a bucket the old way. */
  static int assign(long input, int buckets) {
    return (int) (input % buckets);
  }
}
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("overloads"), PREFIX, "hashing", {"demo/Buckets.java": BUCKETS}) as gw:
        yield gw


@pytest.mark.anyio
async def test_each_overload_of_the_best_match_shows_its_code(served):
    text, answer = await call_text(served.url, "search_by_code_functions", {"query": "Buckets.assign"})
    matches = answer["results"][0]["matches"]
    assert [m["name"] for m in matches[:2]] == ["assign", "assign"], answer
    assert all(m.get("code") for m in matches[:2]), answer
    assert "return assign(code.asLong(), buckets);" in text, text
    assert "candidate = jumpFrom(candidate, input);" in text, text


@pytest.mark.anyio
async def test_the_same_name_of_another_owner_shows_no_code(served):
    _, answer = await call_text(served.url, "search_by_code_functions", {"query": "assign"})
    matches = answer["results"][0]["matches"]
    owners = [m.get("owner") for m in matches if "called_by" not in m]
    assert sorted(owners) == ["Buckets", "Buckets", "Legacy"], answer
    first = owners[0]
    assert all(bool(m.get("code")) == (m.get("owner") == first) for m in matches), answer


@pytest.mark.anyio
async def test_a_short_overload_shows_the_function_it_calls(served):
    # assign(long, int) is short and calls jumpFrom, defined in the same file:
    # jumpFrom follows it whole, named as its callee (issue 55).
    text, answer = await call_text(served.url, "search_by_code_functions", {"query": "Buckets.assign"})
    matches = answer["results"][0]["matches"]
    callees = [m for m in matches if m.get("called_by")]
    assert [(m["name"], m["called_by"]) for m in callees] == [("jumpFrom", "assign")], answer
    assert "return candidate + 1 + (int) (input & 1);" in text, text
    assert "jumpFrom, called by assign" in text, text
