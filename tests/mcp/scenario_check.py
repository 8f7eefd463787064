"""Checks of the scenario files in scenarios/ (see scenarios/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCENARIOS = Path(__file__).parent / "scenarios"


def load_scenarios() -> list[tuple[str, int, dict]]:
    """(tool, index, case) for every case of every scenario file."""
    out = []
    for f in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        for i, case in enumerate(data["cases"]):
            out.append((data["tool"], i, case))
    return out


def pointer(doc: Any, ptr: str) -> Any:
    """RFC 6901 JSON pointer; raises KeyError when the path does not exist."""
    if ptr in ("", "/"):
        return doc
    cur = doc
    for raw in ptr.lstrip("/").split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, list):
            cur = cur[int(part)]
        elif isinstance(cur, dict):
            cur = cur[part]
        else:
            raise KeyError(ptr)
    return cur


def check(case: dict, answer: Any, is_error: bool) -> list[str]:
    """The failed expectations of one case (empty when it passes)."""
    exp = case.get("expect", {})
    problems: list[str] = []
    want_error = exp.get("is_error", False)
    if is_error != want_error:
        problems.append(f"is_error={is_error}, expected {want_error}: {json.dumps(answer, ensure_ascii=False)[:300]}")
        return problems
    if want_error:
        return problems
    results = answer.get("results", []) if isinstance(answer, dict) else []
    paths = [r.get("path") for r in results]
    top = exp.get("top", 3)
    for p in exp.get("paths", []):
        if p not in paths[:top]:
            problems.append(f"{p} not in the first {top}: {paths}")
    if "first" in exp and (not paths or paths[0] != exp["first"]):
        problems.append(f"first is {paths[0] if paths else None}, expected {exp['first']}: {paths}")
    if len(results) < exp.get("min_results", 0):
        problems.append(f"{len(results)} results, expected at least {exp['min_results']}")
    for ptr, value in exp.get("equals", {}).items():
        try:
            got = pointer(answer, ptr)
        except (KeyError, IndexError, ValueError):
            problems.append(f"{ptr} missing")
            continue
        if got != value:
            problems.append(f"{ptr} = {json.dumps(got, ensure_ascii=False)[:200]}, expected {json.dumps(value, ensure_ascii=False)}")
    for ptr, text in exp.get("contains", {}).items():
        try:
            got = pointer(answer, ptr)
        except (KeyError, IndexError, ValueError):
            problems.append(f"{ptr} missing")
            continue
        hay = got if isinstance(got, str) else json.dumps(got, ensure_ascii=False)
        if text not in hay:
            problems.append(f"{ptr} does not contain {text!r}: {hay[:200]}")
    for kind, text in exp.get("elements", {}).items():
        elements = [e for r in results for e in r.get(kind, [])]
        if not elements:
            problems.append(f"no {kind} reported")
        # A callee shown after the match that calls it (`called_by`) is no match of the name.
        bad = [e["signature"] for e in elements if text.lower() not in e["signature"].lower() and "called_by" not in e]
        if bad:
            problems.append(f"{kind} not matching {text!r} reported: {bad}")
    return problems
