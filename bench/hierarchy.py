#!/usr/bin/env python3
"""Direct supertypes of `vibe-analyzer scan ast` against universal-ctags.

Run by bench/hierarchy.sh, which leaves in WORKDIR rows.tsv (label, language,
tree per row) and, for row N, N.ast.json (the `scan ast --format json` export)
and N.tags (`ctags --fields=+i --output-format=json`, languages with a ctags
oracle only).

The oracle. ctags' `inherits` field of the type tags of ORACLE_KINDS (other
kinds: ctags keeps no supertypes for them, so they are not compared), split
at top-level commas; Go adds the anonymous members (`anonMember`, embedded
types) of each struct, by the struct's scope. For LINE_KINDS (Java enums,
TypeScript interfaces: tagged, but ctags keeps no supertypes), the
`extends`/`implements` lists of the tag's line when the whole header is on
it. Rust (rust_oracle): ctags tags the types and the `impl` blocks, without
traits; a type's supertypes are the traits of the `impl Trait for Type`
headers of its file, a trait's also its bounds. Kotlin, which ctags keeps
no supertypes for, gets a regex oracle: class/interface/object headers,
their lines joined until the supertype list ends (kotlin_oracle); so does
Scala, its headers whole on one line (scala_oracle). A header
these line oracles do not understand is left out. Both sides become bare
names the way the scanner writes them: the head before `<`, `[`, `(` or
`{`, its last segment after `.`, `::` or `\\`, without `*&?!~@^`; `x=y`
items (Python's `metaclass=M`, `total=False`), Python's `*args` /
`**kwargs`, and Python/JS/TS bases that are calls (`namedtuple("P", "x")`,
`type(S)`, `mixin(A)`: no type name) are dropped.

The comparison. A ctags type tag is the element of our export of the same
file and name whose start line is at the tag's line or up to SLACK lines
before it (or further up across an annotation header, as coverage.py). Over
the types both sides know: recall = found / oracle pairs, precision = found
/ (found + extra). A type ctags has without `inherits` is oracle-empty, so
what we report for it is extra. Left out (misread): see `misread`.

Swift and Dart have no oracle: counts only.

    hierarchy.py WORKDIR [--missed N] [--json OUT]
"""
import argparse
import collections
import importlib.util
import json
import pathlib
import re

_spec = importlib.util.spec_from_file_location("bench_coverage", pathlib.Path(__file__).with_name("coverage.py"))
cov = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cov)  # load_tags, header_only, source_lines, SLACK

TYPE_LISTS = ("classes", "structs", "enums", "interfaces")
# ctags kinds compared per language: those ctags 5.9 keeps `inherits` for.
ORACLE_KINDS = {
    "java": {"class", "interface"},  # enums: no `implements` kept (LINE_KINDS); records: not tagged
    "python": {"class"},
    "csharp": {"class", "interface", "struct"},  # not enum (`: byte` is no supertype; none kept)
    "typescript": {"class"},  # interfaces: no `extends` kept (LINE_KINDS)
    "javascript": {"class"},
    "go": {"interface", "struct"},  # a generic struct is a `type` without members
    "cpp": {"class", "struct"},
    "php": {"class", "interface"},  # a class's `extends` and `implements` (not its traits' `use`)
    "ruby": {"class"},  # the superclass (not the modules `include`d)
}
# Languages whose bases are expressions (`class P(namedtuple(...))`).
EXPRESSION_BASES = {"python", "javascript", "typescript"}
# Kinds ctags tags but keeps no supertypes for: read from the tag's line
# when the whole header is on it (line_header_supers).
LINE_KINDS = {("java", "enum"), ("typescript", "interface")}
TARGETS = {"java": 0.97, "python": 0.97}
DEFAULT_TARGET = 0.95


def bare(item):
    """A supertype's bare name, or None (an `x=y` item, no name)."""
    head = re.split(r"[<\[({]", item, maxsplit=1)[0]
    if "=" in head:
        return None
    last = re.split(r"[.:\\]", head)[-1].strip().strip("*&?!~@^").strip()
    return last if re.fullmatch(r"[\w$]+", last) else None


