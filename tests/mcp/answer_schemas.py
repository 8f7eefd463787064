"""Checking answers against the tools' declared `outputSchema`.

The Python MCP SDK already checks every successful `tools/call` against the
schema the tool declares (and raises when it does not validate). These
helpers check more strictly: against a closed copy of the schema
(`additionalProperties: false` on every object), so that a field an answer
carries but its schema does not declare is found too, and error answers
(`isError`, which the SDK does not check) as well.
"""

from __future__ import annotations

import copy

import jsonschema


def closed(schema: dict) -> dict:
    """A copy of `schema` in which no object takes a property it does not declare."""
    out = copy.deepcopy(schema)

    def close(s):
        if isinstance(s, dict):
            if "properties" in s:
                s.setdefault("additionalProperties", False)
            for v in s.values():
                close(v)
        elif isinstance(s, list):
            for v in s:
                close(v)

    close(out)
    return out


def schema_problems(tools: dict, name: str, answer) -> list[str]:
    """Why `answer` (a tool's structured content) does not fit the tool's closed output schema."""
    schema = tools[name].output_schema
    if schema is None:
        return [f"{name}: no outputSchema"]
    validator = jsonschema.Draft202012Validator(closed(schema))
    return [f"{name}: {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in validator.iter_errors(answer)]
