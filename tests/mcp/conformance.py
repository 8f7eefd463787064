#!/usr/bin/env python3
"""The official MCP server conformance suite (@modelcontextprotocol/conformance,
npm, run under Node 22) and hand-sent malformed messages (CASES), for
tests/mcp/test_conformance.py and the tables of bench/conformance.sh (plain
python3, standard library only).

  conformance.py --install
      installs Node 22 and the suite once under CONFORMANCE_DIR (default
      ~/.cache/vibe-bench/conformance) and prints SUITE=... NODE22=... for a shell
  conformance.py --new URL --new-results DIR [--base URL --base-results DIR]
      reads the suite's results (DIR/server-<scenario>-<time>/checks.json),
      sends the CASES to each server after initialize and
      notifications/initialized, prints scenario -> base -> new and case ->
      base -> new -> expected, and exits 1 on a regression (see bench/conformance.sh)
"""
import argparse, glob, http.client, json, os, re, subprocess, sys, urllib.parse
from pathlib import Path

VERSION = os.environ.get("CONFORMANCE_VERSION", "0.1.16")
CACHE = Path(os.environ.get("CONFORMANCE_DIR", Path.home() / ".cache" / "vibe-bench" / "conformance"))

# Without a base, these must pass (they do on every build since the suite was first run).
EXPECT_PASS = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"]
PV = "2025-11-25"
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def call(id_, args, extra=""):
    return ('{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search_by_code_functions",'
            '"arguments":%s%s}}' % (id_, args, extra)).encode()


def req(id_, method, rest=""):
    return ('{"jsonrpc":"2.0","id":%s,"method":"%s"%s}' % (id_, method, rest)).encode()