def split_top(text, seps=","):
    """TEXT split at the SEPS outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch in seps and depth <= 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    return parts + [cur]


def names(lang, items):
    out = []
    for item in items:
        item = item.strip()
        if lang == "python" and item.startswith("*"):
            continue  # `*bases`, `**kwargs`
        if lang in EXPRESSION_BASES and re.search(r"[\w$\]]\s*\(", item):
            continue  # a call names no type: `namedtuple("P", "x y")`, `type(S)`, `mixin(A, B)`
        name = bare(item) if item else None
        if name and name not in out:
            out.append(name)
    return out


def oracle_kind(lang, t):
    """True if ctags keeps supertypes for tag T's kind (JavaScript: ES6
    classes only; ctags' other "classes" are constructor functions and object
    literals, for which it keeps none)."""
    if (lang, t["kind"]) in LINE_KINDS:
        return True
    return t["kind"] in ORACLE_KINDS[lang] and (
        lang != "javascript" or re.search(r"\bclass\b", t.get("pattern", "")) is not None)


def go_embedded(tags):
    """Go: {(path, struct scope): [embedded types]} from the struct members."""
    embedded = collections.defaultdict(list)
    for t in tags:
        if t.get("scopeKind") == "struct":
            ref = t.get("typeref", "").removeprefix("typename:")
            if t["kind"] == "anonMember":
                embedded[t["path"], t["scope"]].append(ref)
            elif t["kind"] == "member" and (ref == "" or re.fullmatch(r"\[[^\]\d][^\]]*\]", ref)):
                embedded[t["path"], t["scope"]].append(t["name"])  # see misread
    return embedded


def ctags_oracle(lang, tags, corpus):
    """[{path, line, name, kind, supers, ...}] of the type tags ctags keeps supertypes for."""
    embedded = go_embedded(tags) if lang == "go" else {}
    out = []
    for t in tags:
        if not oracle_kind(lang, t):
            continue
        inherits = mend(lang, t, f"{corpus}/{t['path']}")
        items = split_top(inherits) if inherits else []
        if (lang, t["kind"]) in LINE_KINDS:
            items = line_header_supers(t.get("pattern", ""), t["name"])
        if lang == "go" and t["kind"] == "struct":
            items += embedded.get((t["path"], f"{t['scope']}.{t['name']}" if t.get("scope") else t["name"]), [])
        out.append({"path": t["path"], "line": t["line"], "name": t["name"], "kind": t["kind"],
                    "supers": None if items is None else names(lang, items), "inherits": inherits,
                    "pattern": t.get("pattern", "")})
    return out


def line_header_supers(pattern, name):
    """The supertype items of a one-line header `... interface|enum NAME<...>
    extends A, B implements C {` (a tag's pattern), or None when the line does
    not hold the whole header."""
    line = pattern.removeprefix("/^").removesuffix("/").removesuffix("$").replace("\\/", "/").replace("=>", "  ")
    m = re.search(r"\b(interface|enum)\s+" + re.escape(name) + r"\b", line)
    if not m or "{" not in line[m.end():]:
        return None
    rest = line[m.end():].lstrip()
    if rest.startswith("<"):
        end = skip_group(rest, 0, "<", ">")
        if end is None:
            return None
        rest = rest[end:]
    parts = re.split(r"\b(?:extends|implements)\b", rest.split("{", 1)[0])
    if parts[0].strip():
        return None  # something else between the name and the clauses
    return [item for text in parts[1:] for item in split_top(text)]


def mend(lang, t, path):
    """Tag T's `inherits`, mended where ctags 5.9 misreads it (see misread)."""
    inherits = t.get("inherits") if isinstance(t.get("inherits"), str) else ""
    if lang == "java" and "permits" in inherits and re.search(r"\bpermits\b", header_text(path, t["line"])):
        inherits = inherits.split("permits", 1)[0]
    if lang == "csharp" and re.search(r"where\w+:", inherits) and re.search(r"\bwhere\b", header_text(path, t["line"])):
        inherits = re.split(r"where\w+:", inherits, maxsplit=1)[0]
    if lang == "go" and t["kind"] == "interface" and inherits:
        terms = go_type_set_terms(path, t["line"])
        inherits = ",".join(x for x in split_top(inherits) if bare(x) not in terms)
    return inherits


def go_type_set_terms(path, line):
    """The names in the type-set lines (`~int | ~string`) of the Go interface at LINE."""
    terms, depth = set(), 0
    for ln in cov.source_lines(path)[line - 1:]:
        body = ln.split("{", 1)[1] if depth == 0 and "{" in ln else ln
        if "|" in body or "~" in body:
            terms.update(bare(x) for x in re.split(r"[|{}]", body.split("//")[0]))
        depth += ln.count("{") - ln.count("}")
        if depth <= 0:
            break
    return terms


def header_text(path, line, limit=12):
    """Source from LINE up to the first `{` or `;` (at most LIMIT lines)."""
    text = ""
    for ln in cov.source_lines(path)[line - 1:line - 1 + limit]:
        text += ln + "\n"
        if "{" in ln or ";" in ln:
            break
    return text.split("{", 1)[0]


def misread(lang, o, corpus):
    """Why ctags' reading of type O is left out, or None. Left out:
    - Java, C#: a tag whose line declares no type of its name: ctags 5.9
      makes types of the names of a Java `permits` list and of C#'s
      `where T : class` constraints.
    - the headers the line oracles do not understand (supers None).
    - TypeScript: a class whose heritage clause holds a qualified name
      (`extends m.Base`) gets no `inherits` at all from ctags 5.9, not even
      its other supertypes.
    Mended rather than left out (mend, go_embedded): Java's `permits` list,
    which ctags 5.9 glues to the last supertype and adds to them
    (`BasepermitsA,B`: cut at `permits`); C#'s `where` clauses, glued the
    same way (`IBazwhereT:Constraint`: cut at `where`); Go's type sets
    (`~int | ~string`), whose last term ctags reports as embedded (dropped);
    Go's embedded types that ctags reads as fields: `Base[T]` as a field
    `Base` of type `[T]`, and the one of a one-line `struct{ base }` as a
    field `base` without a type (both counted as embedded)."""
    if o["supers"] is None:
        return f"{o['kind']} header not understood (line oracle)"
    if lang in ("java", "csharp") and not re.search(
            r"\b(class|interface|struct|enum|record)\s+" + re.escape(o["name"]) + r"\b", o["pattern"]):
        return f"{lang}: no declaration of the name on the tag's line"
    if lang == "typescript" and o["kind"] == "class" and not o["inherits"]:
        head = header_text(f"{corpus}/{o['path']}", o["line"])
        if re.search(r"\b(extends|implements)\b[^{]*?[\w$]\s*\.\s*[\w$]", head):
            return "TypeScript heritage with a qualified name"
    return None


# Kotlin: a class/interface/object header at the start of a line.
KT_HEAD = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|protected|open|abstract|sealed|data|enum|"
    r"annotation|inner|value|inline|expect|actual|final|fun|companion|external)\s+)*"
    r"(class|interface|object)\s+(\w+)")
