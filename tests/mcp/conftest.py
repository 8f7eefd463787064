"""End-to-end fixtures: the real `vibe-analyzer` binary indexes the fixture
projects into a real OpenSearch (index prefix `mcptest`), then `serve start`
runs the MCP gateway that the tests talk to with the Python MCP SDK.

Environment: VIBE_BIN (a built vibe-analyzer; default: cargo build),
VIBE_OPENSEARCH_URL (default http://127.0.0.1:9200), VIBE_TEST_PREFIX.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
OPENSEARCH = os.environ.get("VIBE_OPENSEARCH_URL", "http://127.0.0.1:9200").rstrip("/")
PREFIX = os.environ.get("VIBE_TEST_PREFIX", "mcptest")


# One call of every read-only tool over the fixture projects.
EVERY_TOOL_CALL = {
    "get_file_content": {"path": "calculator.rs"},
    "get_file_ast": {"path": "calculator.rs"},
    "show_projects": {},
    "show_stats": {},
    "show_tree": {"target": "samples"},
    "search_by_code_imports": {"query": "HashMap"},
    "search_by_code_functions": {"query": "multiply"},
    "search_by_code_classes": {"query": "Calculator"},
    "search_by_code_variables": {"query": "MAX_VALUE"},
    "search_code_text": {"query": "multiply"},
    "find_references": {"query": "multiply"},
    "search_documentation": {"query": "Kirikur"},
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def opensearch(method: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(OPENSEARCH + path, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
            return json.loads(text) if text else {}
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return {}
        raise


def wipe(prefix: str = PREFIX) -> None:
    """Deletes every index, alias and stored template of the test prefix."""
    opensearch("DELETE", f"/{prefix}_data_*,{prefix}_meta*?expand_wildcards=all")
    scripts = opensearch("GET", "/_cluster/state/metadata?filter_path=metadata.stored_scripts")
    for sid in scripts.get("metadata", {}).get("stored_scripts", {}):
        if sid.startswith(prefix + "_"):
            opensearch("DELETE", f"/_scripts/{sid}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def binary() -> Path:
    if os.environ.get("VIBE_BIN"):
        return Path(os.environ["VIBE_BIN"])
    subprocess.run(["cargo", "build", "-q", "-p", "vibe-analyzer"], cwd=REPO, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "debug" / "vibe-analyzer"


def write_config(config_dir: Path, port: int) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    config = {
        "version": "0.2.0",
        "opensearch": {"hosts": [OPENSEARCH], "index_prefix": PREFIX},
        # The tests read typed answers; test_client_payload.py checks the default (text alone).
        "mcp": {"host": "127.0.0.1", "port": port, "typed_output": True},
        "ollama": [],
        "sources": [str(FIXTURES / "samples"), str(FIXTURES / "knowledge")],
    }
    (config_dir / "config.json5").write_text(json.dumps(config, indent=2), encoding="utf-8")


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"serve start exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"nothing listens on port {port}")


@dataclass
class Gateway:
    bin: Path
    config_dir: Path
    port: int
    proc: subprocess.Popen

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin), "--config-dir", str(self.config_dir), *args], capture_output=True, text=True, check=check, timeout=300)


def start_server(bin: Path, config_dir: Path, port: int) -> subprocess.Popen:
    log = open(config_dir / "serve.log", "ab")
    env = dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "vibe_gateway=info"))
    proc = subprocess.Popen([str(bin), "--config-dir", str(config_dir), "serve", "start"], stdout=log, stderr=log, env=env)
    wait_for_port(port, proc)
    return proc


@pytest.fixture(scope="session")
def gateway(tmp_path_factory) -> Gateway:
    try:
        opensearch("GET", "/")
    except OSError as e:
        pytest.fail(f"OpenSearch is not running at {OPENSEARCH} ({e}); start it with: bash tests/opensearch/start.sh")
    bin = binary()
    config_dir = tmp_path_factory.mktemp("vibe-config")
    port = free_port()
    write_config(config_dir, port)
    wipe()
    subprocess.run([str(bin), "--config-dir", str(config_dir), "scan", "index", "--no-llm"], check=True, capture_output=True, timeout=600)
    proc = start_server(bin, config_dir, port)
    gw = Gateway(bin=bin, config_dir=config_dir, port=port, proc=proc)
    yield gw
    gw.cli("serve", "stop", check=False)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    if os.environ.get("VIBE_TEST_KEEP") != "1":
        wipe()
    if proc.returncode not in (0, None):
        print((config_dir / "serve.log").read_text(errors="replace")[-3000:], file=sys.stderr)


@contextlib.contextmanager
def serve_sources(config_dir: Path, prefix: str, sources: list[Path]):
    """A gateway of its own: `sources` indexed under `prefix` (wiped before
    and after) and served from `config_dir`, for a module's own tree."""
    config_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    config = {
        "version": "0.2.0",
        "opensearch": {"hosts": [OPENSEARCH], "index_prefix": prefix},
        # The tests read typed answers; test_client_payload.py checks the default (text alone).
        "mcp": {"host": "127.0.0.1", "port": port, "typed_output": True},
        "ollama": [],
        "sources": [str(s) for s in sources],
    }
    (config_dir / "config.json5").write_text(json.dumps(config), encoding="utf-8")
    wipe(prefix)
    bin = binary()
    subprocess.run([str(bin), "--config-dir", str(config_dir), "scan", "index", "--no-llm"], check=True, capture_output=True, timeout=600)
    proc = start_server(bin, config_dir, port)
    gw = Gateway(bin=bin, config_dir=config_dir, port=port, proc=proc)
    try:
        yield gw
    finally:
        gw.cli("serve", "stop", check=False)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        wipe(prefix)


@contextlib.contextmanager
def serve_files(root: Path, prefix: str, project: str, files: dict[str, str]):
    """A gateway over one project, `root/project`, holding `files`
    (relative path -> text), served as [`serve_sources`] does."""
    proj = root / project
    for rel, text in files.items():
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text, encoding="utf-8")
    with serve_sources(root / "config", prefix, [proj]) as gw:
        yield gw


def npx() -> str | None:
    return shutil.which("npx")


async def call_text(url: str, tool: str, args: dict):
    """One tool call through the MCP SDK: the answer's text (what a model
    reads) and its structuredContent; a tool error fails the test."""
    from mcp import Client

    async with Client(url) as c:
        r = await c.call_tool(tool, args)
    assert not r.is_error, r
    return "".join(getattr(c, "text", "") for c in r.content), r.structured_content
