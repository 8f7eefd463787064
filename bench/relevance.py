#!/usr/bin/env python3
"""Relevance, latency and answer size of the code searches through MCP, with a
whole-word grep baseline on the same queries (driven by bench/relevance.sh).

Two subcommands:

  corpus --out DIR [--cap N] [PROJECT...]
      Copies a deterministic subset (at most --cap source files each, chosen
      by a hash of the relative path) of each project to DIR/<name>/ and
      prints the copies, one a line. Without PROJECT: $RELEVANCE_PROJECTS, else
      the corpora of bench/corpora.sh under $VIBE_CORPORA (default
      ~/.cache/vibe-bench/corpora) for $RELEVANCE_LANGS (default python, java,
      javascript, go, rust); a missing one is built by corpora.sh
      (bench/relevance_corpus.py).

  run --url URL --opensearch URL --prefix P PROJECT...
      Oracle: universal-ctags on the files the index holds. Samples up to
      $RELEVANCE_N names per language and tool, calls the tool once per name
      ({"query": name}, default limit, one MCP session, sequential), greps
      every name whole-word over the same files (one ripgrep pass, counted as
      `rg -w -c` would count), and prints
      recall@1, recall@3, MRR, empty answers, latency p50/p95 and answer bytes
      per tool x language, with grep's figures and the deltas.
      --json FILE writes every look-up and the table; --misses N prints up to
      N failed look-ups per tool and language.

Needs the `mcp` SDK (tests/mcp/.venv) for `run`; `corpus` needs only Python.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchlib import McpSession, ast_aliases, logger, opensearch_url, os_scroll, pct, quiet_mcp_logs
from relevance_corpus import RELEVANCE, add_corpus_parser, cmd_corpus

TOOLS = ("search_by_code_functions", "search_by_code_classes", "search_by_code_variables")
SHORT = {"search_by_code_functions": "functions", "search_by_code_classes": "classes", "search_by_code_variables": "variables"}

# ctags kind (full name, `--fields=+K`) -> tool, per ctags language.
FUNCS, CLASSES, VARS = TOOLS
KINDS: dict[str, dict[str, str]] = {
    "Python": {"function": FUNCS, "member": FUNCS, "class": CLASSES, "variable": VARS},
    "Java": {"method": FUNCS, "class": CLASSES, "interface": CLASSES, "enum": CLASSES,
             "field": VARS, "enumConstant": VARS},
    "JavaScript": {"function": FUNCS, "method": FUNCS, "generator": FUNCS, "class": CLASSES,
                   "variable": VARS, "constant": VARS, "field": VARS},
    "TypeScript": {"function": FUNCS, "method": FUNCS, "generator": FUNCS, "class": CLASSES,
                   "interface": CLASSES, "enum": CLASSES, "variable": VARS, "constant": VARS,
                   "property": VARS, "enumerator": VARS},
    "Go": {"func": FUNCS, "struct": CLASSES, "interface": CLASSES, "var": VARS, "const": VARS,
           "member": VARS},
    "Rust": {"function": FUNCS, "method": FUNCS, "struct": CLASSES, "enum": CLASSES,
             "interface": CLASSES, "union": CLASSES, "variable": VARS, "constant": VARS,
             "field": VARS, "enumerator": VARS},
    "Kotlin": {"method": FUNCS, "class": CLASSES, "interface": CLASSES, "object": CLASSES,
               "variable": VARS, "constant": VARS},
    "Sh": {"function": FUNCS},
    "C#": {"method": FUNCS, "class": CLASSES, "struct": CLASSES, "interface": CLASSES, "enum": CLASSES,
           "field": VARS, "property": VARS},
    # (Scala and Zig: the regex parsers of bench/ctags/, ctags 5.9 has none)
    "Scala": {"method": FUNCS, "class": CLASSES, "trait": CLASSES, "object": CLASSES},
    "Haskell": {"function": FUNCS, "type": CLASSES},
    "Zig": {"function": FUNCS, "container": CLASSES},
    "C": {"function": FUNCS, "struct": CLASSES, "union": CLASSES, "enum": CLASSES},
    "C++": {"function": FUNCS, "class": CLASSES, "struct": CLASSES, "union": CLASSES, "enum": CLASSES},
    "PHP": {"function": FUNCS, "class": CLASSES, "interface": CLASSES, "trait": CLASSES},
    "Ruby": {"method": FUNCS, "singletonMethod": FUNCS, "class": CLASSES, "module": CLASSES},
    "Lua": {"function": FUNCS},
    "Elixir": {"function": FUNCS, "module": CLASSES},
}
HASKELL_MISREADS = {"class", "data", "family", "instance", "newtype", "pattern", "type", "infix", "infixl", "infixr"}
# ctags' options: the regex parsers standing in for the languages it lacks.
CTAGS_OPTIONS = [f"--options={p}" for p in sorted((Path(__file__).parent / "ctags").glob("*.ctags"))]

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Names ctags makes up for anonymous functions, classes, structs...
ANON = re.compile(r"(AnonymousFunction|__anon|anon(Func|Class|Object|Struct|Enum|Union|Type)[0-9a-f])")

log = logger("relevance")


# ---------------------------------------------------------------------------
# run: index listing, oracle, grep
# ---------------------------------------------------------------------------


def indexed_files(base: str, prefix: str, roots: dict[str, Path]) -> dict[str, set[str]]:
    """{project: {relative path}} of the analysis documents in the index."""
    by_root = {str(p): n for n, p in roots.items()}
    out: dict[str, set[str]] = {n: set() for n in roots}
    body = {"size": 2000, "_source": ["root", "path"], "query": {"match_all": {}}, "sort": ["_doc"]}
    for h in os_scroll(base, ast_aliases(prefix), body):
        s = h["_source"]
        name = by_root.get(str(s.get("root", "")).rstrip("/"))
        if name is not None:
            out[name].add(s["path"])
    return out


@dataclass
class Lookup:
    tool: str
    lang: str
    name: str
    relevant: list[str]  # "project/path"
    kind: str = ""  # the most frequent ctags kind of the name's definitions in `lang` (this tool)
    defs: list[str] = field(default_factory=list)  # "project/path:line kind", first 5
    results: list[str] = field(default_factory=list)
    first_match: str = ""
    latency_ms: float = 0.0
    bytes: int = 0
    error: str = ""
    grep: list[str] = field(default_factory=list)
    grep_files: int = 0


def js_class_tool(t: dict) -> str:
    """ctags' JavaScript/TypeScript parsers call `class` three things: a real
    class (`class X`, `X = class`), an ES5 constructor (`function X(` with
    prototype members) and an object literal (`const X = {`). Only the first is
    a class; a constructor is counted as a function, a literal as a variable."""
    pat = t.get("pattern", "")
    name = re.escape(t.get("name", ""))
    if re.search(rf"\bclass\s+{name}\b|\b{name}\s*=\s*class\b", pat):
        return CLASSES
    if re.search(r"\bfunction\b", pat):
        return FUNCS
    return VARS


def ctags_tags(root: Path, files: set[str], fields: str, lst: Path):
    """universal-ctags' tags (JSON objects) of the files, paths relative to
    root; lst receives the file list."""
    lst.write_text("".join(p + "\n" for p in sorted(files)), encoding="utf-8")
    r = subprocess.run(["ctags", *CTAGS_OPTIONS, f"--fields={fields}", "--sort=no", "--output-format=json", "-f", "-",
                        "-L", str(lst)],
                       cwd=root, capture_output=True, text=True, errors="replace")
    if r.returncode != 0:
        sys.exit(f"ctags failed on {root}: {r.stderr[-1000:]}")
    for line in r.stdout.splitlines():
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("_type") == "tag":
            yield t


def ctags_definitions(roots: dict[str, Path], files: dict[str, set[str]], work: Path):
    """{(lang, tool): {name}} and {(tool, name): {"project/path": [(line, kind)]}}
    from universal-ctags, on the indexed files only."""
    names: dict[tuple[str, str], set[str]] = defaultdict(set)
    where: dict[tuple[str, str], dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for proj, root in roots.items():
        for t in ctags_tags(root, files[proj], "+nKzls", work / f"ctags-{proj}.lst"):
            lang, kind, name = t.get("language"), t.get("kind"), t.get("name", "")
            tool = KINDS.get(lang, {}).get(kind)
            if tool is None or len(name) < 3 or not IDENT.match(name) or ANON.match(name):
                continue
            if lang == "Haskell" and (name in HASKELL_MISREADS or (tool == FUNCS and name[0].isupper())):
                continue  # ctags names a declaration after its keyword, or a type in a signature a function
            if kind == "class" and lang in ("JavaScript", "TypeScript"):
                tool = js_class_tool(t)
                if tool != CLASSES:
                    kind = "constructor" if tool == FUNCS else "object"
            if tool == VARS and lang in ("JavaScript", "TypeScript") and kind in ("variable", "constant", "object") \
                    and re.match(r"/\^\s", t.get("pattern", "")):
                # An indented `var x` / `x = {...}`: inside a function (ctags
                # loses IIFE wrappers and calls functions classes), a local,
                # not module-level. Class fields (`field`, `property`) stay.
                continue
            if tool == VARS and re.search(r"=\s*\\?/\*\s*[@#]__PURE__\s*\*\\?/\s*" + re.escape(name) + r"\b", t.get("pattern", "")):
                continue  # ctags names `const x = /*@__PURE__*/ f(…)` after the call `f`
            if tool == VARS and t.get("scopeKind") in ("method", "function", "constructor", "getter", "setter"):
                continue  # a local by ctags' own scope (Kotlin `val` in a function)
            names[(lang, tool)].add(name)
            where[(tool, name)][f"{proj}/{t['path'].removeprefix('./')}"].append((t.get("line", 0), kind, lang))
    return names, where


def sample(names, where, n: int, seed: int) -> list[Lookup]:
    out = []
    for (lang, tool) in sorted(names, key=lambda k: (TOOLS.index(k[1]), k[0])):
        cands = sorted(x for x in names[(lang, tool)] if len(where[(tool, x)]) <= 5)
        rng = random.Random(f"{seed}/{lang}/{tool}")
        for name in rng.sample(cands, min(n, len(cands))):
            w = where[(tool, name)]
            kinds = Counter(k for defs in w.values() for _, k, lg in defs if lg == lang)
            kind = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            defs = [f"{f}:{line} {k}" for f in sorted(w) for line, k, _ in sorted(w[f])][:5]
            out.append(Lookup(tool, lang, name, sorted(w), kind=kind, defs=defs))
    return out


def grep_all(lookups: list[Lookup], roots: dict[str, Path], indexed: set[str], work: Path, k: int) -> None:
    """Whole-word grep of every name over the indexed files, ranked by matching
    lines desc, then path: the same as one `rg -w -c -F NAME` per name, done in
    one `rg -w -F -o -n -f NAMES` pass (whole-word matches cannot overlap, so
    every match is reported under its own name)."""
    pats = work / "names.txt"
    pats.write_text("".join(sorted({q.name + "\n" for q in lookups})), encoding="utf-8")
    r = subprocess.run(["rg", "-w", "-F", "-o", "-n", "--with-filename", "--no-ignore", "--hidden", "--no-messages",
                        "--no-heading", "-f", str(pats), *(str(p) for p in roots.values())],
                       capture_output=True, text=True, errors="replace")
    by_root = sorted(((str(p) + "/", n) for n, p in roots.items()), key=lambda x: -len(x[0]))
    lines: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # name -> file -> lines
    for out in r.stdout.splitlines():
        rest, _, name = out.rpartition(":")
        path, _, line = rest.rpartition(":")
        for prefix, n in by_root:
            if path.startswith(prefix):
                f = f"{n}/{path[len(prefix):]}"
                if f in indexed:
                    lines[name][f].add(line)
                break
    for q in lookups:
        counts = sorted((-len(v), f) for f, v in lines.get(q.name, {}).items())
        q.grep_files = len(counts)
        q.grep = [f for _, f in counts[:k]]


# ---------------------------------------------------------------------------
# run: MCP
# ---------------------------------------------------------------------------


def result_list(answer) -> list[dict]:
    """The ranked file entries of an answer: `results`, else the first list of
    objects with a `path` found breadth-first."""
    if isinstance(answer, dict) and isinstance(answer.get("results"), list):
        return [x for x in answer["results"] if isinstance(x, dict)]
    queue = [answer]
    while queue:
        v = queue.pop(0)
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v) and any("path" in x or "file" in x for x in v):
            return v
        if isinstance(v, dict):
            queue.extend(v.values())
        elif isinstance(v, list):
            queue.extend(v)
    return []


def first_signature(entry: dict) -> str:
    """The first matching element of a file entry, for the misses listing:
    `matches` (or the first other list of objects, as in the older per-kind
    lists `functions`, `classes`...), shown as kind, name, signature, line."""
    lists = [("matches", entry.get("matches"))] + [(k, v) for k, v in entry.items() if k != "matches"]
    for key, v in lists:
        if not isinstance(v, list) or not v or key == "header_comments":
            continue
        x = v[0]
        if isinstance(x, str):
            return f"{key}: {x.splitlines()[0][:100]}" if x.strip() else ""
        if not isinstance(x, dict):
            continue
        kind = x.get("kind") or ("" if key == "matches" else key)
        sig = x.get("signature") or x.get("text") or ""
        name = x.get("name") or ""
        line = x.get("lines") or x.get("line")
        if isinstance(line, dict):
            line = line.get("start")
        text = " ".join(str(p) for p in (kind + ":" if kind else "", name if not sig or name not in str(sig) else "",
                                          str(sig).splitlines()[0][:100] if sig else "") if p)
        if line:
            text += f" (line {line})"
        return text or "(a match without name or signature)"
    return ""


class Resolver:
    """Maps an answer's (project, path) to "project/path" of the corpus."""

    def __init__(self, roots: dict[str, Path], files: dict[str, set[str]]):
        self.roots = roots
        self.files = files
        self.keys: dict[str, str] = {}
        for n, p in roots.items():
            self.keys[str(p)] = n
            self.keys[str(p).rstrip("/") + "/"] = n
            self.keys[p.name] = n
            self.keys[n] = n

    def __call__(self, entry: dict) -> str | None:
        path = str(entry.get("path") or entry.get("file") or "")
        proj = entry.get("project") or entry.get("root") or entry.get("source") or ""
        if isinstance(proj, dict):
            proj = proj.get("root") or proj.get("name") or ""
        proj = str(proj)
        if path.startswith("/"):
            for n, p in self.roots.items():
                if path.startswith(str(p) + "/"):
                    return f"{n}/{path[len(str(p)) + 1:]}"
        name = self.keys.get(proj) or self.keys.get(proj.rstrip("/")) or self.keys.get(Path(proj).name if proj else "")
        if name:
            return f"{name}/{path}"
        owners = [n for n, fs in self.files.items() if path in fs]
        if len(owners) == 1:
            return f"{owners[0]}/{path}"
        return f"?{proj}/{path}" if path else None