KT_CTOR = re.compile(r"\s*(?:(?:@[\w.]+(?:\([^)]*\))?|[a-z]+)\s+)*constructor\b")
KT_GOES_ON = re.compile(r"\s*(:|\(|<|where\b|constructor\b|(@[\w.]+|[a-z]+\s)[^{]*\bconstructor\b)")


def skip_group(text, i, open_ch, close_ch):
    """Index after the balanced group opening at TEXT[i], or None if it does not close."""
    depth = 0
    for j in range(i, len(text)):
        depth += (text[j] == open_ch) - (text[j] == close_ch)
        if depth == 0:
            return j + 1
    return None


def kotlin_supers(rest, next_line):
    """The supertype items after a Kotlin type's name (REST: the rest of its
    header's lines so far; NEXT_LINE: the next code line), [] for none, or
    None when the header goes on (or is not understood)."""
    rest = rest.replace("->", "  ")
    i = len(rest) - len(rest.lstrip())
    for open_ch, close_ch, pre in (("<", ">", None), ("(", ")", KT_CTOR)):
        m = pre.match(rest, i) if pre else None
        j = m.end() if m else i
        j += len(rest[j:]) - len(rest[j:].lstrip())
        if rest.startswith(open_ch, j):
            i = skip_group(rest, j, open_ch, close_ch)
            if i is None:
                return None  # continues on the next lines
    tail = rest[i:].strip()
    if not tail.startswith(":"):
        if tail == "":
            return None if KT_GOES_ON.match(next_line) else []
        return [] if tail.startswith(("{", "}", "//", "/*", ";")) else None
    text = re.split(r"\{|\bwhere\b|//", tail[1:], maxsplit=1)[0]
    items = split_top(text)
    if not items[-1].strip() or text.count("(") != text.count(")"):
        return None  # the list goes on on the next line
    return [re.split(r"\s+by\s+", x, maxsplit=1)[0] for x in items]


