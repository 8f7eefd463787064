#!/usr/bin/env python3
"""find_references against a regex oracle (driven by bench/references.sh).

Two subcommands:

  corpus --out DIR [--cap N] [PROJECT...]
      Copies a deterministic subset (at most --cap source files each) of each
      project to DIR/<name>/ and prints the copies, one a line (relevance.py's
      copy, bench/relevance_corpus.py). Without PROJECT: $REFS_LANGS (default
      python, java, javascript, typescript, go, rust, kotlin, csharp) under
      $VIBE_CORPORA (default ~/.cache/vibe-bench/corpora), a missing one built
      by bench/corpora.sh.

  run --opensearch URL --prefix P PROJECT...
      The oracle, per language: function and method names that
      universal-ctags defines in the indexed files are the candidates; a
      file *calls* a name when its code, once comments and strings are
      blanked out (a per-language scanner, below), holds `name(` (also
      `.name(`, `::name(`, `->name(`) outside a definition: not on a line
      where ctags defines that name, not after `def`/`function`/`func`/`fn`/
      `fun`, and, in Java, JavaScript, TypeScript, C# and Dart, not followed
      on its line by `{` or `=>` after the closing parenthesis (a method
      declaration ctags missed). $REFS_N names (default 100) with at least
      one calling file are sampled per language ($REFS_SEED).
      Each name is looked up through the stored template find_references
      (`_search/template` on the project's alias, limit 10, every kind,
      then kinds ["call"] only), and scored:
        recall@10    calling files among the first 10 results / min(10, calling files)
        precision    returned files whose code uses the name at all (a whole
                     word outside comments and strings) / returned files
        never-uses   returned files that do not use the name at all
      with p50/p95 latency of the request as the client sees it and of
      OpenSearch's `took`. --misses N prints N missed calling files per
      language (path:line and the line), --json FILE writes everything.
      When --mcp URL is given and the server lists find_references, the same
      look-ups also go through MCP (tools/call) and are scored alike.

Needs only the Python standard library (the `mcp` SDK of tests/mcp/.venv
for --mcp).
"""

from __future__ import annotations

import argparse
import bisect
import http.client
import json
import os
import random
import re
import statistics
import sys
import time
import urllib.parse
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchlib import McpSession, ast_aliases, logger, opensearch_url, pct, quiet_mcp_logs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from relevance_corpus import add_corpus_parser, cmd_corpus  # noqa: E402
from references_strip import strip_code  # noqa: E402
import relevance  # noqa: E402  (the corpus copy, the index listing, ctags kinds)

DEFAULT_LANGS = ("python", "java", "javascript", "typescript", "go", "rust", "kotlin", "csharp")
CTAGS_LANG = {"python": "Python", "java": "Java", "javascript": "JavaScript", "typescript": "TypeScript",
              "go": "Go", "rust": "Rust", "kotlin": "Kotlin", "csharp": "C#"}
# ctags kinds that define functions and methods, per ctags language.
FUNC_KINDS = {lang: {k for k, tool in kinds.items() if tool == relevance.FUNCS} for lang, kinds in relevance.KINDS.items()}
FUNC_KINDS["Python"] = {"function", "member"}
FUNC_KINDS["C#"] = {"method"}
FUNC_KINDS["Kotlin"] = {"method"}

log = logger("references")


# ---------------------------------------------------------------------------
# oracle
# ---------------------------------------------------------------------------