# (name, body, expected "HTTP-status JSON-RPC-code", "result", "isError" or "-": no body),
# as the working tree answers them on 2026-12-06 (7e888be); dup-meta is caf03cb's case, the
# dup-in-params cases are the guard's since every member of a request's params is read once.
CASES = [
    ("invalid-json", b'{"jsonrpc":"2.0","id":10,"method":"tools/list"', "400 -32700"),
    ("batch-empty", b'[]', "400 -32600"),
    ("jsonrpc-1.0", b'{"jsonrpc":"1.0","id":11,"method":"tools/list"}', "400 -32600"),
    ("object-id", req('{"a":1}', "tools/list"), "400 -32600"),
    ("args-json-string", call(12, r'"{\"query\":\"add\"}"'), "200 result"),
    ("args-5", call(13, "5"), "200 -32602"),
    ("lone-surrogate-key", req(14, "tools/list", r',"params":{"\ud800":1}'), "400 -32700"),
    ("args-object-control", call(15, '{"query":"add"}'), "200 result"),
    ("args-plain-string", call(16, '"add"'), "200 result"),
    ("empty-body", b'', "400 -32700"),
    ("batch-one", b'[{"jsonrpc":"2.0","id":17,"method":"tools/list"}]', "400 -32600"),
    ("scalar", b'42', "400 -32600"),
    ("id-null", req("null", "tools/list"), "400 -32600"),
    ("id-float", req("1.5", "tools/list"), "400 -32600"),
    ("no-method", b'{"jsonrpc":"2.0","id":18}', "400 -32600"),
    ("method-number", b'{"jsonrpc":"2.0","id":19,"method":7}', "400 -32600"),
    ("params-string", req(20, "tools/list", ',"params":"x"'), "200 -32602"),
    ("toolscall-no-params", req(21, "tools/call"), "200 -32602"),
    ("name-number", req(22, "tools/call", ',"params":{"name":42}'), "200 -32602"),
    ("args-array", call(23, "[1]"), "200 -32602"),
    ("dup-jsonrpc", b'{"jsonrpc":"2.0","jsonrpc":"2.0","id":24,"method":"tools/list"}', "400 -32600"),
    ("dup-name", req(25, "tools/call", ',"params":{"name":"x","name":"search_by_code_functions","arguments":{"query":"add"}}'), "200 -32602"),
    ("lone-surrogate-value", req(26, "tools/list", r',"params":{"x":"\ud800"}'), "400 -32700"),
    ("invalid-utf8", b'{"jsonrpc":"2.0","id":27,"method":"tools/list","params":{"x":"\xff"}}', "400 -32700"),
    ("args-null", call(28, "null"), "200 isError"),
    ("args-json-string-strid-meta", call('"s-29"', r'"{\"query\":\"add\",\"limit\":1}"', ',"_meta":{"progressToken":"p"}'), "200 result"),
    ("id-u64max", req("18446744073709551615", "tools/list"), "400 -32600"),
    ("id-i64min", req("-9223372036854775808", "tools/list"), "200 result"),
    ("id-u64max-plus1", req("18446744073709551616", "tools/list"), "400 -32600"),
    ("too-large", req(30, "tools/list", ',"params":{"x":"%s"}' % ("a" * (1 << 20))), "413 -32600"),
    ("deep-nesting", req(31, "tools/list", ',"params":{"x":%s%s}' % ("[" * 200, "]" * 200)), "400 -32700"),
    ("escaped-method", call(32, r'"{\"query\":\"add\"}"').replace(b"tools/call", b"tools\\/call"), "200 result"),
    ("args-string-with-surrogate-escape", call(33, r'"{\"query\":\"\\ud800\"}"'), "200 result"),
    ("notification-args-5", b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search_by_code_functions","arguments":5}}', "202 -"),
    ("response", b'{"jsonrpc":"2.0","id":35,"result":{}}', "202 -"),
    ("params-null", req(36, "tools/call", ',"params":null'), "200 -32602"),
    ("trailing-space", req(37, "ping") + b" ", "200 result"),
    ("trailing-garbage", req(38, "ping") + b"{}", "400 -32700"),
    ("dup-arguments", call(39, r'"{\"query\":\"add\"}"', ',"arguments":{"query":"sub"}'), "200 -32602"),
    ("dup-id", b'{"jsonrpc":"2.0","id":40,"id":41,"method":"tools/list"}', "400 -32600"),
    ("dup-method", req(42, "tools/list", ',"method":"ping"'), "400 -32600"),
    ("dup-params", req(43, "tools/list", ',"params":{},"params":{}'), "400 -32600"),
    ("dup-result", b'{"jsonrpc":"2.0","id":44,"result":{},"result":{}}', "400 -32600"),
    ("args-string-ws", call(45, r'"  {\"query\":\"add\"}\n"'), "200 result"),
    ("args-string-dupkeys", call(46, r'"{\"query\":\"zzz\",\"query\":\"add\"}"'), "200 result"),
    ("args-string-in-string", call(47, r'"\"{\\\"query\\\":\\\"add\\\"}\""'), "200 result"),
    ("id-i64max", req("9223372036854775807", "ping"), "200 result"),
    ("id-i64max-plus1", req("9223372036854775808", "ping"), "400 -32600"),
    ("id-i64max-plus1-args5", call("9223372036854775808", "5"), "400 -32600"),
    ("args-string-float", call(50, r'"{\"query\":\"add\",\"limit\":1.0}"'), "200 result"),
    ("args-string-dup-meta", call(51, '"{}"', ',"_meta":{"a":1},"_meta":{"b":2}'), "200 -32602"),
    ("args-string-array", call(52, r'"[\"add\"]"'), "200 result"),
    ("args-empty-string", call(53, '""'), "200 isError"),
    ("escaped-key", b'{"\\u006asonrpc":"2.0","id":54,"method":"ping"}', "200 result"),
    ("ping-params-null", req(55, "ping", ',"params":null'), "200 result"),
    ("id-surrogate-pair", req(r'"\ud83d\ude00"', "ping"), "200 result"),
    ("dup-meta", req(58, "tools/call", ',"params":{"name":"show_stats","_meta":{},"_meta":{}}'), "200 -32602"),
    ("dup-in-params-init", req(59, "initialize", ',"params":{"protocolVersion":"2025-06-18","protocolVersion":"2024-11-05",'
                            '"capabilities":{},"clientInfo":{"name":"x","version":"1"}}'), "200 -32602"),
    ("dup-in-params-nested", req(60, "tools/call", ',"params":{"name":"show_stats","_meta":{"progressToken":1,"progressToken":2}}'),
     "200 -32602"),
    ("dup-in-params-list", req(61, "tools/list", ',"params":{"cursor":"a","cursor":"b"}'), "200 -32602"),
    ("repair-dup-unknown-top", call(57, r'"{\"query\":\"add\"}"')[:-1] + b',"extra":1,"extra":2}', "200 result"),
]


def post(url, body, sid=None):
    """(HTTP status, mcp-session-id, the JSON-RPC answer or None, the raw body)."""
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    headers = dict(HEADERS, **({"mcp-session-id": sid, "mcp-protocol-version": PV} if sid else {}))
    try:
        conn.request("POST", u.path, body=body, headers=headers)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered before reading the whole body (413): read that answer
    resp = conn.getresponse()
    raw = resp.read().decode("utf-8", "replace")
    conn.close()
    if "text/event-stream" in (resp.getheader("content-type") or ""):
        raw = "\n".join(l[5:].strip() for l in raw.splitlines() if l.startswith("data:") and l[5:].strip())
    try:
        answer = json.loads(raw.splitlines()[-1]) if raw else None
    except ValueError:
        answer = None
    return resp.status, resp.getheader("mcp-session-id"), answer, raw


def outcome(status, answer, raw):
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        what = str(answer["error"].get("code"))
    elif isinstance(answer, dict) and "result" in answer:
        what = "isError" if (answer["result"] or {}).get("isError") else "result"
    else:
        what = "not-JSON" if raw else "-"
    return f"{status} {what}"


def hand(url):
    """{case: outcome} for one server ("no answer: ..." when the connection fails)."""
    def send(body, sid=None):
        try:
            return post(url, body, sid)
        except (OSError, http.client.HTTPException) as e:
            return f"no answer: {type(e).__name__}", None, None, ""
    init = req(1, "initialize", ',"params":{"protocolVersion":"%s","capabilities":{},'
               '"clientInfo":{"name":"bench-conformance","version":"0"}}' % PV)
    status, sid, _, raw = send(init)
    if status != 200 or not sid:
        print(f"initialize at {url}: {status}, session {sid!r}: {raw[:200]}", file=sys.stderr)
        return {}
    status = send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}', sid)[0]
    out = {"(notifications/initialized)": f"{status} -"}
    for name, body, _ in CASES:
        status, _, answer, raw = send(body, sid)
        out[name] = outcome(status, answer, raw) if isinstance(status, int) else status
    return out


