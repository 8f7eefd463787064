"""Tool input schemas stay portable: valid JSON Schema (draft 2020-12), plain
single types with defaults, no nullable unions, no references, extra fields
allowed. Then the MCP Inspector's own portability lint (`--strict`, in
@modelcontextprotocol/inspector 2.x; older versions lack the flag) must
report nothing.
"""

from __future__ import annotations

import shutil
import subprocess

import jsonschema
import pytest
from mcp import Client

FORBIDDEN = {"anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "definitions", "nullable", "if", "then", "else"}
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"


def problems(tool) -> list[str]:
    out = []
    schema = tool.input_schema
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        out.append(f"not valid JSON Schema: {e.message}")
    if schema.get("type") != "object":
        out.append("the input schema is not an object")
    if schema.get("additionalProperties") is False:
        out.append("additionalProperties: false (unknown fields must be ignored, not rejected)")
    props = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in props:
            out.append(f"required {name!r} is not a property")
    for name, prop in props.items():
        where = f"{tool.name}.{name}"
        if FORBIDDEN & prop.keys():
            out.append(f"{where}: uses {sorted(FORBIDDEN & prop.keys())}")
        if not isinstance(prop.get("type"), str):
            out.append(f"{where}: type must be one plain string, got {prop.get('type')!r}")
        elif prop["type"] == "null":
            out.append(f"{where}: null type")
        if not prop.get("description"):
            out.append(f"{where}: no description")
        if "default" in prop:
            try:
                jsonschema.validate(prop["default"], prop)
            except jsonschema.ValidationError as e:
                out.append(f"{where}: default does not match its schema: {e.message}")
        if name == "limit" and "default" not in prop:
            out.append(f"{where}: limit without a default")
    return out


@pytest.mark.anyio
async def test_input_schemas_are_portable(gateway):
    async with Client(gateway.url) as client:
        tools = (await client.list_tools()).tools
    found = [p for t in tools for p in problems(t)]
    assert not found, "\n".join(found)
    # The checker itself catches what it must.
    bad = type("T", (), {"name": "bad", "input_schema": {"type": "object", "additionalProperties": False, "properties": {
        "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "x"},
        "q": {"type": ["string", "null"], "description": "x"}}}})
    assert len(problems(bad)) >= 4, problems(bad)


@pytest.mark.parametrize("typed", ["", "?typed_output=false"], ids=["typed", "text-only"])
def test_inspector_strict_reports_no_problems(gateway, typed):
    npx = shutil.which("npx")
    if not npx:
        pytest.skip("npx is not installed")
    cmd = [npx, "-y", INSPECTOR, "--cli", gateway.url + typed, "--transport", "http", "--method", "tools/list", "--strict"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip("the inspector could not be fetched in time")
    if r.returncode != 0 and "npm" in r.stderr and "ERR" in r.stderr:
        pytest.skip(f"the inspector is not available: {r.stderr[-300:]}")
    # npm warns about the Node engine on Node < 22; anything else on stderr is a finding.
    findings = [l for l in r.stderr.splitlines() if l.strip() and not l.startswith("npm warn")]
    assert r.returncode == 0, r.stderr[-2000:]
    assert not findings, "\n".join(findings)
    assert '"search_documentation"' in r.stdout
