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
(benchlib.stdlib_copy, i.e. bench/lib.sh's: without site-packages and
__pycache__) and a config under --work (default $TMPDIR/vibe-bench-load, kept
for incremental reruns; --wipe removes the indices afterwards), index prefix
`benchload`, `vibe-analyzer scan index --no-llm` (release build, or $VIBE_BIN
as it is), `serve start` on a free loopback port, and `serve stop` at the
end. OpenSearch must run (bash tests/opensearch/start.sh).
Needs the `mcp` package (tests/mcp/.venv, see tests/mcp/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import McpCall, McpSession, logger, opensearch_url, os_json, pct, quiet_mcp_logs, stdlib_copy

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

    def add(self, who: str, c: McpCall) -> None:
        """A call's latency (when it was answered) and its error."""
        if c.error is None or c.error.startswith("isError"):
            self.latencies.setdefault(c.tool, []).append(c.latency_ms / 1000)
        if c.error is not None:
            self.errors.append(f"{who} {c.tool}: {c.error}"[:300])


log = logger("load")


def ms(values: list[float], p: float) -> float:
    """The p-th percentile of latencies in seconds, in ms."""
    return pct(values, p) * 1000


def check_loopback(url: str) -> None:
    host = urllib.parse.urlparse(url).hostname or ""
    if host not in LOOPBACK:
        sys.exit(f"refusing {url}: the load test only runs against loopback (127.0.0.1, localhost, ::1)")


async def bounded_call(mcp: McpSession, tool: str, args: dict, parse: bool = False) -> McpCall:
    """benchlib's measured call, given up after CALL_TIMEOUT (an error)."""
    try:
        return await asyncio.wait_for(mcp.call(tool, args, parse=parse), CALL_TIMEOUT)
    except asyncio.TimeoutError:
        c = McpCall(tool, args)
        c.error = f"TimeoutError: no answer in {CALL_TIMEOUT:.0f} s"
        return c


async def worker(n: int, url: str, token: str | None, deadline: float, stats: Stats, started: asyncio.Event) -> None:
    rng = random.Random(n)
    try:
        async with McpSession(url, CALL_TIMEOUT, token) as mcp:
            started.set()
            while time.monotonic() < deadline:
                tool, args = rng.choice(WORKLOAD)
                stats.add(f"client {n}", await bounded_call(mcp, tool, args))
    except Exception as e:  # noqa: BLE001 - every failure counts
        stats.errors.append(f"client {n} session: {type(e).__name__}: {e}"[:300])


async def syncer(url: str, token: str | None, start: float, duration: float, count: int, stats: Stats) -> None:
    async with McpSession(url, CALL_TIMEOUT, token) as mcp:
        for i in range(count):
            at = start + duration * (i + 1) / (count + 1)
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            c = await bounded_call(mcp, "admin_sync", {}, parse=True)
            stats.add("sync", c)
            if c.error is None or c.error.startswith("isError"):
                result = (c.structured or {}).get("result", "?")
                stats.syncs.append(f"t={time.monotonic() - start:.1f}s {result}")


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
        "p50_ms": round(ms(every, 50), 2),
        "p90_ms": round(ms(every, 90), 2),
        "p99_ms": round(ms(every, 99), 2),
        "max_ms": round(max(every) * 1000, 2) if every else None,
        "mean_ms": round(statistics.fmean(every) * 1000, 2) if every else None,
        "errors": len(stats.errors),
        "admin_sync": stats.syncs,
        "per_tool": {
            tool: {"n": len(v), "p50_ms": round(ms(v, 50), 2), "p99_ms": round(ms(v, 99), 2)}
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


def wipe() -> None:
    try:
        os_json(opensearch_url(), f"/{PREFIX}_data_*,{PREFIX}_meta*?expand_wildcards=all", method="DELETE", timeout=60)
    except OSError as e:
        log(f"wipe: {e}")


def release_binary() -> Path:
    """$VIBE_BIN as it is, else a fresh release build."""
    if os.environ.get("VIBE_BIN"):
        return Path(os.environ["VIBE_BIN"])
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "vibe-analyzer"], cwd=REPO, check=True)
    return Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release" / "vibe-analyzer"


def prepare(work: Path) -> tuple[Path, Path, int]:
    binary = release_binary()
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
    log(f"indexing {tree} ({files} files) with --no-llm ...")
    t = time.monotonic()
    out = subprocess.run([str(binary), "--config-dir", str(work), "scan", "index", "--no-llm"], capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        sys.exit(f"scan index failed:\n{out.stderr[-3000:]}")
    log(f"  {out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ''} ({time.monotonic() - t:.0f} s)")
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
        nodes = os_json(opensearch_url(), "/_nodes/_local/stats/process", timeout=10)["nodes"]
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
    quiet_mcp_logs()

    server = None
    binary = work = None
    url = args.url
    if url is None:
        binary, work, port = prepare(args.work)
        serve_log = open(work / "serve.log", "wb")
        env = dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "warn"))
        if args.token:
            env["VIBE_MCP_TOKEN"] = args.token
        server = subprocess.Popen([str(binary), "--config-dir", str(work), "serve", "start"], stdout=serve_log, stderr=serve_log, env=env)
        wait_port(port, server)
        url = f"http://127.0.0.1:{port}/mcp"
    check_loopback(url)
    try:
        log(f"{args.clients} clients x {args.duration:.0f} s against {url}, admin_sync x{args.syncs} ...")
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
