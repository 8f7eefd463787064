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


def load_settings(path):
    """读取配置文件并返回字典。"""
    with open(path) as f:
        return dict(line.split("=", 1) for line in f)
'''

WORD_FIELDS = [
    ("symbols", "about"),
    ("symbols", "about_zh"),
    ("symbols", "body"),
    (None, "about"),
    (None, "about_zh"),
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


@pytest.mark.anyio
async def test_a_question_in_chinese_finds_a_definition_documented_in_chinese(served):
    # Only `symbols.about_zh` (the CJK analyzer's bigrams) holds these words:
    # `vibe_about` keeps the whole unspaced sentence as one token.
    _, answer = await call_text(served.url, "search_by_code_functions", {"query": "读取配置文件"})
    assert answer["results"], answer
    assert answer["results"][0]["matches"][0]["name"] == "load_settings", answer


def test_only_text_with_a_cjk_character_is_indexed_for_the_cjk_analyzer(served):
    query = {
        "query": {"nested": {"path": "symbols", "query": {"exists": {"field": "symbols.about_zh"}},
                             "inner_hits": {"_source": False, "docvalue_fields": ["symbols.name"], "size": 10}}},
        "_source": False,
    }
    request = urllib.request.Request(
        f"{OPENSEARCH}/{PREFIX}_data_analysis_*/_search", data=json.dumps(query).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as r:
        hits = json.load(r)["hits"]["hits"]
    names = [n for h in hits for i in h["inner_hits"]["symbols"]["hits"]["hits"] for n in i["fields"]["symbols.name"]]
    assert names == ["load_settings"], names
