#!/usr/bin/env python3
"""search_code_text against ripgrep on the same files (driven by
bench/text_search.sh).

Subcommands:

  run --url URL --opensearch URL --prefix P [--json FILE] PROJECT...
      Samples literal snippets from the indexed files (identifiers, string
      fragments, punctuation-heavy lines, multi-word phrases; some with
      case_sensitive: false, a path glob or a language) and a list of
      regexes, calls search_code_text through MCP (one session, sequential,
      limit 10, following next_offset until the first PAGE_FILES files are
      in), runs rg (-F or -e, -i, -g) over every project with the same
      options, and prints per class: recall and precision of files (the
      answer's first files against the oracle's first files in the same
      order: project root, then path, byte order) and of (file, line) pairs
      (the at most 5 lines reported per file against the oracle's first 5),
      `total` against the oracle's count, and p50/p95 latency of the MCP call
      next to rg's time over the same trees.

Needs the `mcp` SDK (tests/mcp/.venv) for `run`; rg (ripgrep) on PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchlib import McpSession, files_aliases, logger, opensearch_url, os_json, os_scroll, pct, quiet_mcp_logs

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 10
PAGE_FILES = int(os.environ.get("TEXT_PAGE_FILES", "30"))
MAX_PAGES = 10
MATCHING_LINES_PER_FILE = 5

# Regexes (Rust syntax, also rg's): what an assistant asks for in code.
REGEXES = [
    r"fn\s+\w+\s*<",
    r"def __\w+__\(",
    r"TODO|FIXME|XXX",
    r"^import ",
    r"^\s*#\s*(if|ifdef|define)\b",
    r"\bnil\b",
    r"https?://[a-z0-9.-]+\.(org|com)",
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}",
    r"0x[0-9a-fA-F]{8,}",
    r"throw new \w+Exception\(",
    r"console\.(log|error|warn)\(",
    r"\.unwrap\(\)\.unwrap\(\)",
    r"@Override",
    r"func \(\w+ \*\w+\) [A-Z]\w*\(",
    r"raise \w+Error\(",
    r"self\.\w+ = \w+$",
    r"^}$",
    r";\s+$",
    r"(?i)copyright \(c\)",
    r"\bpanic!\(",
    r"if err != nil \{$",
    r"^\s*(pub )?struct \w+<",
    r"\w+Exception\b",
    r"\$\{[A-Za-z_]+\}",
]


log = logger("text-bench")


# ---------------------------------------------------------------------------
# the indexed files
# ---------------------------------------------------------------------------


def indexed(base: str, prefix: str) -> list[dict]:
    """root, path, language of every document in the files aliases."""
    body = {"size": 2000, "_source": ["root", "path", "language"], "query": {"match_all": {}}, "sort": ["_doc"]}
    return [h["_source"] for h in os_scroll(base, files_aliases(prefix), body)]


def sample(files: list[dict], n: int, seed: int) -> list[Query]:
    rng = random.Random(seed)
    texts: dict[tuple[str, str], list[str]] = {}

    def lines_of(d: dict) -> list[str]:
        key = (d["root"], d["path"])
        if key not in texts:
            try:
                texts[key] = (Path(d["root"]) / d["path"]).read_text(encoding="utf-8").split("\n")
            except (OSError, UnicodeDecodeError):
                texts[key] = []
        return texts[key]

    quotas = {"identifier": n * 30 // 100, "string": n * 25 // 100, "punctuation": n * 20 // 100}
    quotas["phrase"] = n - sum(quotas.values())
    out: list[Query] = []
    seen: set[str] = set()
    tries = 0
    while any(quotas.values()) and tries < 200_000:
        tries += 1
        d = rng.choice(files)
        ls = [l for l in lines_of(d) if 6 <= len(l.strip()) <= 200]
        if not ls:
            continue
        line = rng.choice(ls).strip()
        cls = rng.choice([c for c, left in quotas.items() if left])
        q = None
        if cls == "identifier":
            ids = IDENT.findall(line)
            q = rng.choice(ids) if ids else None
        elif cls == "string":
            m = STRING.findall(line)
            q = next(x for x in rng.choice(m) if x).strip() if m else None
        elif cls == "punctuation":
            punct = sum(1 for c in line if not c.isalnum() and not c.isspace())
            q = line if punct >= 0.25 * len(line) and len(line) >= 8 else None
        else:
            words = line.split()
            if len(words) >= 3:
                i = rng.randrange(0, len(words) - 1)
                q = " ".join(words[i:i + rng.randint(2, 4)])
                q = q if len(q) >= 8 else None
        if not q or q in seen or len(q) > 300:
            continue
        seen.add(q)
        quotas[cls] -= 1
        query = Query(cls=cls, q=q)
        r = rng.random()
        if r < 0.15:
            query.ci = True
            query.cls += "+ci"
            if rng.random() < 0.5:
                query.q = q.upper() if rng.random() < 0.5 else q.lower()
        elif r < 0.25:
            ext = Path(d["path"]).suffix
            first = d["path"].split("/")[0] if "/" in d["path"] else None
            query.glob = f"{first}/**" if first and rng.random() < 0.4 else (f"*{ext}" if ext else None)
            query.cls += "+glob" if query.glob else ""
        elif r < 0.30 and d.get("language"):
            query.language = d["language"]
            query.cls += "+language"
        out.append(query)
    for re_ in REGEXES:
        out.append(Query(cls="regex", q=re_, regex=True))
    for re_ in REGEXES[:6]:
        out.append(Query(cls="regex+ci", q=re_, regex=True, ci=True))
    return out


# ---------------------------------------------------------------------------
# run: the oracle
# ---------------------------------------------------------------------------


def key(root: str, path: str) -> str:
    return f"{root}\0{path}"


def order(k: tuple[str, str]) -> tuple[bytes, bytes]:
    return (k[0].encode(), k[1].encode())


def oracle(q: Query, roots: list[str], langs: dict[tuple[str, str], str | None], known: set[tuple[str, str]]) -> None:
    cmd = ["rg", "--no-config", "--no-ignore", "--hidden", "--no-messages", "--color", "never",
           "-n", "--no-heading", "--with-filename", "--null"]
    cmd += ["-F"] if not q.regex else []
    cmd += ["-i"] if q.ci else []
    if q.glob:
        cmd += ["-g", q.glob]
    # The path: without one, rg reads stdin when it is not a terminal.
    cmd += ["-e", q.q, "."]
    lines: dict[tuple[str, str], list[int]] = defaultdict(list)
    t = time.perf_counter()
    for root in roots:
        r = subprocess.run(cmd, cwd=root, capture_output=True)
        for raw in r.stdout.split(b"\n"):
            if not raw:
                continue
            path, _, rest = raw.partition(b"\0")
            num = rest.split(b":", 1)[0]
            p = path.decode("utf-8", "replace")
            p = p[2:] if p.startswith("./") else p
            k = (root, p)
            if k in known and (q.language is None or langs.get(k) == q.language):
                lines[k].append(int(num))
    q.rg_ms = (time.perf_counter() - t) * 1000
    q.want = sorted(lines, key=order)
    q.lines = {key(*k): sorted(v) for k, v in lines.items()}


# ---------------------------------------------------------------------------
# run: MCP
# ---------------------------------------------------------------------------


async def run_mcp(url: str, queries: list[Query]) -> dict:
    sample_answer: dict = {}
    async with McpSession(url, timeout_s=120) as mcp:
        warm = await mcp.call("search_code_text", {"query": "warmup"}, error_chars=300)
        if warm.error:
            sys.exit(f"search_code_text is not callable through MCP: {warm.error}")
        for i, q in enumerate(queries):
            args: dict = {"query": q.q, "limit": LIMIT}
            if q.regex:
                args["regex"] = True
            if q.ci:
                args["case_sensitive"] = False
            if q.glob:
                args["path"] = q.glob
            if q.language:
                args["language"] = q.language
            offset = 0
            for page in range(MAX_PAGES):
                if offset:
                    args["offset"] = offset
                c = await mcp.call("search_code_text", args, error_chars=300)
                if c.error and not c.error.startswith("isError"):
                    q.error = c.error
                    break
                ms = c.latency_ms
                q.ms_all.append(ms)
                if c.error:
                    q.error = c.error
                    break
                answer = c.answer
                if page == 0:
                    q.ms_first = ms
                    q.total = answer.get("total")
                    q.total_exact = answer.get("total_exact", True)
                    q.note = answer.get("note", "")
                    if not sample_answer and answer.get("results"):
                        sample_answer = answer
                for res in answer.get("results", []):
                    k = (res["project"], res["path"])
                    q.got.append(k)
                    q.reported[key(*k)] = ([m["line"] for m in res.get("matches", [])], res.get("more_matches", 0))
                nxt = answer.get("next_offset")
                if nxt is None or len(q.got) >= min(PAGE_FILES, len(q.want) or PAGE_FILES):
                    break
                offset = nxt
            if (i + 1) % 100 == 0:
                log(f"{i + 1}/{len(queries)} queries")
    return sample_answer


# ---------------------------------------------------------------------------
# run: metrics
# ---------------------------------------------------------------------------


def ratio(a: float, b: float) -> float:
    return a / b if b else 1.0


def metrics(qs: list[Query]) -> dict:
    f_hit = f_want = f_ok = f_got = 0
    l_hit = l_want = l_ok = l_got = 0
    more_bad = 0
    tot_eq = tot_lb = tot_over = tot_bad = 0
    for q in qs:
        if q.error:
            continue
        n = min(PAGE_FILES, len(q.want))
        want_first = q.want[:n]
        got_first = q.got[:n] if n else q.got
        f_want += len(want_first)
        f_hit += len(set(got_first) & set(want_first))
        all_want = set(q.want)
        f_got += len(q.got)
        f_ok += sum(1 for k in q.got if k in all_want)
        for k in q.got:
            rep, more = q.reported[key(*k)]
            oracle_lines = q.lines.get(key(*k), [])
            first = oracle_lines[:MATCHING_LINES_PER_FILE]
            l_want += len(first)
            l_hit += len(set(rep) & set(first))
            l_got += len(rep)
            l_ok += len(set(rep) & set(oracle_lines))
            if oracle_lines and more != len(oracle_lines) - len(first):
                more_bad += 1
        if q.total is None:
            continue
        if q.total == len(q.want):
            tot_eq += 1
        elif q.total < len(q.want) and not q.total_exact:
            tot_lb += 1  # counting stopped at the cap
        elif q.total > len(q.want) and not q.total_exact:
            tot_over += 1  # a regex the index only approximates: candidates counted
        else:
            tot_bad += 1
    ok = [q for q in qs if not q.error]
    return {
        "n": len(qs),
        "errors": len(qs) - len(ok),
        "file_recall": ratio(f_hit, f_want),
        "file_precision": ratio(f_ok, f_got),
        "line_recall": ratio(l_hit, l_want),
        "line_precision": ratio(l_ok, l_got),
        "more_matches_wrong": more_bad,
        "total_equal": tot_eq,
        "total_lower_bound": tot_lb,
        "total_overcount": tot_over,
        "total_wrong": tot_bad,
        "p50_ms": pct([q.ms_first for q in ok], 50),
        "p95_ms": pct([q.ms_first for q in ok], 95),
        "rg_p50_ms": pct([q.rg_ms for q in ok], 50),
        "rg_p95_ms": pct([q.rg_ms for q in ok], 95),
        "oracle_files_median": statistics.median([len(q.want) for q in qs]) if qs else 0,
    }


def table(groups: list[tuple[str, dict]]) -> str:
    head = ("| class | queries | files recall | files precision | lines recall | lines precision | "
            "total = rg / lower bound / over / wrong | MCP p50 / p95 ms | rg p50 / p95 ms | rg files (median) |")
    rows = [head, "|" + " --- |" * 10]
    for name, m in groups:
        err = f" ({m['errors']} errors)" if m["errors"] else ""
        rows.append(
            f"| {name} | {m['n']}{err} | {m['file_recall']:.3f} | {m['file_precision']:.3f} | {m['line_recall']:.3f} | "
            f"{m['line_precision']:.3f} | {m['total_equal']} / {m['total_lower_bound']} / {m['total_overcount']} / {m['total_wrong']} | "
            f"{m['p50_ms']:.1f} / {m['p95_ms']:.1f} | {m['rg_p50_ms']:.1f} / {m['rg_p95_ms']:.1f} | {m['oracle_files_median']:g} |")
    return "\n".join(rows)


def cmd_run(args: argparse.Namespace) -> None:
    quiet_mcp_logs()
    base = args.opensearch.rstrip("/")
    roots = [str(Path(p).resolve()) for p in args.projects]
    # Sorted, so that a seed samples the same queries whatever the index's order.
    docs = sorted((d for d in indexed(base, args.prefix) if d.get("root") in roots), key=lambda d: (d["root"], d["path"]))
    known = {(d["root"], d["path"]) for d in docs}
    langs = {(d["root"], d["path"]): d.get("language") for d in docs}
    log(f"{len(docs)} indexed files in {len(roots)} projects")
    queries = sample(docs, args.n, args.seed)
    log(f"{len(queries)} queries; running rg")
    for q in queries:
        oracle(q, roots, langs, known)
    log("running the MCP calls")
    t = time.monotonic()
    answer = asyncio.run(run_mcp(args.url, queries))
    log(f"MCP: {sum(len(q.ms_all) for q in queries)} calls in {time.monotonic() - t:.0f} s")
    if args.show_answer:
        print(json.dumps(answer, indent=1, ensure_ascii=False)[:3000], file=sys.stderr)

    by: dict[str, list[Query]] = defaultdict(list)
    for q in queries:
        by[q.cls].append(q)
    groups = [(c, metrics(qs)) for c, qs in sorted(by.items())]
    literal = [q for q in queries if not q.regex]
    regex = [q for q in queries if q.regex]
    groups += [("all literals", metrics(literal)), ("all regexes", metrics(regex)), ("all", metrics(queries))]
    print(f"corpus: {len(docs)} indexed files in {len(roots)} projects "
          f"({', '.join(Path(r).name for r in roots)}); {len(queries)} queries, seed {args.seed}; "
          f"limit {LIMIT}, pages followed until the first {PAGE_FILES} files")
    print()
    print(table(groups))
    wrong_more = sum(m["more_matches_wrong"] for name, m in groups if name == "all")
    print()
    print(f"files whose `more_matches` differs from rg's count of lines beyond the first {MATCHING_LINES_PER_FILE}: {wrong_more}")
    bad = [q for q in queries if q.error or set(q.got[:min(PAGE_FILES, len(q.want))]) != set(q.want[:min(PAGE_FILES, len(q.want))])
           or any(k not in set(q.want) for k in q.got)]
    if bad:
        print()
        print(f"queries whose files differ from rg's ({len(bad)}), first {args.misses}:")
        for q in bad[:args.misses]:
            miss = [k for k in q.want[:PAGE_FILES] if k not in set(q.got)]
            extra = [k for k in q.got if k not in set(q.want)]
            print(f"  {q.cls} {q.q!r} ci={q.ci} glob={q.glob} lang={q.language}: {q.error or ''} "
                  f"missing {[p for _, p in miss[:3]]} extra {[p for _, p in extra[:3]]} total {q.total} rg {len(q.want)} {q.note[:120]}")
    notes = [q for q in queries if q.note]
    if notes:
        print()
        print(f"answers with a note: {len(notes)}; e.g. {notes[0].q!r}: {notes[0].note[:200]}")
    if args.json:
        Path(args.json).write_text(json.dumps({"groups": groups, "queries": [asdict(q) for q in queries]}, indent=1,
                                              ensure_ascii=False), encoding="utf-8")
        log(f"wrote {args.json}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--url", required=True)
    r.add_argument("--opensearch", default=opensearch_url())
    r.add_argument("--prefix", required=True)
    r.add_argument("--n", type=int, default=int(os.environ.get("TEXT_N", "320")), help="literal snippets")
    r.add_argument("--seed", type=int, default=int(os.environ.get("TEXT_SEED", "1")))
    r.add_argument("--json")
    r.add_argument("--misses", type=int, default=15)
    r.add_argument("--show-answer", action="store_true")
    r.add_argument("projects", nargs="+")
    args = ap.parse_args()
    {"run": cmd_run}[args.cmd](args)


if __name__ == "__main__":
    main()