def install() -> tuple[Path, Path]:
    """(the suite's command, Node 22's bin dir), installed once under CACHE with npm."""
    suite, node = CACHE / "node_modules" / ".bin" / "conformance", CACHE / "node_modules" / "node" / "bin"
    package = CACHE / "node_modules" / "@modelcontextprotocol" / "conformance" / "package.json"
    installed = json.loads(package.read_text())["version"] if package.exists() else None
    if installed != VERSION or not (node / "node").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "node@22",
                        f"@modelcontextprotocol/conformance@{VERSION}"], cwd=CACHE, check=True, stdout=sys.stderr)
    return suite, node


def run_suite(url: str, results: Path, suite: Path, node: Path) -> str:
    """Runs every scenario (`--suite all`) against `url`, results under
    `results`; the suite's output (it exits non-zero when any check fails:
    the results judge)."""
    env = dict(os.environ, PATH=f"{node}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run([str(suite), "server", "--url", url, "--suite", "all", "-o", str(results)],
                          env=env, capture_output=True, text=True, timeout=600)
    return done.stdout + done.stderr


def expected() -> dict[str, str]:
    """{case: expected outcome}, the notifications/initialized exchange first."""
    return {"(notifications/initialized)": "202 -", **{n: e for n, _, e in CASES}}


