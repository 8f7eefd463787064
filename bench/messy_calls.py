"""Calls as small models send them: the same call with its tool name and
arguments rewritten the ways the gateway reads leniently (aliases and
camelCase keys, numbers as strings, `"all"`, line ranges as a string, a
list, an object or a path suffix, LSP paths, `file://` URIs, `null`s,
arguments wrapped once more or sent as a JSON string, a key given twice,
namespaced and relayed tool names). Seeded, so two builds get the same list.

    messy(calls, n, seed) -> [(tool, arguments)]

Used by bench/same_answers.py: a refactor of the argument reader must give
the same answers to these as the base build.
"""
from __future__ import annotations

import json
import random

KEYS = {
    "query": ["query", "q", "keyword", "keywords", "search", "name", "searchQuery", "symbol_name", "symbolName",
              "text", "Query", "question", "search_term"],
    "target": ["target", "project", "repo", "repoName", "project_name", "projectName", "workspace", "codebase"],
    "path": ["path", "file", "filePath", "file_path", "filename", "fileName", "relative_path"],
    "limit": ["limit", "maxResults", "max_results", "top_k", "count", "n", "num_results"],
    "start_line": ["start_line", "startLine", "from_line", "line_start"],
    "end_line": ["end_line", "endLine", "to_line", "line_end"],
    "direction": ["direction", "Direction"],
    "kind": ["kind", "type", "reference_kind"],
    "depth": ["depth", "levels", "max_depth"],
    "context": ["context", "context_lines", "contextLines"],
    "regex": ["regex", "is_regex", "isRegex", "use_regex"],
    "symbols": ["symbols", "symbolsMap"],
    "symbol": ["symbol", "element"],
}
WRAPPERS = ["arguments", "args", "params", "parameters", "input", "kwargs"]
RELAYS = ["use_mcp_tool", "call_tool", "invoke_tool"]


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


def tool_name(rng: random.Random, tool: str) -> str:
    return rng.choice([tool, tool, camel(tool), f"mcp__vibe__{tool}", f"functions.{tool}", tool.upper()])


def value(rng: random.Random, key: str, v):
    """The value `v` of canonical `key`, in a shape a model may send it."""
    if isinstance(v, bool):
        return rng.choice([v, str(v).lower(), "yes" if v else "no", int(v)])
    if isinstance(v, int):
        shapes = [v, str(v), float(v), f" {v} "]
        if key == "limit":
            shapes += ["all", "max", [v]]
        return rng.choice(shapes)
    if isinstance(v, str) and key == "path" and v:
        return rng.choice([v, f"./{v}", f"file:///{v}", {"uri": f"file:///{v}"}, {"textDocument": {"uri": v}}])
    if isinstance(v, str):
        return rng.choice([v, v, f"  {v} ", [v]])
    return v


def lines(rng: random.Random, args: dict) -> dict:
    """`start_line`/`end_line` as one `lines` value, or a path suffix."""
    start, end = args.pop("start_line", None), args.pop("end_line", None)
    if start is None:
        return args
    shape = rng.randrange(5)
    if shape == 0:
        args["lines"] = f"{start}-{end}"
    elif shape == 1:
        args["lines"] = [start, end]
    elif shape == 2:
        args["lines"] = {"start": start, "end": end}
    elif shape == 3 and "path" in args:
        args["path"] = f"{args['path']}:{start}-{end}"
    else:
        args["start_line"], args["end_line"] = start, end
    return args


def rewritten(rng: random.Random, args: dict) -> dict:
    args = lines(rng, dict(args))
    out = {}
    for key, v in args.items():
        out[rng.choice(KEYS.get(key, [key]))] = value(rng, key, v)
    if rng.random() < 0.2:
        out[rng.choice(["language", "kind", "path", "offset"])] = None
    return out


def sent(rng: random.Random, tool: str, args: dict) -> tuple[str, dict]:
    """One call as a model may send it: renamed, reshaped, wrapped or relayed."""
    messy = rewritten(rng, args)
    shape = rng.randrange(8)
    if shape == 0:
        messy = {rng.choice(WRAPPERS): messy}
    elif shape == 1:
        messy = {rng.choice(WRAPPERS): json.dumps(messy)}
    elif shape == 2 and messy:
        # A key given twice, in a JSON string: the last value counts.
        first = next(iter(messy))
        body = json.dumps(messy)[1:-1]
        messy = {"arguments": "{" + f'"{first}": "overwritten", ' + body + "}"}
    elif shape == 3:
        return rng.choice(RELAYS), {"tool_name": tool, "arguments": messy}
    return tool_name(rng, tool), messy


def messy(calls: list[tuple[str, dict]], n: int, seed: int = 7) -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    picked = rng.sample(calls, min(n, len(calls)))
    return [sent(rng, tool, args) for tool, args in picked]