def code_lines(lines, n, limit=15):
    """Up to LIMIT lines of code from line N on, comments taken out."""
    out, in_block = [], False
    for ln in lines[n - 1:n - 1 + 4 * limit]:
        text, i = "", 0
        while i < len(ln):
            if in_block:
                j = ln.find("*/", i)
                in_block, i = j < 0, len(ln) if j < 0 else j + 2
                continue
            j, k = ln.find("/*", i), ln.find("//", i)
            if k >= 0 and (j < 0 or k < j):
                text += ln[i:k]
                break
            if j < 0:
                text += ln[i:]
                break
            text, in_block, i = text + ln[i:j], True, j + 2
        if text.strip():
            out.append(text.strip())
        if len(out) == limit:
            break
    return out


def kotlin_oracle(files, corpus):
    """Oracle types of the Kotlin files: each header's lines joined until
    its supertype list is complete (at most 15 code lines)."""
    out = []
    for path in sorted(files):
        lines = cov.source_lines(f"{corpus}/{path}")
        for n, line in enumerate(lines, 1):
            if not KT_HEAD.match(line):
                continue
            code = code_lines(lines, n)
            m, items = KT_HEAD.match(code[0]) if code else None, None
            if not m:
                continue  # (a comment opening on the line)
            for k in range(1, len(code) + 1):
                items = kotlin_supers(" ".join(code[:k])[m.end():], code[k] if k < len(code) else "")
                if items is not None:
                    break
            out.append({"path": path, "line": n, "name": m.group(2), "kind": m.group(1),
                        "supers": None if items is None else names("kotlin", items), "inherits": None})
    return out


SC_HEAD = re.compile(r"\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:private|protected)(?:\[\w*\])?\s+"
                     r"|(?:final|sealed|abstract|implicit|case|override|lazy|open)\s+)*(class|trait|object)\s+([A-Za-z_$][\w$]*)")


def scala_oracle(files, corpus):
    """Oracle types of the Scala files: the headers whole on one line
    (`class A[T](x: T) extends B(x) with C {`): the types after `extends`,
    split at top-level `with` and `,`; a header going on is left out."""
    out = []
    for path in sorted(files):
        lines = cov.source_lines(f"{corpus}/{path}")
        for n, line in enumerate(lines, 1):
            m = SC_HEAD.match(line)
            if not m or re.match(r"\s*(extends|with|\(|\[)", lines[n] if n < len(lines) else ""):
                continue
            rest = re.split(r"//|/\*", line[m.end():])[0]
            while re.search(r"\[[^\[\]]*\]|\([^()]*\)", rest):  # type and value parameters, arguments
                rest = re.sub(r"\[[^\[\]]*\]|\([^()]*\)", "", rest)
            rest = rest.split("{")[0].strip()
            if re.search(r"[\[\]()]|\b(extends|with)$|,$", rest) or (rest and not rest.startswith("extends")):
                continue  # not understood, or the list goes on
            items = re.split(r"\bwith\b|,", rest[len("extends"):]) if rest else []
            out.append({"path": path, "line": n, "name": m.group(2), "kind": m.group(1),
                        "supers": names("scala", items), "inherits": None})
    return out


def rust_impl(line):
    """(trait, bare type) of `impl<..> Trait for Type {` (its lines joined),
    or Nones; a type that is no path (`&T`, `[T]`, `dyn T`) has no name, as
    in the scanner."""
    m = re.match(r"\s*(?:unsafe\s+)?impl\s*", line.replace("->", "  "))
    rest = line.replace("->", "  ")[m.end():] if m else ""
    if rest.startswith("<"):
        end = skip_group(rest, 0, "<", ">")
        rest = rest[end:] if end else ""
    parts = re.split(r"\bfor\b", re.split(r"\{|\bwhere\b", rest)[0])
    if len(parts) != 2 or re.match(r"\s*(&|\[|\(|\*|dyn\b)", parts[1]):
        return None, None
    return parts[0].strip(), bare(parts[1])


def rust_trait_bounds(line, name):
    """The supertraits of `trait NAME<..>: A + B<..> {` (its lines joined), or
    None when not understood (lifetimes, `?Sized`, `for<'a>` dropped)."""
    m = re.search(r"\btrait\s+" + re.escape(name) + r"\b", line)
    rest = line.replace("->", "  ")[m.end():].lstrip() if m else None
    if rest and rest.startswith("<"):
        end = skip_group(rest, 0, "<", ">")
        rest = rest[end:].lstrip() if end else None
    if rest is None or not rest.startswith(":"):
        return None if rest is None else []
    if not re.search(r"\{|\bwhere\b|;", rest):
        return None
    bounds = split_top(re.split(r"\{|\bwhere\b|;", rest[1:])[0], "+")
    return [b for b in bounds if not re.match(r"\s*('|\?|for\b)", b)]


