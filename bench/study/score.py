"""Scores the agent study: two logs of calls (call.py, shell.py) and two
answer files, against the fixed answers of bench/context/questions.jsonl.

    python bench/study/score.py --mcp-log M.jsonl --mcp-answers MA.jsonl \
        --grep-log G.jsonl --grep-answers GA.jsonl [--tool-list-tokens N]

An answer file holds one JSON object per question: {"id", "path", "line",
"answer"}. "Right" = the cited path ends with the fixed path and the line
is within 3 of the fixed line. Prints per question calls / tokens / right
for each side, the totals and the ratio of tokens (MCP / grep). `--fixed`
and `--questions` score another question set (same formats).
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

FIXED = Path(__file__).resolve().parent.parent / "context" / "questions.jsonl"
IDS = Path(__file__).resolve().parent / "questions.jsonl"
SLACK = 3


def read_jsonl(path: str | Path) -> list[dict]:
    return [json.loads(l) for l in open(path) if l.strip()]


def calls(log: str) -> dict[str, list[int]]:
    per = defaultdict(list)
    for c in read_jsonl(log):
        per[c["question"]].append(c["tokens"])
    return per


def right(fixed: dict, given: dict | None) -> bool:
    if not given or not given.get("path"):
        return False
    try:
        line = int(given.get("line") or 0)
    except (TypeError, ValueError):
        return False
    path = str(given["path"]).replace("\\", "/").strip("/")
    # The fixed path, or its tail from a directory on (`src/fetch.ts` of a
    # package's `durable-streams-client/src/fetch.ts`, as rg run inside the
    # package prints it).
    same = path.endswith(fixed["path"]) or ("/" + fixed["path"]).endswith("/" + path)
    return same and abs(line - fixed["line"]) <= SLACK


def main() -> None:
    p = argparse.ArgumentParser()
    for side in ("mcp", "grep"):
        p.add_argument(f"--{side}-log", required=True)
        p.add_argument(f"--{side}-answers", required=True)
    p.add_argument("--tool-list-tokens", type=int, default=0)
    p.add_argument("--fixed", default=str(FIXED), help="the questions with their fixed answers")
    p.add_argument("--questions", default=str(IDS), help="the questions asked (their ids, in order)")
    a = p.parse_args()
    fixed = {q["id"]: q for q in read_jsonl(a.fixed)}
    ids = [q["id"] for q in read_jsonl(a.questions)]
    sides = {
        "mcp": (calls(a.mcp_log), {x["id"]: x for x in read_jsonl(a.mcp_answers)}),
        "grep": (calls(a.grep_log), {x["id"]: x for x in read_jsonl(a.grep_answers)}),
    }
    totals = {s: [0, 0, 0] for s in sides}
    print(f"{'question':10} {'kind':6} | {'mcp calls/tokens/right':>22} | {'grep calls/tokens/right':>23}")
    for i in ids:
        row = [f"{i:10} {fixed[i]['kind']:6}"]
        for s, (per, answers) in sides.items():
            n, t, ok = len(per.get(i, [])), sum(per.get(i, [])), right(fixed[i], answers.get(i))
            totals[s][0] += n
            totals[s][1] += t
            totals[s][2] += ok
            row.append(f"{n:>8} {t:>7} {'yes' if ok else 'NO':>5}")
        print(" | ".join(row))
    print("-" * 64)
    for s, (n, t, ok) in totals.items():
        print(f"{s:5} calls {n:3}  tokens {t:6,}  right {ok}/{len(ids)}")
    m, g = totals["mcp"][1], totals["grep"][1]
    print(f"tokens MCP / grep: {m / g:.2f} (target <= 0.50)" if g else "no grep tokens")
    if a.tool_list_tokens:
        print(f"the tool list ({a.tool_list_tokens:,} tokens) comes on top of every MCP request")


if __name__ == "__main__":
    main()
