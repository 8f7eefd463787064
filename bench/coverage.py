#!/usr/bin/env python3
"""Definition coverage of `vibe-analyzer scan ast` against universal-ctags.

Run by bench/coverage.sh, which leaves in WORKDIR, for each language LANG,
LANG.ast.json (the `scan ast --format json` export of the corpus) and LANG.tags
(`ctags --output-format=json` over the same tree). For every ctags tag of a
definition kind (KINDS below; after the noise filters in `counted`), the tag
is found when the AST export of the same file has an element with the same
name whose line range starts at the tag's line or up to SLACK lines before it
(decorators, annotations and doc comments), or further up when the lines in
between hold no body and no end of statement (`{`, `}`, `;`, `=` outside
parentheses; comment lines skipped): long annotation stacks. Elements
without a `name` field are matched by the name as a whole word in their
`signature`.

    coverage.py WORKDIR CORPORA LANG... [--missed N] [--json OUT]
"""
import argparse
import collections
import functools
import json
import keyword
import re
import sys

SLACK = 3

# ctags kinds counted per language (ctags --list-kinds-full=<CtagsLang>).
# Not counted anywhere: imports, packages, namespaces, modules, locals,
# parameters, labels (except Batch, where labels are the functions), heredocs,
# Rust `impl` blocks, macros of C#.
KINDS = {
    "python": {"class", "function", "member", "variable"},
    "go": {"func", "struct", "interface", "type", "talias", "const", "var", "member",
           "anonMember", "methodSpec"},
    "rust": {"function", "method", "struct", "enum", "enumerator", "interface", "typedef",
             "field", "variable", "macro"},
    "java": {"class", "interface", "enum", "annotation", "method", "field", "enumConstant"},
    "kotlin": {"class", "interface", "object", "method", "variable", "constant", "typealias"},
    "javascript": {"function", "generator", "class", "method", "getter", "setter", "field",
                   "variable", "constant"},
    "typescript": {"function", "generator", "class", "interface", "enum", "enumerator",
                   "method", "property", "variable", "constant", "alias"},
    "bash": {"function", "alias"},
    "csharp": {"class", "struct", "interface", "enum", "enumerator", "method", "property",
               "field", "event"},
    "batch": {"label", "variable"},
    "c": {"macro", "enumerator", "function", "enum", "member", "struct", "typedef", "union", "variable"},
    "cpp": {"class", "macro", "enumerator", "function", "enum", "member", "struct", "typedef", "union",
            "variable"},
    "php": {"class", "define", "function", "interface", "trait", "variable"},
    "ruby": {"accessor", "constant", "singletonMethod", "alias", "class", "method", "module"},
    "lua": {"function"},
    # (not `test`: ExUnit's `test "name" do` blocks are no definitions here)
    "elixir": {"macro", "callback", "delegate", "exception", "function", "guard", "implementation", "module",
               "operator", "protocol", "record", "type"},
    # (bench/ctags/scala.ctags and zig.ctags: ctags 5.9 has no parser of its own for them)
    "scala": {"class", "trait", "object", "method", "type"},
    "haskell": {"function", "type", "constructor"},
    "zig": {"function", "container", "constant"},
}
# Variable-like kinds inside a function-like scope are locals (a Python
# scope `member` is a method).
VAR_KINDS = {"variable", "constant", "var", "const", "field", "property", "alias"}
FUNC_SCOPES = {"function", "method", "func", "generator", "getter", "setter", "member"}
# Kinds that name data (the rest name code: functions, methods, types, labels).
DATA_KINDS = {"variable", "constant", "var", "const", "field", "property", "anonMember",
              "enumerator", "enumConstant", "event"}
GENERATED_NAME = re.compile(r"^(AnonymousFunction|__anon|<lambda>)|=|^\W+$")

