"""One call answers a detail (issue 68), second pass, end to end: the real
binary indexes a temporary project into the real OpenSearch (own prefix and
config dir), `serve start` serves it, and the Python MCP SDK asks as an
assistant does.

* An option declared without a value (`lingerMs?: number`) found by a
  question shows the line that gives it its default (`opts?.lingerMs ?? 5`)
  in the file where it is applied; Python's `kwargs.get("timeout", 30)` too.
* A function found by a question that calls a short function of its file
  whose name holds a word of the question the caller's does not
  (`normalizeUrl` filtering with `isTrackingParam`, for "strip tracking
  parameters") shows that callee whole, right under it.
* A text search over a file with more matching lines than it shows keeps
  the lines of code before the comments that repeat the name.
* A text search's matching lines that read a named value defined elsewhere
  show its definition (`value queue/settings.py:4:
  DEFAULT_RETRY_BASE_SECONDS = 5`); one a shown line defines is not said
  again.
* A question's result that is not the best shows a function of at most
  four lines whole, with the values it reads.
"""

from __future__ import annotations

import pytest
from conftest import call_text as call, serve_files

PREFIX = "detailanswers"

TYPES_TS = """export interface ProducerOptions {
  /** Time to wait for more messages before sending a partial batch (ms). */
  lingerMs?: number
  /** Messages sent in one request at most. */
  maxBatchMessages?: number
}
"""

PRODUCER_TS = """import { ProducerOptions } from "./types"

export class BatchProducer {
  private readonly pending: string[] = []

  constructor(opts?: ProducerOptions) {
    const lingerMs = opts?.lingerMs ?? 5
    this.maxBatch = opts?.maxBatchMessages || 100
    this.timer = setInterval(() => this.flush(), lingerMs)
  }

  flush(): void {
    this.pending.length = 0
  }
}
"""

URL_TS = """const TRACKING = new Set(["fbclid", "gclid"])

export function normalizeUrl(url: string): string {
  const parsed = new URL(url)
  let normalized = `${parsed.protocol}//${parsed.hostname.toLowerCase()}`
  const params = new URLSearchParams(parsed.search)
  const names = Array.from(params.keys())
    .filter((name) => !isTrackingParam(name))
    .sort()
  const kept = new URLSearchParams()
  for (const name of names) {
    kept.set(name, params.get(name) ?? "")
  }
  const query = kept.toString()
  if (parsed.pathname !== "/") {
    normalized += parsed.pathname
  }
  if (query) {
    normalized += `?${query}`
  }
  return normalized
}

function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase()
  if (TRACKING.has(lower)) {
    return true
  }
  return lower.startsWith("utm_")
}
"""

CLIENT_PY = '''"""The HTTP client of the uploader."""


def post_upload(session, url, body, **kwargs):
    wait = kwargs.get("timeout_seconds", 30)
    return session.post(url, data=body, timeout=wait)
'''

SETTINGS_PY = '''from dataclasses import dataclass


@dataclass
class ClientSettings:
    """How the upload client talks to the server."""

    # Seconds a request to the upload server may take.
    timeout_seconds: float
'''

INDEX_JS = "\n".join(
    [
        "/**",
        " * Index options: expireAfterSeconds removes a document after that many seconds.",
        " * expireAfterSeconds must be a whole number.",
        " * @param options - expireAfterSeconds, unique, sparse",
        " * @throws when expireAfterSeconds is negative",
        " * (expireAfterSeconds on _id is refused too)",
        " */",
        "function checkIndexOptions(options) {",
        "  if (options.expireAfterSeconds < 0 || options.expireAfterSeconds > 2147483647) {",
        "    throw new Error('expireAfterSeconds out of range')",
        "  }",
        "}",
        "",
    ]
)


SETTINGS_QUEUE_PY = '''"""Queue settings."""

# Seconds before the first retry; doubled on each attempt.
DEFAULT_RETRY_BASE_SECONDS = 5
'''

WORKER_PY = '''from queue_settings import DEFAULT_RETRY_BASE_SECONDS


class Worker:
    def __init__(self, db, retry_base_seconds: int = DEFAULT_RETRY_BASE_SECONDS):
        self.db = db
        self.retry_base_seconds = retry_base_seconds
'''

MODELS_PY = '''"""Job states and retry tunables."""

BACKOFF_BASE = 2
BACKOFF_CAP = 60


def backoff_seconds(attempts: int) -> float:
    """Delay before the next run after `attempts` failed executions."""
    return float(min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempts - 1)))
'''

