"""Answer sizes of every MCP tool against the answer budget (issue 24).

Run by bench/answers.sh (which indexes the trees and serves MCP). Calls every
tool over real trees and the large generated files of
tests/mcp/budget_pages.py, prints per tool the answers' bytes (median, p95,
max), how many were over the budget, how many were cut, and whether
following each cut file or list (`next_start_line`, `next_start_char`,
`next_offset`) gave it back whole: byte for byte for files, every element
once for lists. Also KB R@3 of the documentation scenarios by script.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from benchlib import McpSession, pct, quiet_mcp_logs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "mcp"))
from budget_pages import follow_content, follow_list  # noqa: E402

SIZES: dict[str, list[int]] = defaultdict(list)
CUT: dict[str, int] = defaultdict(int)
FOLLOW: dict[str, list[bool]] = defaultdict(list)


def make_call(mcp: McpSession, label: str = ""):
    """A `call(tool, args) -> (text, structured content)` that counts each
    answer's bytes and cuts under the tool's name (+ label); a failed call
    (not an isError answer) stops the run."""
    async def call(tool: str, args: dict):
        c = await mcp.call(tool, args, parse=False)
        if c.error is not None and not c.error.startswith("isError"):
            raise RuntimeError(f"{tool} {args}: {c.error}")
        key = tool + (" (error)" if c.error else label)
        SIZES[key].append(c.bytes)
        sc = c.structured or {}
        if sc.get("truncated") is True:
            CUT[key] += 1
        return c.text, sc
    return call


def script(q: str) -> str:
    if any("\u4e00" <= c <= "\u9fff" for c in q):
        return "zh"
    if any("\u0400" <= c <= "\u04ff" for c in q):
        return "ru"
    return "en"


async def kb_recall(call) -> dict[str, tuple[int, int]]:
    """R@3 of the documentation scenarios whose `first` names the answer."""
    hits: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name in ("search_documentation", "search_knowledge"):
        spec = json.loads((ROOT / "tests/mcp/scenarios" / f"{name}.json").read_text(encoding="utf-8"))
        for case in spec["cases"]:
            want = case["expect"].get("first")
            if not want or case["expect"].get("is_error"):
                continue
            _, a = await call(spec["tool"], case["args"])
            paths = [r.get("path") for r in a.get("results", [])[:3]]
            h = hits[script(case["args"].get("query", ""))]
            h[0] += want in paths
            h[1] += 1
    return {k: (v[0], v[1]) for k, v in hits.items()}


async def run(url: str, projects: list[str], big: str, files_per_project: int, seed: int, budget: int) -> None:
    rnd = random.Random(seed)
    async with McpSession(url) as mcp:
        call = make_call(mcp)
        # The pages read while following a cut answer to its end, counted apart.
        pages = make_call(mcp, " (all pages followed)")
        # Files: a sample of every real tree, and every large generated file.
        samples: list[tuple[str, str, Path]] = []
        for p in projects:
            root = Path(p)
            files = sorted(f for f in root.rglob("*") if f.is_file() and f.stat().st_size < 10 << 20
                           and not any(part in {"node_modules", ".git", "__pycache__"} for part in f.parts))
            for f in rnd.sample(files, min(files_per_project, len(files))):
                samples.append((str(root), str(f.relative_to(root)), f))
        for rel in ("src/BigMap.java", "gen/constants.py", "dist/bundle.min.js", "docs/guide.md"):
            samples.append((big, rel, Path(big) / rel))
        names: list[str] = []
        for n, (root, rel, f) in enumerate(samples):
            _, a = await call("get_file_content", {"path": rel, "target": root})
            _, o = await call("get_file_ast", {"path": rel, "target": root})
            names += [e["name"] for e in o.get("elements", []) if e.get("kind") in ("function", "method", "class")]
            follow = a.get("truncated") or a.get("shortened_lines") or root == big or n % 10 == 0
            if follow and a.get("content") is not None and not a.get("message", "").startswith(("binary", "not valid", "file too large")):
                back, _ = await follow_content(pages, rel, root)
                FOLLOW["get_file_content"].append(back == f.read_text(encoding="utf-8", errors="strict"))
            if o.get("truncated") or root == big:
                got, _, first = await follow_list(pages, "get_file_ast", {"path": rel, "target": root}, "elements",
                                                  lambda e: json.dumps(e, sort_keys=True))
                FOLLOW["get_file_ast"].append(len(got) == first.get("total_elements") == len(set(got)))
        # Searches at the default limit, with names read from the outlines.
        queries = rnd.sample(names, min(60, len(names)))
        for q in queries:
            for tool in ("search_by_code_functions", "search_by_code_classes", "search_by_code_variables",
                         "find_references", "search_code_text", "search_by_code_imports"):
                await call(tool, {"query": q})
        for q in ("how to publish a package", "release process", "installation", "configuration options",
                  "error handling", "license", "contributing", "changelog", "API reference", "getting started"):
            await call("search_documentation", {"query": q})
        for q in queries[:20]:
            await call("search_code_text", {"query": q, "limit": 10})
            await call("search_by_code_functions", {"query": q, "limit": 10})
        # Projects, statistics, trees.
        got, _, first = await follow_list(pages, "show_projects", {}, "projects", lambda p: p["path"])
        FOLLOW["show_projects"].append(len(got) == first["total"] == len(set(got)))
        await call("show_stats", {})
        await call("show_tree", {})
        for p in projects + [big]:
            await call("show_stats", {"target": p})
            _, t = await call("show_tree", {"target": p})
        await call("show_tree", {"target": big, "path": "pkg/mod3", "depth": 2})
        # Errors: an ambiguous path, an unknown element.
        await call("get_file_content", {"path": "README.md"})
        await call("get_file_ast", {"path": "src/BigMap.java", "target": big, "symbol": "nope"})
        recall = await kb_recall(call)
    print_table(budget, recall)


def print_table(budget: int, recall: dict[str, tuple[int, int]]) -> None:
    print(f"\nAnswer bytes per tool (budget {budget} bytes)\n")
    print("| tool | answers | median | p95 | max | over budget | cut | followed to the end |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for tool in sorted(SIZES):
        s = SIZES[tool]
        over = sum(1 for x in s if x > budget)
        f = FOLLOW.get(tool.split(" ")[0]) if tool.endswith("followed)") else None
        followed = f"{sum(f)}/{len(f)} whole" if f else ""
        print(f"| {tool} | {len(s)} | {int(statistics.median(s))} | {pct(s, 95)} | {max(s)} | {over} | {CUT[tool]} | {followed} |")
    print("\nKB R@3 (documentation scenarios): "
          + ", ".join(f"{k} {h}/{n} = {h / n:.2f}" for k, (h, n) in sorted(recall.items())))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--big", required=True, help="the generated project of large files")
    ap.add_argument("--files", type=int, default=40, help="files sampled per real project")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--budget", type=int, default=12_000)
    ap.add_argument("projects", nargs="*")
    a = ap.parse_args()
    quiet_mcp_logs()
    asyncio.run(run(a.url, a.projects, a.big, a.files, a.seed, a.budget))


if __name__ == "__main__":
    main()