async def run_mcp(url: str, lookups: list[Lookup], resolve: Resolver, limit: int | None) -> dict:
    sample_answer = None
    async with McpSession(url) as mcp:
        # One warm-up call per tool, not measured.
        for tool in TOOLS:
            await mcp.call(tool, {"query": "warmup"})
        for i, q in enumerate(lookups):
            args = {"query": q.name}
            if limit is not None:
                args["limit"] = limit
            c = await mcp.call(q.tool, args)
            q.latency_ms, q.bytes, q.error = c.latency_ms, c.bytes, c.error or ""
            if c.error:
                continue
            answer = c.answer
            if sample_answer is None and answer:
                sample_answer = answer
            entries = result_list(answer)
            seen = []
            for e in entries:
                f = resolve(e)
                if f and f not in seen:
                    seen.append(f)
            q.results = seen
            if entries:
                q.first_match = first_signature(entries[0])
            if (i + 1) % 250 == 0:
                log(f"{i + 1}/{len(lookups)} look-ups")
    return sample_answer or {}


# ---------------------------------------------------------------------------
# run: metrics
# ---------------------------------------------------------------------------


def rank_of(ranked: list[str], relevant: set[str], top: int = 10) -> int:
    for i, f in enumerate(ranked[:top]):
        if f in relevant:
            return i + 1
    return 0