def rust_oracle(tags, corpus):
    """Rust, from ctags' tags and the headers at their lines: a type's
    supertypes are the traits of the `impl Trait for Type` blocks of its file
    (as the scanner reads them), and a trait's also the bounds of its header."""
    impls = collections.defaultdict(list)
    for t in tags:
        if t["kind"] == "implementation":
            trait, typ = rust_impl(" ".join(header_text(f"{corpus}/{t['path']}", t["line"]).split()))
            if trait:
                impls[t["path"], typ].append(trait)
    out = []
    for t in tags:
        if t["kind"] in ("struct", "enum", "interface", "union"):
            items = impls.get((t["path"], t["name"]), [])
            head = " ".join(header_text(f"{corpus}/{t['path']}", t["line"]).split()) + " {"
            bounds = rust_trait_bounds(head, t["name"]) if t["kind"] == "interface" else []
            out.append({"path": t["path"], "line": t["line"], "name": t["name"], "kind": t["kind"],
                        "supers": None if bounds is None else names("rust", items + bounds), "inherits": None})
    return out


def load_ast(path):
    """{file path: {name: [(start line, supertypes)]}} of the type elements."""
    files = {}
    for src in json.load(open(path))["sources"]:
        for f in src["files"]:
            ast = f.get("ast") or {}
            types = collections.defaultdict(list)
            for key in TYPE_LISTS:
                for e in ast.get(key) or []:
                    if e.get("name") and e.get("line"):
                        types[e["name"]].append((e["line"]["start"], e.get("supertypes") or []))
            if ast:
                files[f["path"]] = types
    return files


def match(o, types, path):
    """Our supertypes of oracle type O (None: no such element)."""
    line, best = o["line"], None
    for start, supers in types.get(o["name"], []):
        if start <= line and (start >= line - cov.SLACK or cov.header_only(cov.source_lines(path)[start - 1:line - 1])):
            if best is None or start > best[0]:
                best = (start, supers)
    return None if best is None else best[1]


