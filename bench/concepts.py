"""Questions in words through MCP (issue 23), driven by bench/concepts.sh.

  concepts.py --url URL --sets FILE... --projects DIR... [--misses N] [--json OUT]

Each look-up of the sets (bench/concepts/*.jsonl: lang, tool, query,
expected files, written from the source trees by someone who never saw the
index) is sent to its tool twice through one MCP session: once as an
assistant would (default limit: hit@1, hit@3, latency, answer bytes) and once
with limit 10 (MRR over the first 10 files). In the same run, two baselines
rank the same files for the same queries:
  - BM25 over each whole file's words (identifiers split on case and `_`,
    lower case, no stemming, no stop words; k1 1.2, b 0.75);
  - any-word grep: files ranked by how many of the query's words (3+ letters)
    they hold as whole words, ignoring case, then by how often.
Prints one row per language (the project a set's `lang` names) and overall,
twice: over every project (the shared endpoint `/mcp`, no `target`, all
files pooled: a Python question competes with the Java files) and scoped
(the look-up's project's own endpoint `/mcp/<project>`, as an assistant set
up in that project calls it; the baselines then rank that project's files
only). A third table (bench/concepts_vocabulary.py) shows how much of each
question's vocabulary its expected file holds, and hit@3 where it holds at
least half of it and where it holds less (a vocabulary gap).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
from collections import Counter, defaultdict
from pathlib import Path

from benchlib import WORD, McpCall, log, pct, run_mcp_calls, split_words
from concepts_vocabulary import VOCABULARY_HEAD, vocabulary_rows

TOOL = {"functions": "search_by_code_functions", "classes": "search_by_code_classes",
        "variables": "search_by_code_variables"}
# The project (corpus directory name) each set's language lives in.
PROJECT = {"python": "python", "go": "go", "java": "java", "javascript": "javascript", "ru": "ru_tree",
           "rust": "rust", "typescript": "typescript"}
SOURCE_EXT = {".py", ".go", ".java", ".js", ".cjs", ".mjs", ".ts", ".rs", ".kt"}


class Files:
    """The projects' source files, read once: `project/path` -> text."""

    def __init__(self, projects: list[Path]):
        self.text: dict[str, str] = {}
        for root in projects:
            for p in sorted(root.rglob("*")):
                if p.is_file() and p.suffix in SOURCE_EXT:
                    key = f"{root.name}/{p.relative_to(root)}"
                    self.text[key] = p.read_text(encoding="utf-8", errors="replace")
        log(f"baselines: {len(self.text)} files read")


class Bm25:
    def __init__(self, files: Files, k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tf: dict[str, Counter] = {}
        self.postings: dict[str, list[str]] = defaultdict(list)
        for key, text in files.text.items():
            tf = Counter(split_words(text))
            self.tf[key] = tf
            for w in tf:
                self.postings[w].append(key)
        self.len = {k: sum(tf.values()) for k, tf in self.tf.items()}
        self.avg = sum(self.len.values()) / max(1, len(self.len))

    def rank(self, query: str, k: int = 10, project: str = "") -> list[str]:
        n = len(self.tf)
        scores: Counter = Counter()
        for w in set(split_words(query)):
            docs = self.postings.get(w, [])
            if not docs:
                continue
            idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            for d in docs:
                f = self.tf[d][w]
                scores[d] += idf * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.len[d] / self.avg))
        return [d for d, _ in scores.most_common() if d.startswith(project)][:k]


class AnyWordGrep:
    def __init__(self, files: Files):
        self.postings: dict[str, dict[str, int]] = defaultdict(dict)
        for key, text in files.text.items():
            for w, c in Counter(t.lower() for t in WORD.findall(text)).items():
                self.postings[w][key] = c

    def rank(self, query: str, k: int = 10, project: str = "") -> list[str]:
        found: Counter = Counter()
        count: Counter = Counter()
        for w in {t.lower() for t in WORD.findall(query) if len(t) >= 3}:
            for d, c in self.postings.get(w, {}).items():
                found[d] += 1
                count[d] += c
        return [d for d in sorted(found, key=lambda d: (-found[d], -count[d], d)) if d.startswith(project)][:k]


def answer_files(answer, roots: dict[str, str]) -> list[str]:
    """`project/path` of an answer's results, in order (project = the
    corpus directory's name, found from the result's project root)."""
    out = []
    for r in (answer or {}).get("results", []) if isinstance(answer, dict) else []:
        root = str(r.get("project") or r.get("root") or "").rstrip("/")
        name = roots.get(root, Path(root).name)
        key = f"{name}/{r.get('path', '')}"
        if key not in out:
            out.append(key)
    return out


def rank_of(ranked: list[str], expected: set[str]) -> int:
    return next((i + 1 for i, f in enumerate(ranked) if f in expected), 0)


def scores(ranks: list[int]) -> tuple[float, float, float]:
    n = max(1, len(ranks))
    return (sum(r == 1 for r in ranks) / n, sum(1 <= r <= 3 for r in ranks) / n, sum(1 / r for r in ranks if r) / n)


