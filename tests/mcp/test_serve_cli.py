"""`serve start|status|stop` of the real binary, on a second config directory."""

import shutil
import subprocess

import pytest

from conftest import free_port, start_server, write_config


def test_serve_status_and_stop(gateway, tmp_path):
    config_dir = tmp_path / "second"
    port = free_port()
    write_config(config_dir, port)
    run = lambda *a: subprocess.run([str(gateway.bin), "--config-dir", str(config_dir), *a], capture_output=True, text=True, timeout=60)

    # Exit codes as LSB init scripts use them: 0 running, 3 not running.
    down = run("serve", "status")
    assert (down.returncode, down.stdout.strip(), down.stderr) == (3, "not running", "")
    proc = start_server(gateway.bin, config_dir, port)
    try:
        status = run("serve", "status")
        assert status.returncode == 0 and f"running (pid {proc.pid}) on http://127.0.0.1:{port}" in status.stdout
        again = run("serve", "start")
        assert again.returncode == 1 and "already running" in again.stderr
        stop = run("serve", "stop")
        assert stop.returncode == 0 and f"stopped (pid {proc.pid})" in stop.stdout
        assert proc.wait(timeout=10) == 0
        down = run("serve", "status")
        assert (down.returncode, down.stdout.strip()) == (3, "not running")
        assert not (config_dir / "serve.pid").exists()
        assert run("serve", "stop").stdout.strip() == "not running"
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("typed", ["", "?typed_output=false"], ids=["typed", "text-only"])
def test_inspector_cli(gateway, typed):
    npx = shutil.which("npx")
    if not npx:
        pytest.skip("npx is not installed")
    base = [npx, "-y", "@modelcontextprotocol/inspector", "--cli", gateway.url + typed, "--transport", "http"]
    try:
        listed = subprocess.run([*base, "--method", "tools/list"], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip("the inspector could not be fetched in time")
    if listed.returncode != 0 and "npm" in listed.stderr and "ERR" in listed.stderr:
        pytest.skip(f"the inspector is not available: {listed.stderr[-300:]}")
    assert listed.returncode == 0, listed.stderr
    assert '"search_documentation"' in listed.stdout
    called = subprocess.run(
        [*base, "--method", "tools/call", "--tool-name", "search_documentation", "--tool-arg", "query=兹兹科什是谁"],
        capture_output=True, text=True, timeout=300,
    )
    assert called.returncode == 0, called.stderr
    assert "legends/zizikosh.zh.md" in called.stdout


def test_serve_start_names_projects_indexed_by_another_version(tmp_path):
    """After an upgrade the server answers from what the older binary
    indexed until `scan index` rebuilds it: `serve start` says which."""
    from conftest import PREFIX, opensearch, serve_files

    prefix = PREFIX + "fmt"
    with serve_files(tmp_path, prefix, "proj", {"a.py": "def f():\n    return 1\n"}) as gw:
        gw.cli("serve", "stop")
        gw.proc.wait(timeout=15)
        log = gw.config_dir / "serve.log"
        assert "indexed by another version" not in log.read_text(), "a current project is not named"
        hits = opensearch("GET", f"/{prefix}_meta/_search")["hits"]["hits"]
        assert len(hits) == 1, hits
        opensearch("POST", f"/{prefix}_meta/_update/{hits[0]['_id']}?refresh=true", {"doc": {"index_format": "older"}})
        log.write_text("")
        proc = start_server(gw.bin, gw.config_dir, gw.port)
        try:
            gw.cli("serve", "stop")
            proc.wait(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
        said = log.read_text()
        assert "1 project(s) were indexed by another version" in said and str(tmp_path / "proj") in said, said
        assert "scan index" in said, said