# A line that holds only a comment (or a Rust attribute / C# #if for HEADER).
COMMENT = re.compile(r"^\s*(#(?!\[)|//|/\*|\*(\s|/|$)|@?rem\b|::)", re.I)
HEADER_COMMENT = re.compile(r"^\s*(#|//|/\*|\*(\s|/|$)|$)")


def misread(lang, kind, name):
    """Names ctags takes from misread lines: Python's `else: x = 1`, Rust's
    `const A: &'static str`, zsh's `alias -g` (an option, not a name); and
    Go's blank identifier."""
    return (lang == "python" and keyword.iskeyword(name)) or (lang == "go" and name == "_") \
        or (lang == "bash" and kind == "alias" and name.startswith("-")) \
        or (lang == "rust" and kind == "variable" and name in ("str", "Self")) \
        or (lang == "haskell" and name in HASKELL_KEYWORDS)


# ctags' Haskell parser names some declarations after their keyword
# (`class C a => D a`, `type family F`, `pattern P`, `infixl 6 <+>`).
HASKELL_KEYWORDS = {"class", "data", "deriving", "family", "foreign", "import", "infix", "infixl", "infixr",
                    "instance", "newtype", "pattern", "type", "where"}


HEREDOC = re.compile(r"<<(-?)\s*(?:\\([A-Za-z_]\w*)|(['\"]?)([A-Za-z_]\w*)\3)")


@functools.lru_cache(maxsize=64)
def shell_text_lines(path):
    """Lines (1-based) of a shell script that lie inside a heredoc body or
    begin inside a quoted string opened on an earlier line: text, not code.
    ctags reads `name() {` there (awk programs, help texts, eval'd strings,
    generated scripts). A plain lexer of quotes, escapes, comments and
    heredoc delimiters, independent of the tree-sitter grammar under test."""
    lines = source_lines(path)
    inside, quote, pending, i = set(), None, [], 0
    while i < len(lines):
        if pending:
            for strip, word in pending:
                while i < len(lines) and (lines[i].lstrip("\t") if strip else lines[i]) != word:
                    inside.add(i + 1)
                    i += 1
                i += 1
            pending = []
            continue
        line = lines[i]
        if quote:
            inside.add(i + 1)
        j = 0
        while j < len(line):
            c = line[j]
            if quote:
                if c == "\\" and quote == '"':
                    j += 2
                    continue
                if c == quote:
                    quote = None
            elif c == "#" and (j == 0 or line[j - 1] in " \t;|&("):
                break
            elif c == "\\":
                j += 2
                continue
            elif c in "'\"":
                quote = c
            elif line.startswith("<<", j) and not line.startswith("<<<", j):
                m = HEREDOC.match(line, j)
                if m:
                    pending.append((m.group(1) == "-", m.group(2) or m.group(4)))
                    j = m.end()
                    continue
            j += 1
        i += 1
    return frozenset(inside)


@functools.lru_cache(maxsize=64)
def heredoc_lines(path):
    """Lines (1-based) inside an Elixir heredoc (`@doc \"\"\"` … `\"\"\"`,
    also `~S\"\"\"`): documentation, whose code examples ctags tags."""
    inside, text = set(), False
    for i, line in enumerate(source_lines(path), 1):
        if text:
            inside.add(i)
        if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
            text = not text
    return frozenset(inside)


@functools.lru_cache(maxsize=64)
def block_comment_lines(path):
    """Lines (1-based) that start inside a `/* … */` comment: commented-out
    code, which a regex oracle (bench/ctags/scala.ctags) tags."""
    inside, depth = set(), 0
    for i, line in enumerate(source_lines(path), 1):
        if depth:
            inside.add(i)
        depth = max(0, depth + len(re.findall(r"/\*", line)) - len(re.findall(r"\*/", line)))
    return frozenset(inside)


def in_shell_text(lang, tag, corpus):
    if lang == "scala":
        return tag["line"] in block_comment_lines(f"{corpus}/{tag['path']}")
    if lang == "elixir":
        return tag["line"] in heredoc_lines(f"{corpus}/{tag['path']}")
    return lang == "bash" and tag["line"] in shell_text_lines(f"{corpus}/{tag['path']}")


