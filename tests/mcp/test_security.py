"""Bearer token and Origin/Host validation, seen by the official Python MCP SDK.

A second `serve start` (same index as the session gateway) runs with
`mcp.token` in its config file; another one gets the token from
`VIBE_MCP_TOKEN`, which wins over the file. Every HTTP status the SDK's
client receives is recorded, so the tests check the exact 401/403 as well as
what the SDK reports.
"""

from __future__ import annotations

import json
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from conftest import free_port, wait_for_port, write_config

TOKEN = "s3cret-token with spaces+/="


def start(bin: Path, config_dir: Path, port: int, *, token: str | None = None, env_token: str | None = None,
          origins: list[str] | None = None) -> subprocess.Popen:
    write_config(config_dir, port)
    path = config_dir / "config.json5"
    config = json.loads(path.read_text(encoding="utf-8"))
    if token is not None:
        config["mcp"]["token"] = token
    if origins:
        config["mcp"]["allowed_origins"] = origins
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    env = dict(os.environ, RUST_LOG="vibe_gateway=info")
    env.pop("VIBE_MCP_TOKEN", None)
    if env_token is not None:
        env["VIBE_MCP_TOKEN"] = env_token
    log = open(config_dir / "serve.log", "ab")
    proc = subprocess.Popen([str(bin), "--config-dir", str(config_dir), "serve", "start"], stdout=log, stderr=log, env=env)
    wait_for_port(port, proc)
    return proc


@contextmanager
def running(*args, **kwargs):
    proc = start(*args, **kwargs)
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=15)


class Recorder:
    """An httpx2 client for the SDK that remembers every response status."""

    def __init__(self, headers: dict[str, str]):
        self.statuses: list[int] = []
        self.bodies: list[str] = []

        async def on_response(response: httpx2.Response) -> None:
            self.statuses.append(response.status_code)
            if response.status_code >= 400:
                await response.aread()
                self.bodies.append(response.text)

        self.client = httpx2.AsyncClient(
            headers=headers,
            timeout=httpx2.Timeout(30, read=300),
            event_hooks={"response": [on_response]},
        )


async def session(url: str, headers: dict[str, str], mode: str = "legacy"):
    """(Recorder, result of a call or the exception the SDK raised)."""
    rec = Recorder(headers)
    try:
        async with Client(streamable_http_client(url, http_client=rec.client), mode=mode) as client:
            tools = (await client.list_tools()).tools
            call = await client.call_tool("search_functions", {"q": "add", "limit": "2"})
            return rec, (tools, call)
    except BaseException as e:  # the SDK raises an ExceptionGroup
        return rec, e


@pytest.fixture(scope="module")
def secured(gateway, tmp_path_factory):
    config_dir = tmp_path_factory.mktemp("secured")
    port = free_port()
    with running(gateway.bin, config_dir, port, token=TOKEN, origins=["https://webui.example"]):
        yield f"http://127.0.0.1:{port}/mcp", config_dir


@pytest.mark.anyio
async def test_without_the_token_nothing_is_served(secured):
    url, _ = secured
    for headers, endpoint in [({}, url), ({}, url + "/samples"), ({"Authorization": "Bearer wrong"}, url),
                              ({"Authorization": f"Bearer {TOKEN}x"}, url + "/samples"),
                              ({"Authorization": f"Basic {TOKEN}"}, url), ({"Authorization": TOKEN}, url)]:
        rec, outcome = await session(endpoint, headers)
        assert isinstance(outcome, BaseException), headers
        assert rec.statuses and set(rec.statuses) == {401}, (headers, rec.statuses)
        assert "Unauthorized" in repr(outcome), repr(outcome)
        assert all("samples" not in b and "search_documentation" not in b for b in rec.bodies), rec.bodies


@pytest.mark.anyio
async def test_with_the_token_everything_works(secured):
    url, config_dir = secured
    rec, outcome = await session(url, {"Authorization": f"Bearer {TOKEN}"})
    assert not isinstance(outcome, BaseException), repr(outcome)
    tools, call = outcome
    assert len(tools) == 13  # the listed tools of gateway/src/registry.rs (search_knowledge is an unlisted alias)
    assert not call.is_error, call.content
    assert call.structured_content["results"], call.structured_content
    assert len(call.structured_content["results"]) <= 2
    assert all(s < 400 for s in rec.statuses), rec.statuses
    log = (config_dir / "serve.log").read_text(errors="replace")
    assert "Resolving 'search_functions' -> 'search_by_code_functions'" in log
    assert "bearer token required" in log


@pytest.mark.anyio
async def test_a_stateless_client_meets_the_same_checks(secured):
    url, _ = secured
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for headers, status in [({}, 401), ({"Authorization": "Bearer wrong"}, 401),
                            ({**auth, "Origin": "https://evil.example"}, 403)]:
        rec, outcome = await session(url, headers, mode="2026-07-28")
        assert isinstance(outcome, BaseException), headers
        assert rec.statuses and set(rec.statuses) == {status}, (headers, rec.statuses)
        assert all("search_documentation" not in b for b in rec.bodies), rec.bodies
    rec, outcome = await session(url, auth, mode="2026-07-28")
    assert not isinstance(outcome, BaseException), repr(outcome)
    assert set(rec.statuses) == {200}, rec.statuses


@pytest.mark.anyio
async def test_origin_checks_with_the_token(secured):
    url, _ = secured
    auth = {"Authorization": f"Bearer {TOKEN}"}
    rec, outcome = await session(url, {**auth, "Origin": "https://evil.example"})
    assert isinstance(outcome, BaseException)
    assert 403 in rec.statuses, rec.statuses
    for origin in ["https://webui.example", "http://localhost:8080", "http://127.0.0.1:3000"]:
        rec, outcome = await session(url, {**auth, "Origin": origin})
        assert not isinstance(outcome, BaseException), (origin, repr(outcome))


@pytest.mark.anyio
async def test_origin_and_host_checks_without_a_token(gateway):
    for headers in [{"Origin": "https://evil.example"}, {"Origin": "http://localhost.evil.example:8080"},
                    {"Host": "evil.example"}]:
        for url in [gateway.url, gateway.url + "/samples"]:
            rec, outcome = await session(url, headers)
            assert isinstance(outcome, BaseException), (url, headers)
            assert 403 in rec.statuses, (url, headers, rec.statuses)
    rec, outcome = await session(gateway.url, {"Origin": "http://localhost:6274"})
    assert not isinstance(outcome, BaseException), repr(outcome)


@pytest.mark.anyio
async def test_the_environment_variable_wins(gateway, tmp_path):
    port = free_port()
    with running(gateway.bin, tmp_path / "env", port, token="file-token", env_token="env-token"):
        url = f"http://127.0.0.1:{port}/mcp"
        rec, outcome = await session(url, {"Authorization": "Bearer file-token"})
        assert isinstance(outcome, BaseException) and 401 in rec.statuses
        rec, outcome = await session(url, {"Authorization": "Bearer env-token"})
        assert not isinstance(outcome, BaseException), repr(outcome)