def scenarios(d):
    """{scenario: (checks passed, failed, first failure message)} in the suite's order."""
    out = {}
    for f in sorted(glob.glob(f"{d}/*/checks.json"), key=lambda f: os.path.basename(os.path.dirname(f))[-24:]):
        name = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", os.path.basename(os.path.dirname(f)))
        checks = json.load(open(f))
        bad = [c for c in checks if c.get("status") == "FAILURE"]
        ok = sum(c.get("status") == "SUCCESS" for c in checks)
        out[name] = (ok, len(bad), (bad[0].get("errorMessage") or "")[:70] if bad else "")
    return out


def cell(r):
    return "-" if r is None else ("pass" if r[1] == 0 else "FAIL") + f" {r[0]}/{r[0] + r[1]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--install", action="store_true", help="install the suite, print SUITE= and NODE22=")
    ap.add_argument("--new")
    ap.add_argument("--new-results")
    ap.add_argument("--base")
    ap.add_argument("--base-results")
    a = ap.parse_args()
    if a.install:
        suite, node = install()
        print(f"SUITE={suite}\nNODE22={node}")
        return
    if not (a.new and a.new_results):
        ap.error("--new and --new-results are needed")
    new, base = scenarios(a.new_results), scenarios(a.base_results) if a.base else {}
    errors = [] if new else [f"no results in {a.new_results}"]
    col = (lambda text, w: f"{text:<{w}} ") if a.base else (lambda text, w: "")  # the base column, with a base
    print(f"\n{'scenario':<30} {col('base', 10)}{'new':<10} new's first failure")
    for s in list(new) + [s for s in base if s not in new] + [s for s in EXPECT_PASS if s not in new and s not in base]:
        b, n = base.get(s), new.get(s)
        passed = n is not None and n[1] == 0
        if (a.base and b is not None and b[1] == 0 and not passed) or (not a.base and s in EXPECT_PASS and not passed):
            errors.append(f"scenario {s}: " + (f"base {cell(b)}, " if a.base else "") + f"new {cell(n)}")
        print(f"{s:<30} {col(cell(b), 10)}{cell(n):<10} {n[2] if n else ''}".rstrip())
    for side, res in (("base", base), ("new", new)):
        if res:
            print(f"{side}: {sum(r[0] for r in res.values())} checks passed, {sum(r[1] for r in res.values())} failed, "
                  f"{sum(r[1] == 0 for r in res.values())} of {len(res)} scenarios pass")
    hb, hn = (hand(a.base) if a.base else {}), hand(a.new)
    errors += [] if hn else [f"no MCP session at {a.new}: no case sent"]
    expected_outcomes = expected()
    print(f"\n{'hand-sent case':<36} {col('base', 12)}{'new':<12} expected")
    for name, exp in expected_outcomes.items():
        n = hn.get(name, "-")
        mark = "   <<< new differs" if n != exp else ("   (base differs)" if a.base and hb.get(name) != n else "")
        if n != exp and hn:
            errors.append(f"case {name}: new {n}, expected {exp}")
        print(f"{name:<36} {col(hb.get(name, '-'), 12)}{n:<12} {exp}{mark}")
    print(f"cases: new as expected {sum(hn.get(k) == v for k, v in expected_outcomes.items())} of {len(expected_outcomes)}"
          + (f", base {sum(hb.get(k) == v for k, v in expected_outcomes.items())}" if a.base else ""))
    for e in errors:
        print(f"REGRESSION: {e}", file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