def counted(lang, tag, first_label):
    """True if TAG is a definition this benchmark counts (see README)."""
    kind, scope = tag["kind"], tag.get("scopeKind")
    if kind not in KINDS[lang] or GENERATED_NAME.search(tag["name"]) or misread(lang, kind, tag["name"]):
        return False  # generated or misread names; `a=b` or `*` read as a function
    if COMMENT.match(tag.get("pattern", "/^")[2:]):
        return False  # ctags read a commented-out definition
    if kind in VAR_KINDS and scope in FUNC_SCOPES:
        return False  # a local
    if lang == "csharp" and re.match(r"/\^\s*where\s", tag.get("pattern", "")):
        return False  # a generic constraint (`where T : class`)
    if lang == "java" and scope == "annotation" and kind == "field" and " default " in tag.get("pattern", ""):
        return False  # ctags reads `boolean x() default false;` as a field `false`
    if lang == "kotlin" and scope == "method":
        return False  # lambdas, loop variables, locals
    indented = tag.get("pattern", "/^").startswith(("/^ ", "/^\t"))
    if lang in ("javascript", "typescript") and kind in VAR_KINDS and scope is None and indented:
        return False  # ctags 5.9 loses the scope of declarations in callbacks and blocks
    if lang in ("javascript", "typescript") and kind in VAR_KINDS and re.search(
            r"=\s*\\?/\*\s*[@#]__PURE__\s*\*\\?/\s*" + re.escape(tag["name"]) + r"\b", tag.get("pattern", "")):
        return False  # ctags names `const x = /*@__PURE__*/ f(…)` after the call `f`
    if lang == "typescript" and kind in VAR_KINDS and re.match(
            r"/\^\s*export\s+\*\s+as\s+" + re.escape(tag["name"]) + r"\b", tag.get("pattern", "")):
        return False  # `export * as ns from "m"` is a re-export, not a definition
    if lang == "javascript" and kind == "class" and not re.search(r"\b(class|function)\b", tag.get("pattern", "")):
        return False  # an object literal that ctags calls a class
    if lang in ("c", "cpp") and kind == "enumerator" and re.match(
            r"/\^\s*" + re.escape(tag["name"]) + r"\s*\(", tag.get("pattern", "")):
        return False  # an enumerator written as a macro call (`CURLOPT(NAME, TYPE, 1)`), named after the macro
    if lang == "lua" and not re.search(r"(^|[^\w.])function\s+[\w.:]+\s*\(|=\s*function\s*\(", tag.get("pattern", "")):
        return False  # ctags reads `x = f(…, function() … end)` or `'function'` in a string as a definition of `x`
    if lang == "batch" and kind == "variable":
        return tag["line"] < first_label.get(tag["path"], 1 << 30)  # the main section only
    return True


def is_data(lang, kind):
    return kind in DATA_KINDS or (lang == "go" and kind == "member")


def norm(name):
    op = re.match(r"operator(?![\w$.])\s*(\(\)|[^(]*)", name)
    if op:  # C++: ctags writes `operator ==`, `operator ()`; the AST `operator==`
        return "operator" + re.sub(r"\s+", "", op.group(1))
    key = re.fullmatch(r"[\w.]*\[\s*(['\"])(.*)\1\s*\]", name)
    if key:  # Lua: a function under a string key, `M["a/b"]` or `["a/b"]`
        name = key.group(2)
    # (`M.f`, `A::B`; Lua's `Obj:method`)
    return name.strip("`'\"!:").rsplit(".", 1)[-1].rsplit("::", 1)[-1].rsplit(":", 1)[-1]


