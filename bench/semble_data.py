"""semble's benchmark as their code at bc2181c reads and scores it
(benchmarks/data.py, benchmarks/metrics.py), for bench/semble.py and
bench/semble_baselines.py (stdlib only: it runs in either venv).

Scoring: binary relevance, `relevant` and `secondary` targets alike; ideal
DCG over min(10, number of targets); a returned path matches a target when
either is a suffix of the other; a file-level answer is deduplicated to
files in rank order; a repo's score is the mean over its questions, the
headline the mean over repos, a category the mean over repos of each repo's
category mean (repos without that category left out).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

K = 10
# ../shared/benchmarks/semble/splits.txt: dev is the first repo of each
# language in repos.json (the first three for Python, zls for Zig); heldout
# is run to report a number, never to choose or tune.
DEV = ("aiohttp fastapi flask axios gin gson guzzle sinatra tokio trpc messagepack-csharp ktor cats alamofire "
       "nlohmann-json phoenix curl bats-core aeson telescope.nvim zls").split()
LEFT_OUT = {"zig"}
CATEGORIES = ("architecture", "semantic", "symbol")


@dataclass(frozen=True)
class Task:
    repo: str
    language: str
    query: str
    targets: tuple[str, ...]  # relevant + secondary paths
    category: str


def infer_category(query: str) -> str:
    if " " not in query.strip():
        return "symbol"
    lowered = query.lower()
    if lowered.startswith("how ") or lowered.startswith("how does") or lowered.startswith("how are"):
        return "architecture"
    return "semantic"


def _path(t) -> str:
    return t if isinstance(t, str) else str(t["path"])


def load(root: Path) -> tuple[dict[str, dict], list[Task]]:
    """(specs by repo name, tasks) of the laid-out benchmark (root/bench),
    the repos left out excepted."""
    specs = {s["name"]: s for s in json.loads((root / "bench" / "repos.json").read_text())
             if s["name"] not in LEFT_OUT}
    tasks = []
    for f in sorted((root / "bench" / "annotations").glob("*.json")):
        if f.stem not in specs:
            continue
        for item in json.loads(f.read_text(encoding="utf-8")):
            repo = item.get("repo", f.stem)
            if repo not in specs:
                continue
            cat = item.get("category")
            tasks.append(Task(repo, specs[repo]["language"], item["query"],
                              tuple(_path(t) for t in item.get("relevant", []) + item.get("secondary", [])),
                              cat if isinstance(cat, str) else infer_category(item["query"])))
    return specs, tasks


def split_of(repo: str) -> str:
    return "dev" if repo in DEV else "heldout"


def path_matches(file_path: str, target_path: str) -> bool:
    f = file_path.replace("\\", "/")
    t = target_path.replace("\\", "/")
    return f == t or f.endswith(f"/{t}") or t.endswith(f"/{f}")


def dedup_files(paths: list[str]) -> list[str]:
    seen, out = set(), []
    for p in paths:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def file_rank(files: list[str], target: str) -> int | None:
    for i, f in enumerate(files, 1):
        if path_matches(f, target):
            return i
    return None


def dcg(rels: list[int]) -> float:
    return sum(r / math.log2(i + 2) for i, r in enumerate(rels))


def ndcg10(files: list[str], targets: tuple[str, ...]) -> float:
    """Their ndcg_at_k over file ranks (metrics.ndcg_at_k, file_rank)."""
    if not targets:
        return 0.0
    ranks = [r for t in targets if (r := file_rank(files, t)) is not None]
    rels = [0] * K
    for r in ranks:
        if 1 <= r <= K:
            rels[r - 1] = 1
    ideal = dcg([1] * min(K, len(targets)))
    return dcg(rels) / ideal if ideal > 0 else 0.0


def aggregate(scores: list[tuple[Task, float]]) -> dict:
    """{'overall', 'architecture', 'semantic', 'symbol', 'repos': {repo:
    {'ndcg10', 'n', category...}}, 'languages': {lang: mean of its repos}}
    as their run_benchmark summarises: means over repos of per-repo means."""
    by_repo: dict[str, list[tuple[Task, float]]] = {}
    for t, s in scores:
        by_repo.setdefault(t.repo, []).append((t, s))
    repos = {}
    for repo, items in by_repo.items():
        row = {"ndcg10": sum(s for _, s in items) / len(items), "n": len(items), "language": items[0][0].language}
        for c in CATEGORIES:
            cs = [s for t, s in items if t.category == c]
            if cs:
                row[c] = sum(cs) / len(cs)
        repos[repo] = row
    return summarise(repos)


def summarise(repos: dict[str, dict]) -> dict:
    """Overall, category and language means over a dict of per-repo rows
    ({'ndcg10', 'language', category...})."""
    def mean(xs):
        xs = [x for x in xs if x is not None]
        return sum(xs) / len(xs) if xs else float("nan")
    out = {"repos": repos, "overall": mean([r["ndcg10"] for r in repos.values()])}
    for c in CATEGORIES:
        out[c] = mean([r.get(c) for r in repos.values()])
    langs: dict[str, list[float]] = {}
    for r in repos.values():
        langs.setdefault(r["language"], []).append(r["ndcg10"])
    out["languages"] = {lang: mean(v) for lang, v in langs.items()}
    return out


def published(root: Path) -> dict[str, dict[str, dict]]:
    """Their per-repo results at bc2181c: {'semble': {repo: row}, 'bm25':
    ..., 'semble-bm25': ..., 'ripgrep': ...}, each row {'ndcg10',
    'language', category...} (ripgrep has no categories)."""
    res = root / "bench" / "benchmarks" / "results"
    out: dict[str, dict[str, dict]] = {}

    def rows(d, mode=None):
        got = {}
        for r in d["repos"]:
            if mode and r.get("mode") != mode:
                continue
            got[r["repo"]] = {"ndcg10": r["ndcg10"], "language": r["language"], **r.get("by_category", {})}
        return got
    out["semble"] = rows(json.loads((res / "semble-hybrid-0332378809c5.json").read_text()))
    out["bm25"] = rows(json.loads((res / "semble-ablations-1ea77add4c1b.json").read_text()), "bm25")
    out["semble-bm25"] = rows(json.loads((res / "semble-ablations-215a04760692.json").read_text()), "semble-bm25")
    out["ripgrep"] = rows(json.loads((res / "ripgrep-fixed-strings-0332378809c5.json").read_text()))
    return out
