"""The official MCP server conformance suite (@modelcontextprotocol/conformance,
run under Node 22, installed once with npm) against the session gateway, and
the hand-sent malformed messages of conformance.CASES, each with the HTTP
status and JSON-RPC code it must get.

The server has tools only (no prompts, resources, logging, completion,
sampling or elicitation, nor the suite's own test tools), so most of the
suite's scenarios fail on every build; the ones a tools server must pass are
conformance.EXPECT_PASS. bench/conformance.sh pairs the whole suite with a
base commit.
"""

from __future__ import annotations

import conformance


def test_the_scenarios_a_tools_server_must_pass(gateway, tmp_path):
    suite, node = conformance.install()
    output = conformance.run_suite(gateway.url, tmp_path, suite, node)
    results = conformance.scenarios(tmp_path)
    assert len(results) >= 20, f"the suite ran {len(results)} scenarios: {output[-2000:]}"
    failing = {s: results.get(s) for s in conformance.EXPECT_PASS if results.get(s, (0, 1, ""))[1] != 0}
    assert not failing, f"(passed, failed, first failure) per scenario: {failing}"


def test_malformed_messages_get_their_json_rpc_errors(gateway):
    got = conformance.hand(gateway.url)
    differ = {case: (got.get(case), want) for case, want in conformance.expected().items() if got.get(case) != want}
    assert not differ, f"(got, expected) per case: {differ}"
