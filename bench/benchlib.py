"""Helpers shared by the Python benches (relevance, references, text_search)."""

from __future__ import annotations

import json
import urllib.request


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))]


def os_json(base: str, path: str, body: dict | None = None, method: str | None = None, timeout: int = 600) -> dict:
    """One OpenSearch request with a JSON body (POST) or none (GET)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data else "GET"),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        raw = r.read()
        return json.loads(raw) if raw else {}