def elements(node):
    """Every element (a dict with a line range) anywhere under NODE."""
    if isinstance(node, dict):
        if isinstance(node.get("line"), dict):
            yield node
        for v in node.values():
            if isinstance(v, (list, dict)):
                yield from elements(v)
    elif isinstance(node, list):
        for v in node:
            yield from elements(v)


def load_ast(path):
    """{file path: ({name: [start lines], (name, "end"): [end lines]}, [(start line, signature) of unnamed elements])}."""
    files = {}
    for src in json.load(open(path))["sources"]:
        for f in src["files"]:
            if f.get("ast") is None:
                continue
            named, unnamed = collections.defaultdict(list), []
            for e in elements(f["ast"]):
                if e.get("name") is not None:
                    named[norm(e["name"])].append(e["line"]["start"])
                    named[(norm(e["name"]), "end")].append(e["line"]["end"])
                else:
                    unnamed.append((e["line"]["start"], e.get("signature", "")))
            files[f["path"]] = (named, unnamed)
    return files


def load_tags(path):
    tags = []
    for line in open(path, encoding="utf-8", errors="replace"):
        t = json.loads(line)
        if t.get("_type") == "tag":
            t["path"] = t["path"].removeprefix("./")
            tags.append(t)
    return tags


def header_only(lines):
    """True if LINES, between an element's start and ctags' line, hold no body
    and no end of statement: only comments, annotations with their arguments,
    modifiers, type parameters."""
    depth = 0
    for line in lines:
        if depth == 0 and HEADER_COMMENT.match(line):
            continue
        for ch in line:
            depth += (ch in "([") - (ch in ")]")
            if depth == 0 and ch in "{};=":
                return False
    return True


def found(tag, elems, path):
    line, name = tag["line"], norm(tag["name"])
    named, unnamed = elems
    word = re.compile(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])")
    starts = named.get(name, []) + [start for start, sig in unnamed if word.search(sig)]
    between = lambda start: source_lines(path)[start - 1:line - 1]
    if path.endswith(".hs"):  # a Haskell signature's lines: its `=>` and `->` end no statement
        between = lambda start: [re.sub(r"=>|->", " ", s) for s in source_lines(path)[start - 1:line - 1]]
    for start in starts:
        if start <= line and (start >= line - SLACK or header_only(between(start))):
            return True
    if tag["kind"] == "typedef" and re.match(r"/\^\s*}", tag.get("pattern", "")):
        # C: ctags tags `typedef struct { … } name;` on its last line, the
        # name's: found when an element of that name spans it.
        return any(s <= line <= e for s, e in zip(named.get(name, []), named.get((name, "end"), [])))
    return False