def row(label: str, qs: list[dict]) -> list[str]:
    ok = [q for q in qs if not q["error"]]
    h1, h3, _ = scores([q["rank3"] for q in qs])
    mrr = scores([q["rank10"] for q in qs])[2]
    lat, size = [q["ms"] for q in ok], [q["bytes"] for q in ok]
    b = scores([q["bm25"] for q in qs])
    g = scores([q["grep"] for q in qs])
    return [label, str(len(qs)), f"{h1:.2f}", f"{h3:.2f}", f"{mrr:.2f}", str(sum(1 for q in ok if not q["files3"])),
            str(len(qs) - len(ok)), f"{pct(lat, 50):.1f}", f"{pct(lat, 95):.1f}",
            f"{statistics.median(size) if size else 0:.0f}", f"{max(size) if size else 0}",
            f"{b[0]:.2f}", f"{b[1]:.2f}", f"{b[2]:.2f}", f"{g[0]:.2f}", f"{g[1]:.2f}", f"{g[2]:.2f}",
            f"{h3 - b[1]:+.2f}", f"{mrr - b[2]:+.2f}"]


HEAD = ["lang", "n", "hit@1", "hit@3", "MRR", "empty", "err", "p50 ms", "p95 ms", "bytes med", "bytes max",
        "BM25 @1", "BM25 @3", "BM25 MRR", "grep @1", "grep @3", "grep MRR", "d@3 vs BM25", "dMRR vs BM25"]


def print_table(rows: list[list[str]], head: list[str] = HEAD) -> None:
    rows = [head] + rows
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for j, r in enumerate(rows):
        print("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip())
        if j == 0:
            print("  ".join("-" * w for w in widths))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--sets", nargs="+", type=Path, required=True)
    ap.add_argument("--projects", nargs="+", type=Path, required=True)
    ap.add_argument("--misses", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    qs = [json.loads(line) for s in args.sets for line in s.read_text(encoding="utf-8").splitlines() if line.strip()]
    roots = {str(p.resolve()).rstrip("/"): p.name for p in args.projects}
    # Pooled through the shared endpoint; scoped through each project's own
    # (`/mcp/<project>`), with no target in the calls.
    scopes = {"pooled": lambda q: args.url, "scoped": lambda q: f"{args.url}/{PROJECT[q['lang']]}"}
    calls = {scope: [] for scope in scopes}
    by_url = defaultdict(list)
    for scope, url in scopes.items():
        for q in qs:
            for extra in ({}, {"limit": 10}):
                calls[scope].append(McpCall(TOOL[q["tool"]], {"query": q["query"], **extra}))
                by_url[url(q)].append(calls[scope][-1])
    warmup = [(t, {"query": "warm up"}) for t in TOOL.values()]
    for url, group in by_url.items():
        asyncio.run(run_mcp_calls(url, group, warmup=warmup))

    files = Files(args.projects)
    bm25, grep = Bm25(files), AnyWordGrep(files)
    results = {scope: [score_one(q, calls[scope][2 * i: 2 * i + 2], roots, bm25, grep, scope == "scoped")
                       for i, q in enumerate(qs)] for scope in scopes}
    print(f"look-ups: {len(qs)} from {', '.join(str(s.name) for s in args.sets)}; projects: "
          + ", ".join(f"{p.name} {sum(1 for k in files.text if k.startswith(p.name + '/'))}" for p in args.projects))
    print("hit@k: the expected file among the first k files of the default answer (limit 3); MRR over limit 10")
    for scope, scored in results.items():
        print()
        print(f"{scope}: " + ("every project, no target" if scope == "pooled"
                              else "the look-up's project's endpoint /mcp/<project>; baselines over that project's files"))
        print_table(rows_by_language(scored))
    print()
    print("vocabulary: share of each question's words (stems, no stop words) its expected file holds; "
          "hit@3 where the file holds at least half of them, and where it holds less (a vocabulary gap)")
    print_table(vocabulary_rows(results, files.text, PROJECT), VOCABULARY_HEAD)
    print_misses(results["pooled"], args.misses)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


def score_one(q: dict, pair: list[McpCall], roots: dict[str, str], bm25: Bm25, grep: AnyWordGrep,
              scoped: bool) -> dict:
    """One look-up's ranks in the tool's two answers and in both baselines."""
    short, long_ = pair
    project = PROJECT[q["lang"]] + "/" if scoped else ""
    expected = {f"{PROJECT[q['lang']]}/{e}" for e in q["expected"]}
    r = dict(q)
    r["files3"] = answer_files(short.answer, roots)
    r["rank3"] = rank_of(r["files3"][:3], expected)
    r["rank10"] = rank_of(answer_files(long_.answer, roots)[:10], expected)
    r["error"] = short.error or long_.error
    r["ms"], r["bytes"] = short.latency_ms, short.bytes
    r["bm25"] = rank_of(bm25.rank(q["query"], project=project), expected)
    r["grep"] = rank_of(grep.rank(q["query"], project=project), expected)
    return r


def rows_by_language(qs: list[dict]) -> list[list[str]]:
    by = defaultdict(list)
    for q in qs:
        by[q["lang"]].append(q)
    return [row(lang, by[lang]) for lang in sorted(by)] + [row("all", qs)]


def print_misses(qs: list[dict], limit: int) -> None:
    misses = [q for q in qs if q["rank3"] == 0][:limit]
    if misses:
        print()
    for q in misses:
        print(f"  miss {q['id']} ({q['tool']}) {q['query']!r}: expected {q['expected'][0]} ({q['symbol']}); "
              f"got {q['files3']}; MRR rank {q['rank10'] or '-'}; BM25 rank {q['bm25'] or '-'}")

if __name__ == "__main__":
    main()