RETRY_PY = '''"""Retrying failed jobs."""


def retry_failed_job(db, job, error):
    """Record a failed job's error and schedule its next retry attempt after a delay."""
    job.attempts += 1
    job.error = str(error)
    if job.attempts >= job.max_attempts:
        job.state = "failed"
        return
    job.state = "queued"
    job.run_after = db.now() + job.retry_delay
    db.save(job)
'''


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    files = {
        "src/types.ts": TYPES_TS,
        "src/producer.ts": PRODUCER_TS,
        "src/url.ts": URL_TS,
        "py/client.py": CLIENT_PY,
        "py/settings.py": SETTINGS_PY,
        "js/index.js": INDEX_JS,
        "queue/settings.py": SETTINGS_QUEUE_PY,
        "queue/worker.py": WORKER_PY,
        "queue/models.py": MODELS_PY,
        "queue/retry.py": RETRY_PY,
    }
    with serve_files(tmp_path_factory.mktemp("detailanswers"), PREFIX, "proj", files) as gw:
        yield gw.url


@pytest.mark.anyio
async def test_an_option_without_a_value_shows_where_its_default_is_given(served):
    question = {"query": "producer linger time before sending a partial batch", "target": "proj"}
    text, answer = await call(served, "search_by_code_variables", question)
    m = answer["results"][0]["matches"][0]
    assert (answer["results"][0]["path"], m["name"]) == ("src/types.ts", "lingerMs"), text
    assert "\n  value src/producer.ts:7: const lingerMs = opts?.lingerMs ?? 5" in text, text
    assert m["values"] == [
        {"name": "lingerMs", "text": "const lingerMs = opts?.lingerMs ?? 5", "path": "src/producer.ts", "line": 7}
    ], m


@pytest.mark.anyio
async def test_a_python_field_shows_the_default_a_keyword_argument_gets(served):
    question = {"query": "timeout_seconds of a request to the upload server", "target": "proj"}
    text, answer = await call(served, "search_by_code_variables", question)
    m = answer["results"][0]["matches"][0]
    assert (answer["results"][0]["path"], m["name"]) == ("py/settings.py", "timeout_seconds"), text
    assert '\n  value py/client.py:5: wait = kwargs.get("timeout_seconds", 30)' in text, text


@pytest.mark.anyio
async def test_a_callee_named_by_the_question_is_shown_under_its_caller(served):
    question = {"query": "strip tracking query parameters from a URL", "target": "proj"}
    text, answer = await call(served, "search_by_code_functions", question)
    matches = answer["results"][0]["matches"]
    assert matches[0]["name"] == "normalizeUrl", text
    callee = matches[1]
    assert (callee["name"], callee.get("called_by")) == ("isTrackingParam", "normalizeUrl"), text
    assert 'return lower.startsWith("utm_")' in callee["code"], callee


@pytest.mark.anyio
async def test_a_text_search_keeps_lines_of_code_before_comments(served):
    args = {"query": "expireAfterSeconds", "target": "proj", "path": "js/"}
    text, answer = await call(served, "search_code_text", args)
    lines = [m["line"] for m in answer["results"][0]["matches"]]
    # Seven lines match; five are shown: the two of code and the first three
    # comments, in line order (grep's first five would be comments only).
    assert lines == [2, 3, 4, 9, 10], text
    assert answer["results"][0]["more_matches"] == 2, text


@pytest.mark.anyio
async def test_a_text_search_shows_the_values_its_lines_read(served):
    args = {"query": "retry_base_seconds", "target": "proj", "path": "queue/"}
    text, answer = await call(served, "search_code_text", args)
    worker = answer["results"][0]
    assert worker["path"] == "queue/worker.py", text
    assert worker["values"] == [
        {
            "name": "DEFAULT_RETRY_BASE_SECONDS",
            "text": "DEFAULT_RETRY_BASE_SECONDS = 5",
            "path": "queue/settings.py",
            "line": 4,
        }
    ], worker
    assert "\n  value queue/settings.py:4: DEFAULT_RETRY_BASE_SECONDS = 5\n" in text + "\n", text
    # The definition's own line matches: it is not said again.
    args = {"query": "DEFAULT_RETRY_BASE_SECONDS", "target": "proj", "path": "queue/"}
    text, answer = await call(served, "search_code_text", args)
    assert "value" not in text and all("values" not in r for r in answer["results"]), text


@pytest.mark.anyio
async def test_a_short_function_among_a_questions_results_is_shown_whole(served):
    question = {"query": "how long a failed job waits before its next retry attempt", "target": "proj"}
    text, answer = await call(served, "search_by_code_functions", question)
    paths = [r["path"] for r in answer["results"]]
    assert "queue/models.py" in paths[1:], text
    models = answer["results"][paths.index("queue/models.py")]
    m = models["matches"][0]
    assert m["name"] == "backoff_seconds", text
    assert "return float(min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempts - 1)))" in m["code"], m
    assert [(v["name"], v["line"]) for v in m["values"]] == [("BACKOFF_CAP", 4), ("BACKOFF_BASE", 3)], m
    assert "  value L4: BACKOFF_CAP = 60" in text, text