def measure(lang, workdir, corpus, n_missed):
    ast = load_ast(f"{workdir}/{lang}.ast.json")
    tags = sorted(load_tags(f"{workdir}/{lang}.tags"), key=lambda t: (t["path"], t["line"]))
    first_label = {}
    for t in tags:
        if t["kind"] == "label":
            first_label[t["path"]] = min(t["line"], first_label.get(t["path"], 1 << 30))
    per_kind = collections.defaultdict(lambda: [0, 0])
    per_scope = collections.defaultdict(lambda: [0, 0])  # (kind, scope kind)
    missed, no_ast = [], set()
    in_text = [0, 0]  # ctags tags inside shell text (not counted), and how many the AST has anyway
    equations = set()  # (path, name) of the Haskell functions seen
    for t in tags:
        if not counted(lang, t, first_label):
            continue
        if lang == "haskell" and t["kind"] == "function":
            # ctags tags each equation of a function; the AST has one
            # definition (the signature, else the first equation).
            if (t["path"], t["name"]) in equations:
                continue
            equations.add((t["path"], t["name"]))
        if in_shell_text(lang, t, corpus):
            in_text[0] += 1
            in_text[1] += ast.get(t["path"]) is not None and found(t, ast[t["path"]], f"{corpus}/{t['path']}")
            continue
        elems = ast.get(t["path"])
        if elems is None:
            no_ast.add(t["path"])
        hit = elems is not None and found(t, elems, f"{corpus}/{t['path']}")
        per_kind[t["kind"]][0] += 1
        per_kind[t["kind"]][1] += hit
        per_scope[t["kind"], t.get("scopeKind") or "top level"][0] += 1
        per_scope[t["kind"], t.get("scopeKind") or "top level"][1] += hit
        if not hit:
            missed.append(f"{t['path']}:{t['line']} {t['kind']} {t['name']}")
    missed.sort()
    step = max(1, len(missed) // n_missed) if n_missed else 1
    sample = missed[::step][:n_missed]
    total = sum(v[0] for v in per_kind.values())
    hits = sum(v[1] for v in per_kind.values())
    return {"files_with_ast": len(ast), "files_tagged_without_ast": sorted(no_ast),
            "kinds": {k: {"ctags": v[0], "found": v[1],
                          "scopes": {sc: {"ctags": n, "found": f} for (kk, sc), (n, f) in sorted(per_scope.items()) if kk == k}}
                      for k, v in sorted(per_kind.items())},
            "ctags": total, "found": hits, "missed": len(missed), "missed_sample": sample,
            "in_shell_text": {"ctags": in_text[0], "found": in_text[1]}}


@functools.lru_cache(maxsize=8)
def source_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def percent(found, total):
    return f"{100 * found / total:5.1f} %" if total else "    -  "


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workdir")
    ap.add_argument("corpora")
    ap.add_argument("langs", nargs="+")
    ap.add_argument("--missed", type=int, default=10)
    ap.add_argument("--json")
    args = ap.parse_args()
    results = {}
    for lang in args.langs:
        r = results[lang] = measure(lang, args.workdir, f"{args.corpora}/{lang}", args.missed)
        print(f"\n== {lang}: {r['ctags']} ctags definitions, {r['files_with_ast']} files with an AST")
        print(f"{'ctags kind':<20} {'ctags':>7} {'found':>7} {'coverage':>9}")
        for kind, v in r["kinds"].items():
            print(f"{kind:<20} {v['ctags']:>7} {v['found']:>7} {percent(v['found'], v['ctags']):>9}")
            if len(v["scopes"]) > 1:  # split by the ctags scope kind
                for scope, w in v["scopes"].items():
                    label = scope if scope == "top level" else f"in {scope}"
                    print(f"  {label:<18} {w['ctags']:>7} {w['found']:>7} {percent(w['found'], w['ctags']):>9}")
        print(f"{'all':<20} {r['ctags']:>7} {r['found']:>7} {percent(r['found'], r['ctags']):>9}")
        if r["in_shell_text"]["ctags"]:
            t = r["in_shell_text"]
            print(f"not counted: {t['ctags']} ctags definitions inside heredocs, multi-line strings or block comments "
                  f"(the AST has {t['found']} of them)")
        if r["files_tagged_without_ast"]:
            print(f"files with ctags definitions but no AST: {len(r['files_tagged_without_ast'])}, "
                  f"e.g. {r['files_tagged_without_ast'][0]}")
        if r["missed_sample"]:
            print(f"missed ({len(r['missed_sample'])} of {r['missed']}, spread over the sorted list):")
            for m in r["missed_sample"]:
                print(f"  {m}")
    print(f"\n== summary (code: functions, methods, types; data: variables, constants, fields, enum members)")
    print(f"{'language':<11} {'ctags':>7} {'found':>7} {'coverage':>9} {'code':>9} {'data':>9}")
    for lang, r in results.items():
        split = {}
        for data in (False, True):
            ks = [v for k, v in r["kinds"].items() if is_data(lang, k) == data]
            split[data] = percent(sum(v["found"] for v in ks), sum(v["ctags"] for v in ks))
        print(f"{lang:<11} {r['ctags']:>7} {r['found']:>7} {percent(r['found'], r['ctags']):>9} "
              f"{split[False]:>9} {split[True]:>9}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