CALL = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\(")
WORD = re.compile(r"[A-Za-z_$][\w$]*")
DEF_BEFORE = re.compile(r"\b(def|function|func|fn|fun)\s*\*?\s*$")
DECL_AFTER = re.compile(r"^\s*(:[^;={}()]*)?\s*(throws\s+[\w.,\s<>]+)?\s*(\{|=>)")
DECL_LANGS = {"java", "javascript", "typescript", "csharp", "dart"}


def close_paren(s: str, i: int) -> int:
    """Index after the parenthesis matching the one at i, on the same line; -1 if none."""
    depth = 0
    for j in range(i, len(s)):
        ch = s[j]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        elif ch == "\n":
            return -1
    return -1


@dataclass
class FileFacts:
    calls: dict[str, list[int]]  # name -> lines where it is called
    words: set[str]  # every identifier of the code


def file_facts(text: str, lang: str, def_lines: dict[str, set[int]]) -> FileFacts:
    code = strip_code(text, lang)
    line_starts = [0]
    for m in re.finditer("\n", code):
        line_starts.append(m.end())
    calls: dict[str, list[int]] = defaultdict(list)
    for m in CALL.finditer(code):
        name = m.group(1)
        line = bisect.bisect_right(line_starts, m.start())
        if line in def_lines.get(name, ()):
            continue
        ls = line_starts[line - 1]
        if DEF_BEFORE.search(code, ls, m.start()):
            continue
        if lang in DECL_LANGS:
            end = close_paren(code, m.end() - 1)
            if end > 0 and DECL_AFTER.match(code[end:code.find("\n", end) if code.find("\n", end) >= 0 else len(code)]):
                continue
        calls[name].append(line)
    return FileFacts(dict(calls), set(WORD.findall(code)))


def ctags_functions(root: Path, files: set[str], lang: str, work: Path):
    """{path: {name: {lines}}} of ctags' function and method definitions, and
    the same of every definition (for the definition exclusion)."""
    kinds = FUNC_KINDS.get(CTAGS_LANG[lang], set())
    out: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    defined: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for t in relevance.ctags_tags(root, files, "+nK", work / f"ctags-{root.name}.lst"):
        path = t["path"].removeprefix("./")
        # Every definition line counts for the definition exclusion.
        defined[path][t.get("name", "")].add(t.get("line", 0))
        if t.get("kind") in kinds:
            out[path][t.get("name", "")].add(t.get("line", 0))
    return out, defined


# ---------------------------------------------------------------------------
# look-ups
# ---------------------------------------------------------------------------


@dataclass
class Lookup:
    lang: str
    project: str
    name: str
    calling: list[str]  # paths that call the name (oracle)
    results: list[str] = field(default_factory=list)
    results_call: list[str] = field(default_factory=list)
    total: int = 0
    ms: float = 0.0
    took: int = 0
    ms_call: float = 0.0
    mcp: list[str] = field(default_factory=list)
    mcp_ms: float = 0.0
    error: str = ""


class OpenSearch:
    def __init__(self, url: str):
        u = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port or 9200, timeout=60)

    def post(self, path: str, body: dict) -> tuple[dict, float]:
        data = json.dumps(body)
        t0 = time.perf_counter()
        self.conn.request("POST", path, data, {"content-type": "application/json"})
        r = self.conn.getresponse()
        raw = r.read()
        ms = (time.perf_counter() - t0) * 1000
        return json.loads(raw), ms

    def get(self, path: str) -> dict:
        self.conn.request("GET", path)
        return json.loads(self.conn.getresponse().read())


def project_aliases(os_: OpenSearch, prefix: str) -> dict[str, str]:
    """{root: alias} of every project's analysis alias."""
    out = {}
    for index, v in os_.get(f"/_alias/{ast_aliases(prefix)}").items():
        for alias in v.get("aliases", {}):
            r, _ = os_.post(f"/{alias}/_search", {"size": 1, "_source": ["root"]})
            hits = r["hits"]["hits"]
            if hits:
                out[hits[0]["_source"]["root"].rstrip("/")] = alias
    return out


