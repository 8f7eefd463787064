"""Run by test_sdk1.py under the 1.x SDK (tests/mcp/.venv-sdk1): connects to
the URL given, lists the tools and makes each call given as JSON on stdin
({tool: arguments}); prints one JSON object with what it saw."""

import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


async def main(url: str, calls: dict) -> dict:
    async with streamablehttp_client(url) as (read, write, session_id):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = [t.name for t in (await session.list_tools()).tools]
            answers = {}
            for name, args in calls.items():
                r = await session.call_tool(name, args)
                answers[name] = {"is_error": r.isError, "text": r.content[0].text if r.content else ""}
            return {"protocol_version": init.protocolVersion, "server": init.serverInfo.name,
                    "session": bool(session_id()), "tools": tools, "answers": answers}


print(json.dumps(asyncio.run(main(sys.argv[1], json.loads(sys.stdin.read())))))