def spread(items, n):
    items = sorted(items)
    step = max(1, len(items) // n) if n else 1
    return items[::step][:n]


def tally(o, ours, c, lists):
    """Counts the pairs of oracle type O against OURS into C (all and per
    kind), and notes its misses and extras in LISTS."""
    want, got = set(o["supers"]), set(ours)
    for key in ("", f"{o['kind']} "):
        c[key + "compared"] += 1
        c[key + "pairs"] += len(want)
        c[key + "found"] += len(want & got)
        c[key + "extra"] += len(got - want)
    where = f"{o['path']}:{o['line']} {o['name']} (oracle: {', '.join(o['supers']) or '-'}; ours: {', '.join(ours) or '-'})"
    for kind, diff in (("missed", want - got), ("extra", got - want)):
        if diff:
            lists[kind].append(f"{where} {kind} {', '.join(sorted(diff))}")
            lists[kind + " names"].update(diff)


def compare(lang, oracle, ast, corpus, n_missed):
    c, left_out = collections.Counter(), collections.Counter()
    lists = {"missed": [], "extra": [], "absent": [], "missed names": collections.Counter(),
             "extra names": collections.Counter()}
    for o in oracle:
        c["oracle types"] += 1
        why = misread(lang, o, corpus)
        if why:
            left_out[why] += 1
            continue
        ours = match(o, ast.get(o["path"], {}), f"{corpus}/{o['path']}")
        if ours is None:
            lists["absent"].append(f"{o['path']}:{o['line']} {o['kind']} {o['name']}")
        else:
            tally(o, ours, c, lists)
    return {**c, "not in the AST": len(lists["absent"]), "left out": dict(left_out),
            "missed": spread(lists["missed"], n_missed), "extra_sample": spread(lists["extra"], n_missed),
            "absent": spread(lists["absent"], min(n_missed, 5)), "n_missed_types": len(lists["missed"]),
            "n_extra_types": len(lists["extra"]), "most missed": lists["missed names"].most_common(8),
            "most extra": lists["extra names"].most_common(8)}


def our_counts(ast):
    types = [s for per_name in ast.values() for v in per_name.values() for _, s in v]
    return {"types": len(types), "with supertypes": sum(1 for s in types if s),
            "supertypes": sum(len(s) for s in types)}


def ratio(a, b):
    return a / b if b else None


def fmt(x):
    return "    -" if x is None else f"{x:.3f}"


def measure(workdir, n, lang, corpus, n_missed):
    ast = load_ast(f"{workdir}/{n}.ast.json")
    r = {"lang": lang, "ours": our_counts(ast)}
    if lang in ORACLE_KINDS:
        r["oracle"] = "ctags"
        oracle = ctags_oracle(lang, cov.load_tags(f"{workdir}/{n}.tags"), corpus)
    elif lang == "rust":
        r["oracle"] = "lines"
        oracle = rust_oracle(cov.load_tags(f"{workdir}/{n}.tags"), corpus)
    elif lang == "kotlin":
        r["oracle"] = "regex"
        oracle = kotlin_oracle([p for p in ast if p.endswith((".kt", ".kts"))], corpus)
    elif lang == "scala":
        r["oracle"] = "regex"
        oracle = scala_oracle([p for p in ast if p.endswith((".scala", ".sc"))], corpus)
    else:
        r["oracle"] = "none"
        return r
    r.update(compare(lang, oracle, ast, corpus, n_missed))
    r["recall"] = ratio(r.get("found", 0), r.get("pairs", 0))
    r["precision"] = ratio(r.get("found", 0), r.get("found", 0) + r.get("extra", 0))
    r["target"] = TARGETS.get(lang, DEFAULT_TARGET)
    return r


def print_row_detail(label, r):
    o = r["ours"]
    print(f"\n== {label} ({r['lang']}): ours {o['types']} types, {o['with supertypes']} with supertypes "
          f"({o['supertypes']} pairs); oracle: {r['oracle']}")
    if r["oracle"] == "none":
        print("no oracle: counts only")
        return
    print(f"oracle types {r.get('oracle types', 0)}, compared {r.get('compared', 0)}, "
          f"not in the AST {r['not in the AST']}, left out {sum(r['left out'].values())} {r['left out'] or ''}")
    print(f"pairs {r.get('pairs', 0)}, found {r.get('found', 0)}, extra {r.get('extra', 0)}: "
          f"recall {fmt(r['recall'])}, precision {fmt(r['precision'])} (target {r['target']})")
    kinds = sorted(k.split()[0] for k in r if k.endswith(" compared"))
    print("by kind: " + "; ".join(f"{k} {r[k + ' compared']} types, pairs {r[k + ' pairs']}, "
                                  f"found {r[k + ' found']}, extra {r[k + ' extra']}" for k in kinds))
    for key in ("most missed", "most extra"):
        if r[key]:
            print(f"{key}: " + ", ".join(f"{name} {k}" for name, k in r[key]))
    for key, total, title in (("missed", "n_missed_types", "types with a miss"),
                              ("extra_sample", "n_extra_types", "types with an extra"),
                              ("absent", "not in the AST", "oracle types not in the AST")):
        if r[key]:
            print(f"{title} ({len(r[key])} of {r[total]}, spread over the sorted list):")
            for line in r[key]:
                print(f"  {line}")


def print_summary(results):
    print("\n== summary: direct supertypes, bare names (pairs over the types both sides know)")
    print(f"{'corpus':<22} {'oracle':<6} {'types':>6} {'compared':>8} {'pairs':>6} {'found':>6} {'extra':>6} "
          f"{'recall':>7} {'precision':>9} {'target':>6}  met")
    for label, r in results.items():
        if r["oracle"] == "none":
            o = r["ours"]
            print(f"{label:<22} {'none':<6} {o['types']:>6}  ours: {o['with supertypes']} with supertypes, "
                  f"{o['supertypes']} pairs: no oracle")
            continue
        met = all(x is not None and x >= r["target"] for x in (r["recall"], r["precision"]))
        print(f"{label:<22} {r['oracle']:<6} {r.get('oracle types', 0):>6} {r.get('compared', 0):>8} "
              f"{r.get('pairs', 0):>6} {r.get('found', 0):>6} {r.get('extra', 0):>6} {fmt(r['recall']):>7} "
              f"{fmt(r['precision']):>9} {r['target']:>6}  {'yes' if met else 'NO'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workdir")
    ap.add_argument("--missed", type=int, default=10)
    ap.add_argument("--json")
    args = ap.parse_args()
    results = {}
    for n, row in enumerate(open(f"{args.workdir}/rows.tsv").read().splitlines(), 1):
        label, lang, corpus = row.split("\t")
        results[label] = measure(args.workdir, n, lang, corpus, args.missed)
        print_row_detail(label, results[label])
    print_summary(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
