"""The curl examples of search-templates/README.md run (issue 57 item 7): each
one, as a Dashboards user would copy it, is sent to the real node with the
test prefix in place of `vibe` (the fixture projects indexed by the session's
gateway), and answers without an error; the stored template it names is the
one this build installs (its version is `TEMPLATE_VERSION`)."""

from __future__ import annotations

import json
import re
import shlex
import urllib.error
import urllib.request

import pytest
from conftest import OPENSEARCH, PREFIX, REPO

README = REPO / "search-templates" / "README.md"
VERSION = int(re.search(r"pub const TEMPLATE_VERSION: u64 = (\d+);", (REPO / "common/src/backend/templates.rs").read_text()).group(1))


def examples() -> list[tuple[str, dict]]:
    """(URL path, body) of every `curl -XPOST` of the README's sh blocks."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        words = shlex.split(block)  # a body's JSON may run over several lines
        starts = [i for i, w in enumerate(words) if w == "curl"] + [len(words)]
        for start, end in zip(starts, starts[1:]):
            command = words[start:end]
            url = next(w for w in command if w.startswith("localhost:9200/"))
            body = json.loads(command[command.index("-d") + 1])
            out.append((url.removeprefix("localhost:9200"), body))
    return out


CASES = examples()


def test_the_readme_has_examples():
    assert len(CASES) >= 10, CASES


@pytest.mark.parametrize("path,body", CASES, ids=[b["id"] for _, b in CASES])
def test_an_example_runs_against_the_installed_template(gateway, path, body):
    assert body["id"].endswith(f"_v{VERSION}"), f"{body['id']}: the installed templates are v{VERSION}"
    path = path.replace("/vibe_", f"/{PREFIX}_")
    body = {**body, "id": body["id"].replace("vibe_", f"{PREFIX}_", 1)}
    request = urllib.request.Request(
        OPENSEARCH + path, data=json.dumps(body).encode(), method="POST", headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            answer = json.loads(r.read())
    except urllib.error.HTTPError as e:
        pytest.fail(f"{path} {body['id']}: {e.code} {e.read().decode()[:500]}")
    # A search answers with hits; `_render/template` with the query it renders.
    assert "error" not in answer and ("hits" in answer or "template_output" in answer), answer