def find_references(os_: OpenSearch, alias: str, template: str, name: str, kinds: list[str] | None, limit: int):
    params = {"name": name, "lower": name.lower(), "limit": limit, "offset": 0}
    if kinds:
        params["kinds"] = kinds
    r, ms = os_.post(f"/{alias}/_search/template", {"id": template, "params": params})
    if "error" in r:
        raise RuntimeError(json.dumps(r["error"])[:500])
    # The template reads doc values (`fields`), not `_source`.
    paths = [(h.get("_source") or {}).get("path") or h["fields"]["path"][0] for h in r["hits"]["hits"]]
    return paths, r["hits"]["total"]["value"], ms, r.get("took", 0)


async def run_mcp(url: str, lookups: list[Lookup], roots: dict[str, Path]) -> bool:
    """The look-ups through MCP (benchlib's runner, as relevance.py calls
    it); False when the server has no working find_references."""
    async with McpSession(url) as mcp:
        if "find_references" not in await mcp.tool_names():
            log("the MCP server lists no find_references: MCP skipped")
            return False
        for i, q in enumerate(lookups):
            c = await mcp.call("find_references", {"query": q.name, "target": str(roots[q.project]), "limit": 10})
            if c.error and not c.error.startswith("isError"):
                q.error = c.error
                continue
            q.mcp_ms = c.latency_ms
            if c.error:
                if i == 0:
                    log(f"find_references through MCP failed ({c.error[9:129]}): MCP skipped")
                    return False
                q.error = c.error
                continue
            q.mcp = [x.get("path", "") for x in relevance.result_list(c.answer or {})]
    return True


# ---------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------


def score(qs: list[Lookup], facts: dict[tuple[str, str], FileFacts], attr: str) -> dict:
    recalls, returned, using, never = [], 0, 0, 0
    for q in qs:
        res = getattr(q, attr)[:10]
        cal = set(q.calling)
        recalls.append(len(cal & set(res)) / min(10, len(cal)))
        for p in res:
            returned += 1
            f = facts.get((q.project, p))
            if f is not None and q.name in f.words:
                using += 1
            else:
                never += 1
    return {"n": len(qs), "recall@10": statistics.mean(recalls) if recalls else float("nan"),
            "precision": using / returned if returned else float("nan"), "returned": returned, "never_uses": never}


def project_lookups(proj: str, root: Path, lang: str, files: set[str], work: Path, args: argparse.Namespace,
                    facts: dict[tuple[str, str], FileFacts]) -> list[Lookup]:
    """The oracle of one project: each file's facts (into `facts`), then
    $REFS_N sampled function names that some file calls."""
    t0 = time.monotonic()
    funcs, defined = ctags_functions(root, files, lang, work)
    calling: dict[str, set[str]] = defaultdict(set)
    for path in sorted(files):
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        ff = file_facts(text, lang, defined.get(path, {}))
        facts[(proj, path)] = ff
        for name in ff.calls:
            calling[name].add(path)
    names = sorted({n for per in funcs.values() for n in per
                    if len(n) >= 3 and relevance.IDENT.match(n) and calling.get(n)})
    rng = random.Random(f"{args.seed}/{lang}")
    picked = rng.sample(names, min(args.n, len(names)))
    log(f"{proj}: {len(files)} files, {len(names)} called function names, {len(picked)} sampled "
        f"(oracle {time.monotonic() - t0:.1f} s)")
    return [Lookup(lang, proj, name, sorted(calling[name])) for name in sorted(picked)]


def run_templates(os_: OpenSearch, lookups: list[Lookup], aliases: dict[str, str], roots: dict[str, Path],
                  template: str) -> None:
    """Warm-up, then each look-up through the stored template: every kind,
    then calls only."""
    for q in lookups[:20]:
        find_references(os_, aliases[str(roots[q.project])], template, q.name, None, 10)
    for q in lookups:
        alias = aliases[str(roots[q.project])]
        try:
            q.results, q.total, q.ms, q.took = find_references(os_, alias, template, q.name, None, 10)
            q.results_call, _, q.ms_call, _ = find_references(os_, alias, template, q.name, ["call"], 10)
        except RuntimeError as e:
            q.error = str(e)
    errors = [q for q in lookups if q.error]
    if errors:
        log(f"{len(errors)} look-ups failed, e.g. {errors[0].name}: {errors[0].error}")


