"""The README's first session runs as written (issue 59): every `$ vibe-analyzer
...` command of the ```console blocks under "## Use" runs with the build under
test, against the real OpenSearch, in a folder of its own whose
`tests/fixtures` is the repository's, with a config dir of its own on its own
index prefix. Each line the README shows after a command must be printed by it
(stdout and stderr as a terminal shows them), in that order; `…` in a shown line stands for any text,
and lines the README does not show may come between."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

from conftest import OPENSEARCH, REPO, binary, wipe

PREFIX = "readmeuse"


def sessions(readme: str) -> list[tuple[str, list[str]]]:
    """The (command, shown lines) of the console blocks in the Use section."""
    use = readme.split("\n## Use\n", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", use, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
    return steps


def pattern(shown: str) -> re.Pattern[str]:
    return re.compile("^" + ".*".join(re.escape(part) for part in shown.split("…")) + "$")


def missing(shown: list[str], printed: list[str]) -> str | None:
    """The first shown line not printed in order after the ones before it."""
    at = 0
    for line in shown:
        if line.strip() == "…":
            continue
        want = pattern(line.rstrip())
        while at < len(printed) and not want.match(printed[at].rstrip()):
            at += 1
        if at == len(printed):
            return line
        at += 1
    return None


def test_the_use_section_runs_as_shown(tmp_path: Path):
    steps = sessions((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(steps) >= 8 and all(c.startswith("vibe-analyzer ") for c, _ in steps), steps
    work, config = tmp_path / "work", tmp_path / "config"
    (work / "tests").mkdir(parents=True)
    (work / "tests" / "fixtures").symlink_to(REPO / "tests" / "fixtures")
    bin = str(binary())
    env = {**os.environ, "VIBE_OPENSEARCH_URL": OPENSEARCH}
    env.pop("RUST_LOG", None)

    def run(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [bin, "--config-dir", str(config), *args],
            cwd=work,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=600,
        )

    run(["source", "list"])  # writes the default config, then on its own prefix
    text = (config / "config.json5").read_text(encoding="utf-8")
    (config / "config.json5").write_text(text.replace('index_prefix: "vibe"', f'index_prefix: "{PREFIX}"'))
    wipe(PREFIX)
    try:
        for command, shown in steps:
            done = run(shlex.split(command)[1:])
            printed = done.stdout.splitlines()
            assert done.returncode == 0, f"$ {command}\n{done.stdout}"
            line = missing(shown, printed)
            assert line is None, f"$ {command}\nthe README shows {line!r}; printed:\n" + "\n".join(printed)
    finally:
        wipe(PREFIX)
