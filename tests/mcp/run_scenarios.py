"""Run every scenario against a running gateway and print the failures.

    .venv/bin/python run_scenarios.py http://127.0.0.1:9020/mcp [tool ...]
"""

import asyncio
import json
import sys

from mcp import Client

from scenario_check import check, load_scenarios


async def main(url: str, only: list[str]) -> int:
    failed = 0
    async with Client(url) as client:
        for tool, i, case in load_scenarios():
            if only and tool not in only:
                continue
            r = await client.call_tool(tool, case["args"])
            answer = r.structured_content if r.structured_content is not None else r.content[0].text
            problems = check(case, answer, bool(r.is_error))
            status = "ok  " if not problems else "FAIL"
            print(f"{status} {tool}#{i} {json.dumps(case['args'], ensure_ascii=False)}")
            for p in problems:
                print(f"       {p}")
            failed += bool(problems)
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2:])))
