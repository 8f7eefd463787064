"""How much of a question's vocabulary its expected file holds (bench/concepts.py).

A lexical ranker (BM25, the stored templates) can only match words that are
in the index. For each look-up this counts the question's content words
found anywhere in its expected file (code, comments, identifiers split; the
best of its expected files), after dropping stop words and words under three
letters, and truncating every word to its first five letters: a crude stem
that works the same for English and Russian ("encoding" and "encoder" meet
as "encod", "записи" and "запись" as "запис").

It then splits the look-ups in two: those whose file holds at least half of
the question's words, and the vocabulary gaps (less than half: "power-law
distributed" for a Zipf generator, "right before the browser repaints" for
an animation-frame scheduler), and prints hit@3 of the engine and of BM25 in
each part. The gap part is what only a model that knows such words
(an LLM's description at indexing, an embedding or a reranker) can reach.
"""

from __future__ import annotations

from collections import defaultdict

from benchlib import split_words

STOP = set(
    # Lucene's English stop set, and words every question is made of
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these they "
    "this to was will with what which where who how when does do one its from given using used".split()
    # Russian function words
    + "и в во не что на с со как а то все она так его но да к у же за бы по только ее было вот от еще нет о из "
      "ему уже для при или это этот эта эти чтобы который которая которые где когда ли".split()
)
STEM = 5


def stems(text: str) -> set[str]:
    """Words of text (identifiers split, letters only), lower case, cut to STEM letters."""
    return {w[:STEM] for w in split_words(text) if w.isalpha()}


def question_stems(query: str) -> set[str]:
    return {w[:STEM] for w in split_words(query) if w.isalpha() and len(w) >= 3 and w not in STOP}


def coverage(query: str, texts: list[str]) -> float:
    """Share of the question's content words that the best of texts holds."""
    words = question_stems(query)
    if not words:
        return 1.0
    return max((len(words & stems(t)) / len(words) for t in texts), default=0.0)


def hit3(qs: list[dict], key: str) -> str:
    return f"{sum(1 <= q[key] <= 3 for q in qs) / len(qs):.2f}" if qs else "-"


def vocabulary_rows(results: dict[str, list[dict]], file_text: dict[str, str], project_of: dict[str, str]) -> list[list[str]]:
    """One row per language: mean coverage, the two parts' sizes and each
    part's hit@3 (engine pooled, engine scoped, BM25 scoped)."""
    pooled = {q["id"]: q for q in results["pooled"]}
    by_lang = defaultdict(list)
    for q in results["scoped"]:
        texts = [file_text.get(f"{project_of[q['lang']]}/{e}", "") for e in q["expected"]]
        cov = coverage(q["query"], texts)
        by_lang[q["lang"]].append((cov, q, pooled[q["id"]]))
    rows = []
    for lang in sorted(by_lang) + ["all"]:
        items = by_lang[lang] if lang != "all" else [i for v in by_lang.values() for i in v]
        held = [i for i in items if i[0] >= 0.5]
        gap = [i for i in items if i[0] < 0.5]
        cells = [lang, str(len(items)), f"{sum(i[0] for i in items) / len(items):.2f}", str(len(held)), str(len(gap))]
        for part in (held, gap):
            cells += [hit3([i[2] for i in part], "rank3"), hit3([i[1] for i in part], "rank3"),
                      hit3([i[1] for i in part], "bm25")]
        rows.append(cells)
    return rows


VOCABULARY_HEAD = ["lang", "n", "words held", "n held", "n gap", "held @3 pooled", "held @3 scoped",
                   "held BM25 @3", "gap @3 pooled", "gap @3 scoped", "gap BM25 @3"]