COLUMNS = ["language", "names", "calling files", "recall@10", "precision", "never-uses", "recall@10 calls",
           "precision calls", "p50 ms", "p95 ms", "took p50"]
MCP_COLUMNS = ["MCP recall@10", "MCP p50 ms"]


def table_row(label: str, qs: list[Lookup], facts: dict[tuple[str, str], FileFacts], mcp_done: bool) -> list[str]:
    a, c = score(qs, facts, "results"), score(qs, facts, "results_call")
    ms = [q.ms for q in qs]
    row = [label, str(len(qs)), f"{statistics.mean(len(q.calling) for q in qs):.1f}", f"{a['recall@10']:.3f}",
           f"{a['precision']:.3f}", f"{a['never_uses']}/{a['returned']}", f"{c['recall@10']:.3f}",
           f"{c['precision']:.3f}", f"{pct(ms, 50):.1f}", f"{pct(ms, 95):.1f}", f"{pct([q.took for q in qs], 50):.0f}"]
    if mcp_done:
        m = score(qs, facts, "mcp")
        row += [f"{m['recall@10']:.3f}", f"{pct([q.mcp_ms for q in qs], 50):.1f}"]
    return row


def print_table(cols: list[str], rows: list[list[str]], everything: dict) -> None:
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    print()
    print("== find_references vs the regex oracle (stored template, limit 10; every kind, then kinds [\"call\"]) ==")
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for r in rows:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)))
    verdict = "met" if everything["recall@10"] >= 0.95 else "MISSED"
    print(f"recall@10 (every kind) {everything['recall@10']:.3f}, target >= 0.95: {verdict}; "
          f"returned files that never use the name: {everything['never_uses']} of {everything['returned']}")


def print_misses(by_lang: dict[str, list[Lookup]], facts: dict[tuple[str, str], FileFacts], roots: dict[str, Path],
                 most: int) -> None:
    print()
    print(f"== missed calling files (first {most} per language; every kind) ==")
    for lang in sorted(by_lang):
        shown = 0
        for q in by_lang[lang]:
            missed = [p for p in q.calling if p not in q.results]
            if len(q.calling) > 10 or not missed:
                continue
            for p in missed[:2]:
                lines = facts[(q.project, p)].calls.get(q.name, [])
                text = ""
                if lines:
                    try:
                        text = (roots[q.project] / p).read_text(errors="replace").splitlines()[lines[0] - 1].strip()[:120]
                    except (OSError, IndexError):
                        pass
                print(f"  {lang:<10} {q.name:<24} {p}:{lines[0] if lines else '?'}  {text}")
                shown += 1
            if shown >= most:
                break
    print()
    print(f"== returned files that never use the name (first {most} per language) ==")
    for lang in sorted(by_lang):
        shown = 0
        for q in by_lang[lang]:
            for p in q.results[:10]:
                f = facts.get((q.project, p))
                if f is None or q.name not in f.words:
                    print(f"  {lang:<10} {q.name:<24} {p}")
                    shown += 1
            if shown >= most:
                break


