#!/usr/bin/env python3
"""Gateway load benchmark: N concurrent MCP clients (the official Python SDK,
Streamable HTTP) for D seconds against the indexed Python standard library,
with `admin_sync` triggered twice during the run (the real incremental
`scan index` runs in the background while the clients query). Reports
requests per second, p50/p90/p99/max latency overall and per tool, and the
error count (exceptions and `isError` results), which must be 0.

A benchmark, not a test. Bounded and loopback only: at most 256 clients, at
most 600 s, every call times out after 30 s, and only 127.0.0.1 / localhost
/ ::1 URLs are accepted.

    tests/mcp/.venv/bin/python bench/load_test.py [--clients 32] [--duration 60] [--syncs 2]
    tests/mcp/.venv/bin/python bench/load_test.py --url http://127.0.0.1:9020/mcp [--token T]

Without --url it prepares everything itself: a copy of the standard library
(without site-packages and __pycache__) and a config under --work (default
$TMPDIR/vibe-bench-load, kept for incremental reruns; --wipe removes the
indices afterwards), index prefix `benchload`, `vibe-analyzer scan index
--no-llm` (release build), `serve start` on a free loopback port, and
`serve stop` at the end. OpenSearch must run (bash tests/opensearch/start.sh).
Needs the `mcp` package (tests/mcp/.venv, see tests/mcp/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

REPO = Path(__file__).resolve().parents[1]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_CLIENTS = 256
MAX_DURATION = 600.0
CALL_TIMEOUT = 30.0
PREFIX = "benchload"

# What small models ask about the standard library, in the forms they use
# (canonical names, aliases, lenient arguments).
WORKLOAD: list[tuple[str, dict]] = [
    ("search_by_code_functions", {"query": "urlopen"}),
    ("search_by_code_functions", {"query": "dumps", "limit": 5}),
    ("search_functions", {"q": "join", "limit": "3"}),
    ("search_by_code_functions", {"query": "parse_args", "target": "python-stdlib"}),
    ("search_by_code_classes", {"query": "ThreadPoolExecutor"}),
    ("find_class", {"name": "HTTPServer"}),
    ("search_by_code_classes", {"query": "Decimal", "limit": 10}),
    ("search_by_code_imports", {"query": "collections"}),
    ("list_imports", {"keyword": "socket", "limit": "all"}),
    ("search_by_code_variables", {"query": "DEFAULT_BUFFER_SIZE"}),
    ("search_by_code_variables", {"query": "MAXSIZE"}),
    ("search_documentation", {"query": "logging configuration"}),
    ("search_documentation", {"query": "Как настроить логирование?"}),
    ("search_knowledge", {"query": "asyncio event loop"}),
    ("get_file_content", {"path": "json/__init__.py", "start_line": 1, "end_line": 40}),
    ("read_file", {"file_path": "collections/abc.py"}),
    ("get_file_ast", {"path": "argparse.py"}),
    ("show_projects", {}),
    ("show_stats", {"target": "python-stdlib"}),
]


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    syncs: list[str] = field(default_factory=list)

    def add(self, tool: str, seconds: float) -> None:
        self.latencies.setdefault(tool, []).append(seconds)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k] * 1000


def check_loopback(url: str) -> None:
    host = urllib.parse.urlparse(url).hostname or ""
    if host not in LOOPBACK:
        sys.exit(f"refusing {url}: the load test only runs against loopback (127.0.0.1, localhost, ::1)")


def http_client(token: str | None) -> httpx2.AsyncClient:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(CALL_TIMEOUT))


async def worker(n: int, url: str, token: str | None, deadline: float, stats: Stats, started: asyncio.Event) -> None:
    rng = random.Random(n)
    try:
        async with Client(streamable_http_client(url, http_client=http_client(token)), mode="legacy") as client:
            started.set()
            while time.monotonic() < deadline:
                tool, args = rng.choice(WORKLOAD)
                t = time.perf_counter()
                try:
                    r = await asyncio.wait_for(client.call_tool(tool, args), CALL_TIMEOUT)
                except Exception as e:  # noqa: BLE001 - every failure counts
                    stats.errors.append(f"client {n} {tool}: {type(e).__name__}: {e}"[:300])
                    continue
                stats.add(tool, time.perf_counter() - t)
                if r.is_error:
                    stats.errors.append(f"client {n} {tool}: isError: {r.content[0].text[:200] if r.content else ''}")
    except Exception as e:  # noqa: BLE001
        stats.errors.append(f"client {n} session: {type(e).__name__}: {e}"[:300])


async def syncer(url: str, token: str | None, start: float, duration: float, count: int, stats: Stats) -> None:
    async with Client(streamable_http_client(url, http_client=http_client(token)), mode="legacy") as client:
        for i in range(count):
            at = start + duration * (i + 1) / (count + 1)
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            t = time.perf_counter()
            try:
                r = await asyncio.wait_for(client.call_tool("admin_sync", {}), CALL_TIMEOUT)
            except Exception as e:  # noqa: BLE001
                stats.errors.append(f"admin_sync: {type(e).__name__}: {e}"[:300])
                continue
            stats.add("admin_sync", time.perf_counter() - t)
            result = (r.structured_content or {}).get("result", "?")
            stats.syncs.append(f"t={time.monotonic() - start:.1f}s {result}")
            if r.is_error:
                stats.errors.append(f"admin_sync: isError: {r.content[0].text[:200]}")


async def run(url: str, token: str | None, clients: int, duration: float, syncs: int) -> dict:
    stats = Stats()
    start = time.monotonic()
    deadline = start + duration
    events = [asyncio.Event() for _ in range(clients)]
    tasks = [asyncio.create_task(worker(i, url, token, deadline, stats, events[i])) for i in range(clients)]
    tasks.append(asyncio.create_task(syncer(url, token, start, duration, syncs, stats)))
    await asyncio.wait_for(asyncio.gather(*tasks), duration + 4 * CALL_TIMEOUT)
    elapsed = time.monotonic() - start
    every = [x for v in stats.latencies.values() for x in v]
    summary = {
        "clients": clients,
        "duration_s": round(elapsed, 1),
        "requests": len(every),
        "req_per_s": round(len(every) / elapsed, 1),
        "p50_ms": round(pct(every, 50), 2),
        "p90_ms": round(pct(every, 90), 2),
        "p99_ms": round(pct(every, 99), 2),
        "max_ms": round(max(every) * 1000, 2) if every else None,
        "mean_ms": round(statistics.fmean(every) * 1000, 2) if every else None,
        "errors": len(stats.errors),
        "admin_sync": stats.syncs,
        "per_tool": {
            tool: {"n": len(v), "p50_ms": round(pct(v, 50), 2), "p99_ms": round(pct(v, 99), 2)}
            for tool, v in sorted(stats.latencies.items())
        },
    }
    if stats.errors:
        summary["first_errors"] = stats.errors[:10]
    return summary


# ---------------------------------------------------------------------------
# Setup without --url
# ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stdlib_copy(dst: Path) -> Path:
    if dst.is_dir():
        return dst
    import sysconfig

    src = Path(sysconfig.get_paths()["stdlib"])
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(src, tmp, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc"), symlinks=True)
    tmp.rename(dst)
    return dst


def opensearch_url() -> str:
    return os.environ.get("VIBE_OPENSEARCH_URL", "http://127.0.0.1:9200").rstrip("/")


def wipe() -> None:
    req = urllib.request.Request(f"{opensearch_url()}/{PREFIX}_data_*,{PREFIX}_meta*?expand_wildcards=all", method="DELETE")
    try:
        urllib.request.urlopen(req, timeout=60).read()
    except OSError as e:
        print(f"wipe: {e}", file=sys.stderr)


def prepare(work: Path) -> tuple[Path, Path, int]:
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "vibe-analyzer"], cwd=REPO, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    binary = target / "release" / "vibe-analyzer"
    work.mkdir(parents=True, exist_ok=True)
    tree = stdlib_copy(work / "python-stdlib")
    port = free_port()
    config = {
        "version": "0.2.0",
        "opensearch": {"hosts": [opensearch_url()], "index_prefix": PREFIX},
        "mcp": {"host": "127.0.0.1", "port": port},
        "ollama": [],
        "sources": [str(tree)],
    }
    (work / "config.json5").write_text(json.dumps(config, indent=2), encoding="utf-8")
    files = sum(1 for _ in tree.rglob("*") if _.is_file())
    print(f"indexing {tree} ({files} files) with --no-llm ...", file=sys.stderr)
    t = time.monotonic()
    out = subprocess.run([str(binary), "--config-dir", str(work), "scan", "index", "--no-llm"], capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        sys.exit(f"scan index failed:\n{out.stderr[-3000:]}")
    print(f"  {out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ''} ({time.monotonic() - t:.0f} s)", file=sys.stderr)
    return binary, work, port


def wait_port(port: int, proc: subprocess.Popen) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            sys.exit(f"serve start exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"nothing listens on {port}")


def proc_cpu(pid: int) -> tuple[float, float]:
    """(own CPU seconds, CPU seconds of its waited-for children) of a local process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return (float("nan"), float("nan"))
    tick = os.sysconf("SC_CLK_TCK")
    return ((int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick)


def opensearch_cpu() -> float:
    """CPU seconds used so far by the local OpenSearch node (its own process stats)."""
    try:
        with urllib.request.urlopen(f"{opensearch_url()}/_nodes/_local/stats/process", timeout=10) as r:
            nodes = json.loads(r.read())["nodes"]
        return sum(n["process"]["cpu"]["total_in_millis"] for n in nodes.values()) / 1000
    except (OSError, KeyError, ValueError):
        return float("nan")


def client_cpu() -> float:
    import resource

    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="an already running gateway (loopback only)")
    ap.add_argument("--token", default=os.environ.get("VIBE_MCP_TOKEN"), help="bearer token (default: $VIBE_MCP_TOKEN)")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--syncs", type=int, default=2, help="admin_sync calls, evenly spread over the run")
    ap.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "vibe-bench-load")
    ap.add_argument("--wipe", action="store_true", help="delete the benchmark indices afterwards")
    ap.add_argument("--json", type=Path, help="also write the summary here")
    args = ap.parse_args()
    if not 1 <= args.clients <= MAX_CLIENTS:
        sys.exit(f"--clients must be 1..{MAX_CLIENTS}")
    if not 1 <= args.duration <= MAX_DURATION:
        sys.exit(f"--duration must be 1..{MAX_DURATION:.0f} s")
    logging.getLogger("mcp").setLevel(logging.ERROR)
    logging.getLogger("client").setLevel(logging.ERROR)  # the SDK warns when it cannot validate an alias name
    logging.getLogger("httpx2").setLevel(logging.WARNING)

    server = None
    binary = work = None
    url = args.url
    if url is None:
        binary, work, port = prepare(args.work)
        log = open(work / "serve.log", "wb")
        env = dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "warn"))
        if args.token:
            env["VIBE_MCP_TOKEN"] = args.token
        server = subprocess.Popen([str(binary), "--config-dir", str(work), "serve", "start"], stdout=log, stderr=log, env=env)
        wait_port(port, server)
        url = f"http://127.0.0.1:{port}/mcp"
    check_loopback(url)
    try:
        print(f"{args.clients} clients x {args.duration:.0f} s against {url}, admin_sync x{args.syncs} ...", file=sys.stderr)
        before = (proc_cpu(server.pid) if server else None, opensearch_cpu(), client_cpu())
        summary = asyncio.run(run(url, args.token, args.clients, args.duration, args.syncs))
        after = (proc_cpu(server.pid) if server else None, opensearch_cpu(), client_cpu())
        cpu = {"opensearch": after[1] - before[1], "clients": after[2] - before[2]}
        if server is not None:
            summary["server_alive_after"] = server.poll() is None
            cpu["gateway"] = after[0][0] - before[0][0]
            cpu["admin_sync_runs"] = after[0][1] - before[0][1]
        summary["cpu_seconds"] = {k: round(v, 1) for k, v in cpu.items()}
        summary["cores"] = os.cpu_count()
    finally:
        if server is not None:
            subprocess.run([str(binary), "--config-dir", str(work), "serve", "stop"], capture_output=True, timeout=60)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
            if args.wipe:
                wipe()
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    print(
        f"\n{summary['requests']} requests in {summary['duration_s']} s: {summary['req_per_s']} req/s, "
        f"p50 {summary['p50_ms']} ms, p99 {summary['p99_ms']} ms, errors {summary['errors']}",
        file=sys.stderr,
    )
    sys.exit(1 if summary["errors"] else 0)


if __name__ == "__main__":
    main()
