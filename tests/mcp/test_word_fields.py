"""The word fields index no positions (`index_options: freqs`, issue 33).

A question whose words hold a synonym of several words ("regular
expression", "byte order mark" in the code thesaurus) makes the search
analyzer emit a token graph. A phrase or span query over it fails on a
field without positions (OpenSearch 2.19: `match_phrase` does, with "was
indexed without position data"); the templates' `match` clauses ask for a
conjunction (`auto_generate_synonyms_phrase_query: false`, which 2.19 also
chooses by itself for such a field). So these questions answer, and find
the code. The last test checks the mapping: the word fields really are
freqs-only."""

import json
import urllib.request

import pytest

from conftest import OPENSEARCH, call_text, serve_files

PREFIX = "wordfields"

CODE = '''
import re


def compile_pattern(source, flags=0):
    """Compile the regex once and keep it for the next call."""
    return re.compile(source, flags)


def strip_bom(text):
    """Drop the leading BOM of decoded text."""
    return text.lstrip("\\ufeff")


def retry_delay(attempt):
    """Seconds to wait before the next attempt."""
    return min(30.0, 0.5 * 2 ** attempt)
'''

WORD_FIELDS = [
    ("symbols", "about"),
    ("symbols", "body"),
    ("symbols", "context"),
    (None, "about"),
    (None, "words"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("wordfields"), PREFIX, "textutil", {"patterns.py": CODE}) as gw:
        yield gw


@pytest.mark.anyio
@pytest.mark.parametrize(
    "question, name",
    [
        ("where is a regular expression compiled", "compile_pattern"),
        ("remove the byte order mark from text", "strip_bom"),
    ],
)
async def test_a_synonym_of_several_words_finds_the_code(served, question, name):
    _, answer = await call_text(served.url, "search_by_code_functions", {"query": question})
    assert answer["results"], answer
    assert answer["results"][0]["matches"][0]["name"] == name, answer


def test_the_word_fields_index_no_positions(served):
    with urllib.request.urlopen(f"{OPENSEARCH}/{PREFIX}_data_analysis_*/_mapping") as r:
        mappings = json.load(r)
    assert mappings, "no analysis index"
    for index in mappings.values():
        props = index["mappings"]["properties"]
        for parent, name in WORD_FIELDS:
            field = props[parent]["properties"][name] if parent else props[name]
            assert field.get("index_options") == "freqs", (parent, name, field)
            for sub in field.get("fields", {}).values():
                assert sub.get("index_options") == "freqs", (parent, name, sub)