def cmd_run(args: argparse.Namespace) -> None:
    """The oracle, the look-ups (stored template, then MCP) and the tables."""
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    os_ = OpenSearch(args.opensearch)
    roots = {Path(p).name: Path(p).resolve() for p in args.projects}
    indexed = relevance.indexed_files(args.opensearch, args.prefix, roots)
    lookups: list[Lookup] = []
    facts: dict[tuple[str, str], FileFacts] = {}
    for proj, root in roots.items():
        lang = next((l for l in DEFAULT_LANGS if proj == l or proj.startswith(l + "-")), None)
        if lang is None:
            log(f"{proj}: no language known for it, skipped")
            continue
        lookups += project_lookups(proj, root, lang, indexed[proj], work, args, facts)
    template = f"{args.prefix}_find_references_v{args.version}"
    run_templates(os_, lookups, project_aliases(os_, args.prefix), roots, template)
    mcp_done = False
    if args.mcp:
        import asyncio
        quiet_mcp_logs()
        mcp_done = asyncio.run(run_mcp(args.mcp, lookups, roots))

    by_lang: dict[str, list[Lookup]] = defaultdict(list)
    for q in lookups:
        by_lang[q.lang].append(q)
    cols = COLUMNS + (MCP_COLUMNS if mcp_done else [])
    rows = [table_row(lang, by_lang[lang], facts, mcp_done) for lang in sorted(by_lang)]
    rows.append(table_row("all", lookups, facts, mcp_done))
    print_table(cols, rows, score(lookups, facts, "results"))
    if args.misses:
        print_misses(by_lang, facts, roots, args.misses)
    if args.json:
        args.json.write_text(json.dumps({"lookups": [asdict(q) for q in lookups], "columns": cols, "rows": rows}, indent=1))


def query_patterns(text: str) -> list[tuple[bool, str]]:
    """A query file cut into (is_pattern, text) pieces: top-level patterns
    and the comments and blank lines between them."""
    out: list[tuple[bool, str]] = []
    i, n, depth, start = 0, len(text), 0, 0
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == ";":
            j = text.find("\n", i)
            i = n - 1 if j < 0 else j - 1
            if depth == 0:
                out.append((False, text[start:i + 1]))
                start = i + 1
        elif c in "([":
            if depth == 0 and text[start:i].strip():
                out.append((False, text[start:i]))
                start = i
            elif depth == 0:
                out.append((False, text[start:i]))
                start = i
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                # Quantifiers and captures after the closing bracket belong to it.
                m = re.compile(r"([*+?]|\s*@[\w.]+)*").match(text, i + 1)
                i = m.end() - 1
                out.append((True, text[start:i + 1]))
                start = i + 1
        i += 1
    out.append((False, text[start:]))
    return [(p, t) for p, t in out if t]


def cmd_norefs(args: argparse.Namespace) -> None:
    """Copy the query files without their `@reference.call/type/import` patterns."""
    args.dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(args.src.glob("*.scm")):
        pieces = query_patterns(f.read_text())
        refs = re.compile(r"@reference\.(call|type|import)\b")
        kept = [t for p, t in pieces if not (p and refs.search(t))]
        (args.dst / f.name).write_text("".join(kept))
        dropped = sum(1 for p, t in pieces if p and refs.search(t))
        log(f"{f.name}: {dropped} reference patterns left out")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    add_corpus_parser(sub, "REFS_CAP", 600, "REFS_LANGS", DEFAULT_LANGS)
    r = sub.add_parser("run")
    r.add_argument("--opensearch", default=opensearch_url())
    r.add_argument("--prefix", required=True)
    r.add_argument("--version", required=True, help="TEMPLATE_VERSION of the installed templates")
    r.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "vibe-references")
    r.add_argument("--n", type=int, default=int(os.environ.get("REFS_N", "100")))
    r.add_argument("--seed", type=int, default=int(os.environ.get("REFS_SEED", "1")))
    r.add_argument("--mcp", help="an MCP URL: also call tools/call find_references when the server has it")
    r.add_argument("--json", type=Path)
    r.add_argument("--misses", type=int, default=0)
    r.add_argument("projects", nargs="+")
    q = sub.add_parser("norefs", help="copy query files without their @reference.* patterns")
    q.add_argument("src", type=Path)
    q.add_argument("dst", type=Path)
    args = ap.parse_args()
    {"corpus": cmd_corpus, "run": cmd_run, "norefs": cmd_norefs}[args.cmd](args)


if __name__ == "__main__":
    main()
