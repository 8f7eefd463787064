#!/usr/bin/env python3
"""Check the unseen-code detail set against its corpus.

Usage: check.py [CORPUS_ROOT]   (default ~/.cache/vibe-bench/unseen, made by corpus.sh)

For every row of ../unseen.jsonl: the file
<root>/<project>/<path> exists, its line <line> (1-based) equals answer_line
after stripping, and the fields hold allowed values. Prints the counts per
project, per `where` and per `kind`, and the in_body share; exits 1 on any
error.
"""
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ("id", "project", "kind", "style", "question", "path", "answer_line", "line",
          "answer", "in_body", "where")
KINDS = {"default", "limit", "timeout", "retry", "condition", "order", "format", "message", "value"}
WHERES = {"same-file-constant", "other-file-constant", "function-body", "definition-line",
          "non-code-file"}
PROJECTS = {"python", "javascript", "go"}


def main() -> int:
    root = os.path.expanduser(sys.argv[1] if len(sys.argv) > 1 else "~/.cache/vibe-bench/unseen")
    rows = []
    with open(os.path.join(HERE, "..", "unseen.jsonl"), encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            if raw.strip():
                rows.append((n, json.loads(raw)))
    errors = []
    ids = set()
    for n, r in rows:
        where = f"unseen.jsonl:{n} ({r.get('id')})"
        missing = [k for k in FIELDS if k not in r]
        if missing:
            errors.append(f"{where}: missing fields {missing}")
            continue
        if r["id"] in ids:
            errors.append(f"{where}: duplicate id")
        ids.add(r["id"])
        if r["project"] not in PROJECTS:
            errors.append(f"{where}: unknown project {r['project']!r}")
        if r["kind"] not in KINDS:
            errors.append(f"{where}: unknown kind {r['kind']!r}")
        if r["where"] not in WHERES:
            errors.append(f"{where}: unknown where {r['where']!r}")
        if r["style"] != "unseen":
            errors.append(f"{where}: style is not 'unseen'")
        if not isinstance(r["in_body"], bool) or not isinstance(r["line"], int):
            errors.append(f"{where}: in_body must be a bool and line an int")
            continue
        if r["in_body"] != (r["where"] == "function-body"):
            errors.append(f"{where}: in_body {r['in_body']} does not fit where {r['where']!r}")
        fp = os.path.join(root, r["project"], r["path"])
        if not os.path.isfile(fp):
            errors.append(f"{where}: no file {fp}")
            continue
        with open(fp, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if not 1 <= r["line"] <= len(lines):
            errors.append(f"{where}: line {r['line']} outside {fp} ({len(lines)} lines)")
            continue
        got = lines[r["line"] - 1].strip()
        if got != r["answer_line"].strip():
            errors.append(f"{where}: {r['path']}:{r['line']} is {got!r}, not {r['answer_line']!r}")

    total = len(rows)
    recs = [r for _, r in rows]
    print(f"rows: {total}")
    for title, key in (("project", "project"), ("where", "where"), ("kind", "kind")):
        c = collections.Counter(r.get(key) for r in recs)
        print(f"per {title}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    per_proj = collections.defaultdict(collections.Counter)
    for r in recs:
        per_proj[r.get("project")][r.get("path", "").split("/")[0]] += 1
    for p in sorted(per_proj):
        print(f"  {p} packages: " + ", ".join(f"{k} {v}" for k, v in sorted(per_proj[p].items())))
    in_body = sum(1 for r in recs if r.get("in_body") is True)
    consts = sum(1 for r in recs if r.get("where") in ("same-file-constant", "other-file-constant"))
    print(f"in_body: {in_body}/{total} ({in_body / max(total, 1):.0%}); "
          f"constants: {consts}/{total} ({consts / max(total, 1):.0%})")
    if total < 60:
        errors.append(f"only {total} rows (want >= 60)")
    if in_body * 2 < total:
        errors.append(f"in_body share below half ({in_body}/{total})")
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"FAILED ({len(errors)} errors)")
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
