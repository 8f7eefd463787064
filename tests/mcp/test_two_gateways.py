"""Two gateways, one address (issue 71): two `serve start` processes over the
same index behind a small round-robin proxy. Clients of 2026-07-28 keep no
session, so each of their calls may go to either process: every call must
answer, and each client's calls reach both.

The proxy is a plain HTTP forwarder: POST bodies and the MCP headers go to
the next process in turn, the answer (one JSON body) comes back; it knows
nothing of MCP. `VIBE_TWO_GATEWAYS_CALLS` sets the calls per client (32
clients; default 32, so 1,024 calls).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from mcp import Client

from conftest import EVERY_TOOL_CALL, free_port, start_server, write_config
from relay import forward, serving

CLIENTS = 32
CALLS = int(os.environ.get("VIBE_TWO_GATEWAYS_CALLS", "32"))
FORWARDED = ("content-type", "accept", "authorization", "mcp-protocol-version", "mcp-method", "mcp-name")


class RoundRobin(ThreadingHTTPServer):
    """Forwards each POST to the next backend; counts what each one served."""

    daemon_threads = True
    # 32 clients connect at once (the default backlog of 5 resets some).
    request_queue_size = 256

    def __init__(self, backends: list[str]):
        self.backends = backends
        self.turn = itertools.cycle(range(len(backends)))
        self.lock = threading.Lock()
        self.served: Counter[int] = Counter()
        self.by_client: dict[str, set[int]] = {}
        super().__init__(("127.0.0.1", 0), Forward)

    def next_backend(self, client: str) -> int:
        with self.lock:
            i = next(self.turn)
            self.served[i] += 1
            self.by_client.setdefault(client, set()).add(i)
            return i


class Forward(BaseHTTPRequestHandler):
    server: RoundRobin

    def do_POST(self):
        client = self.headers.get("x-test-client", "")
        backend = self.server.backends[self.server.next_backend(client)]
        forward(self, backend, {k: v for k, v in self.headers.items() if k.lower() in FORWARDED})

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def proxy(gateway, tmp_path_factory):
    procs = []
    backends = []
    for i in range(2):
        config_dir = tmp_path_factory.mktemp(f"twin{i}")
        port = free_port()
        write_config(config_dir, port)
        procs.append(start_server(gateway.bin, config_dir, port))
        backends.append(f"http://127.0.0.1:{port}")
    try:
        with serving(RoundRobin(backends)) as server:
            yield server
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=15)


async def one_client(url: str, n: int, client_id: str) -> list[str]:
    """`n` calls through the proxy; the failures, as text."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    failures = []
    calls = list(EVERY_TOOL_CALL.items())
    http = httpx2.AsyncClient(headers={"x-test-client": client_id}, timeout=httpx2.Timeout(60, read=300))
    async with Client(streamable_http_client(url, http_client=http), mode="2026-07-28") as client:
        for i in range(n):
            name, args = calls[i % len(calls)]
            try:
                r = await client.call_tool(name, args)
                if r.is_error or not r.content[0].text:
                    failures.append(f"{name}: {r.content}")
            except Exception as e:  # noqa: BLE001 - every failure is counted
                failures.append(f"{name}: {e!r}")
    return failures


@pytest.mark.anyio
async def test_a_stateless_client_is_served_by_either_gateway(proxy):
    url = f"http://127.0.0.1:{proxy.server_address[1]}/mcp"
    results = await asyncio.gather(*(one_client(url, CALLS, f"c{i}") for i in range(CLIENTS)))
    failures = [f for r in results for f in r]
    assert not failures, (len(failures), failures[:5])
    total = sum(proxy.served.values())
    print(f"two gateways: {CLIENTS} clients, {CLIENTS * CALLS} calls, {total} requests, per process {dict(proxy.served)}")
    # The calls, and each call's tools/list (the SDK reads the output schema once).
    assert total >= CLIENTS * CALLS, proxy.served
    assert min(proxy.served.values()) >= total // 2 - 1, proxy.served
    assert all(len(backends) == 2 for backends in proxy.by_client.values()), proxy.by_client