def metrics(qs: list[Lookup]) -> dict:
    n = len(qs)
    def rel(q, ranked):
        return rank_of(ranked, set(q.relevant))
    m = {"n": n}
    for label, get in (("mcp", lambda q: q.results), ("grep", lambda q: q.grep)):
        ranks = [rel(q, get(q)) for q in qs]
        m[label] = {
            "r1": sum(1 for r in ranks if r == 1) / n if n else float("nan"),
            "r3": sum(1 for r in ranks if 1 <= r <= 3) / n if n else float("nan"),
            "mrr": sum(1 / r for r in ranks if r) / n if n else float("nan"),
            "empty": sum(1 for q in qs if not get(q) and not q.error),
        }
    lat = [q.latency_ms for q in qs if not q.error]
    size = [q.bytes for q in qs if not q.error]
    m["mcp"].update({
        "errors": sum(1 for q in qs if q.error),
        "p50_ms": pct(lat, 50), "p95_ms": pct(lat, 95),
        "bytes_median": statistics.median(size) if size else float("nan"),
        "bytes_max": max(size) if size else float("nan"),
    })
    return m


def table(groups: list[tuple[str, str, dict]]) -> str:
    head = ("tool", "lang", "n", "R@1", "R@3", "MRR", "empty", "err", "p50 ms", "p95 ms", "bytes med", "bytes max",
            "grep R@1", "grep R@3", "grep MRR", "dR@1", "dR@3", "dMRR")
    rows = [head]
    for tool, lang, m in groups:
        a, g = m["mcp"], m["grep"]
        rows.append((
            tool, lang, str(m["n"]), f"{a['r1']:.2f}", f"{a['r3']:.2f}", f"{a['mrr']:.2f}", str(a["empty"]), str(a["errors"]),
            f"{a['p50_ms']:.1f}", f"{a['p95_ms']:.1f}", f"{a['bytes_median']:.0f}", f"{a['bytes_max']:.0f}",
            f"{g['r1']:.2f}", f"{g['r3']:.2f}", f"{g['mrr']:.2f}",
            f"{a['r1'] - g['r1']:+.2f}", f"{a['r3'] - g['r3']:+.2f}", f"{a['mrr'] - g['mrr']:+.2f}",
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def indexed_or_copied(args: argparse.Namespace, roots: dict[str, Path]) -> dict[str, set[str]]:
    """The files each project's index holds (the copy's files when nothing is indexed)."""
    files = indexed_files(args.opensearch.rstrip("/"), args.prefix, roots)
    for n in roots:
        on_disk = sum(1 for _ in roots[n].rglob("*") if _.is_file())
        log(f"{n}: {len(files[n])} files indexed ({on_disk} in the copy)")
        if not files[n]:
            log(f"{n}: nothing indexed; listing the copy instead")
            files[n] = {str(p.relative_to(roots[n])) for p in roots[n].rglob("*") if p.is_file()}
    return files


ByToolLang = dict[tuple[str, str], list[Lookup]]


def grouped_metrics(lookups: list[Lookup]) -> tuple[ByToolLang, list[tuple[str, str, dict]]]:
    """The look-ups by (tool, language), and the metrics per tool x language, per tool and overall."""
    by: ByToolLang = defaultdict(list)
    for q in lookups:
        by[(q.tool, q.lang)].append(q)
    groups = []
    for tool in TOOLS:
        tool_qs = [q for q in lookups if q.tool == tool]
        for (t, lang), qs in sorted(by.items()):
            if t == tool:
                groups.append((SHORT[tool], lang, metrics(qs)))
        if tool_qs:
            groups.append((SHORT[tool], "all", metrics(tool_qs)))
    groups.append(("all", "all", metrics(lookups)))
    return by, groups


def in_tool_order(by: ByToolLang):
    return sorted(by.items(), key=lambda kv: (TOOLS.index(kv[0][0]), kv[0][1]))


def print_kinds(by: ByToolLang) -> None:
    print()
    print("recall@3 by ctags kind (the most frequent kind of the name's definitions): MCP / grep, n")
    for (tool, lang), qs in in_tool_order(by):
        kinds: dict[str, list[Lookup]] = defaultdict(list)
        for q in qs:
            kinds[q.kind].append(q)
        parts = []
        for kind, kq in sorted(kinds.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            m = metrics(kq)
            parts.append(f"{kind} {m['mcp']['r3']:.2f}/{m['grep']['r3']:.2f} n={m['n']}")
        print(f"  {SHORT[tool]:<9}  {lang:<10}  " + "; ".join(parts))


def print_misses(by: ByToolLang, most: int) -> None:
    print()
    print(f"misses (no relevant file in the answer), up to {most} per tool and language:")
    for (tool, lang), qs in in_tool_order(by):
        bad = [q for q in qs if not rank_of(q.results, set(q.relevant))]
        if not bad:
            continue
        print(f"\n{SHORT[tool]} / {lang}: {len(bad)} of {len(qs)} missed")
        for q in bad[:most]:
            exp = ", ".join(q.defs[:2]) + (f" (+{len(q.relevant) - 2} files)" if len(q.relevant) > 2 else "")
            g = rank_of(q.grep, set(q.relevant))
            first = q.error or (q.results[0] if q.results else "(empty)")
            extra = f" [{q.first_match}]" if q.first_match and not q.error else ""
            print(f"  {q.name!r}: expected {exp}; got {first}{extra}; grep rank {g or '-'}")


def write_json(args: argparse.Namespace, roots, files, k: int, groups, lookups: list[Lookup]) -> None:
    out = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "projects": {n: {"root": str(roots[n]), "files": len(files[n])} for n in roots},
        "n": args.n, "seed": args.seed, "k": k, "limit": args.limit,
        "table": [{"tool": t, "lang": l, **m} for t, l, m in groups],
        "lookups": [asdict(q) for q in lookups],
    }
    args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    log(f"wrote {args.json}")


def cmd_run(args: argparse.Namespace) -> None:
    """Samples the look-ups from ctags, runs them through MCP and grep, and prints the tables."""
    quiet_mcp_logs()
    t0 = time.monotonic()
    roots = {Path(p).name: Path(p).resolve() for p in args.projects}
    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    files = indexed_or_copied(args, roots)
    total = sum(len(v) for v in files.values())

    names, where = ctags_definitions(roots, files, work)
    lookups = sample(names, where, args.n, args.seed)
    log(f"{len(lookups)} look-ups sampled from {sum(len(v) for v in names.values())} names "
        f"(ctags, {time.monotonic() - t0:.0f} s)")

    t1 = time.monotonic()
    answer = asyncio.run(run_mcp(args.url, lookups, Resolver(roots, files), args.limit))
    mcp_s = time.monotonic() - t1
    log(f"MCP: {len(lookups)} calls in {mcp_s:.0f} s")
    if args.show_answer:
        print(json.dumps(answer, indent=2, ensure_ascii=False)[:4000], file=sys.stderr)

    k = args.limit or args.k
    t2 = time.monotonic()
    indexed = {f"{n}/{p}" for n, fs in files.items() for p in fs}
    grep_all(lookups, roots, indexed, work, k)
    grep_s = time.monotonic() - t2
    log(f"grep: {len(lookups)} searches in {grep_s:.0f} s")

    by, groups = grouped_metrics(lookups)
    print(f"corpus: {total} indexed files in {len(roots)} projects: "
          + ", ".join(f"{n} {len(files[n])}" for n in roots))
    print(f"look-ups: {len(lookups)} (up to {args.n} per tool and language, seed {args.seed}); "
          f"answers hold at most {k} files (limit {'default' if args.limit is None else args.limit}); "
          f"grep cut to the same {k}")
    print()
    print(table(groups))
    print_kinds(by)
    if args.misses:
        print_misses(by, args.misses)
    log(f"run: {time.monotonic() - t0:.0f} s (MCP {mcp_s:.0f} s, grep {grep_s:.0f} s)")
    if args.json:
        write_json(args, roots, files, k, groups, lookups)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    add_corpus_parser(sub, **RELEVANCE)
    r = sub.add_parser("run")
    r.add_argument("--url", required=True)
    r.add_argument("--opensearch", default=opensearch_url())
    r.add_argument("--prefix", required=True)
    r.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "vibe-relevance")
    r.add_argument("--n", type=int, default=int(os.environ.get("RELEVANCE_N", "100")))
    r.add_argument("--seed", type=int, default=int(os.environ.get("RELEVANCE_SEED", "1")))
    r.add_argument("--limit", type=int, default=int(os.environ["RELEVANCE_LIMIT"]) if os.environ.get("RELEVANCE_LIMIT") else None,
                   help="pass this limit to every call (default: none, the tool's default)")
    r.add_argument("--k", type=int, default=3, help="the tool's default limit (grep is cut to it)")
    r.add_argument("--json", type=Path)
    r.add_argument("--misses", type=int, default=0)
    r.add_argument("--show-answer", action="store_true", help="print the first non-empty answer")
    r.add_argument("projects", nargs="+")
    args = ap.parse_args()
    {"corpus": cmd_corpus, "run": cmd_run}[args.cmd](args)


if __name__ == "__main__":
    main()
