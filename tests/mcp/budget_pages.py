"""The answer budget (issue 24), shared by tests/mcp/test_answer_budget.py and
bench/answers.py: large generated files (a JDK-like Java class, a generated
20,000-line file, a minified bundle, a long Markdown guide, a deep tree, 50
small projects) and the followers of each tool's way to the rest
(`next_start_line`, `next_start_char`, `next_offset`), which check that the
pages give the whole file or list back, nothing missing, nothing repeated.

A follower takes `call(tool, args) -> (text, structured)` (an async
function) and returns the reassembled content or list and the sizes of the
answers it read.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Awaitable, Callable

Call = Callable[[str, dict], Awaitable[tuple[str, dict]]]


def java_class(methods: int = 420) -> str:
    """A JDK-like class: licence header, imports, nested classes, javadoc."""
    out = ["/*\n * Copyright (c) 2024. Licensed under the Apache License, Version 2.0.\n */\n",
           "package java.util.concurrent;\n\n"]
    out += [f"import java.util.function.Fn{i};\n" for i in range(40)]
    out.append("\n/**\n * A hash table supporting full concurrency of retrievals.\n"
               + " * Long description line that goes on and on about the design.\n" * 60 + " */\n")
    out.append("public class BigMap<K, V> extends AbstractMap<K, V> implements ConcurrentMap<K, V> {\n")
    for i in range(methods):
        if i % 60 == 0:
            out.append(f"    /** Node class {i}. */\n    static final class Node{i}<K, V> implements Map.Entry<K, V> {{\n"
                       f"        final int hash{i};\n        Node{i}(int h) {{ this.hash{i} = h; }}\n    }}\n\n")
        out.append(f"    /**\n     * Computes value number {i} for the given key. Second sentence about method{i}.\n"
                   + "     * More details of the algorithm, with {@code code} and <p> tags.\n" * 4
                   + "     */\n"
                   f"    public final <R extends Comparable<? super R>> R method{i}(K key, V value, java.util.function.BiFunction<? super K, ? super V, ? extends R> remapping) throws IllegalStateException {{\n"
                   f"        int h = key.hashCode() ^ {i};\n        return remapping.apply(key, value);\n    }}\n\n")
    out.append("}\n")
    return "".join(out)


def generated_lines(n: int = 20_000) -> str:
    return "".join(f"CONSTANT_{i} = {i * 7}  # generated \"value\" {i}\n" for i in range(1, n + 1))


def minified_bundle(chars: int = 300_000) -> str:
    rnd = random.Random(24)
    parts = []
    size = 0
    while size < chars:
        name = "".join(rnd.choice("abcdefghij") for _ in range(3))
        piece = f'function {name}{size}(a,b){{return a+"\\u00e9"+b*{size}}};var x{size}="ü中\\"q";'
        parts.append(piece)
        size += len(piece)
    return "/*! bundle */\n" + "".join(parts) + "\n" + "".join(parts[:200])


def markdown_guide(sections: int = 200) -> str:
    out = ["---\ntitle: Operations guide\ndescription: How the service is built, released and run.\n"
           "owner: ops\ntags: ops, release\n---\n\n# Operations guide\n\nThe guide of the service.\n\n"]
    for i in range(sections):
        title = f"Topic {i}: publishing a package" if i == 137 else f"Topic {i}"
        out.append(f"## {title}\n\nThis section explains topic {i} in general terms. "
                   f"It has a long opening line that is not the answer.\n\n- a list item\n- another item\n\n")
        if i == 137:
            out.append("To publish a package, run `make publish` after the release tag is pushed.\n\n")
    return "".join(out)


def write_fixture(root: Path, projects: int = 50) -> list[Path]:
    """The trees to index; returns the source directories."""
    big = root / "bigproj"
    (big / "src").mkdir(parents=True, exist_ok=True)
    (big / "src" / "BigMap.java").write_text(java_class(), encoding="utf-8")
    (big / "gen").mkdir(exist_ok=True)
    (big / "gen" / "constants.py").write_text(generated_lines(), encoding="utf-8")
    (big / "dist").mkdir(exist_ok=True)
    (big / "dist" / "bundle.min.js").write_text(minified_bundle(), encoding="utf-8")
    (big / "docs").mkdir(exist_ok=True)
    (big / "docs" / "guide.md").write_text(markdown_guide(), encoding="utf-8")
    for i in range(12):
        for j in range(6):
            d = big / "pkg" / f"mod{i}" / f"sub{j}" / "deep" / "deeper"
            d.mkdir(parents=True, exist_ok=True)
            for k in range(3):
                (d / f"file{k}.py").write_text(f"def f_{i}_{j}_{k}():\n    return {k}\n", encoding="utf-8")
    sources = [big]
    for n in range(projects):
        p = root / f"project-{n:02d}"
        p.mkdir(exist_ok=True)
        (p / "README.md").write_text(
            f"# Project {n}\n\nProject number {n} is a small service that answers questions about its own files, "
            f"keeps a cache and talks to a database; this sentence is long on purpose.\n", encoding="utf-8")
        (p / "main.py").write_text(f"def main_{n}():\n    return {n}\n", encoding="utf-8")
        sources.append(p)
    return sources


async def follow_content(call: Call, path: str, target: str | None = None) -> tuple[str, list[int]]:
    """get_file_content page by page (long lines read alone, in parts)."""
    base = {"path": path} | ({"target": target} if target else {})
    out, sizes, args = [], [], dict(base)
    while True:
        text, a = await call("get_file_content", args)
        sizes.append(len(text.encode()))
        content = a["content"]
        short = a.get("shortened_lines") or []
        if short:
            first = a.get("start_line", 1)
            lines = content.splitlines(keepends=True)
            for n in short:
                whole, extra = [], {}
                while True:
                    t, p = await call("get_file_content", base | {"start_line": n, "end_line": n} | extra)
                    sizes.append(len(t.encode()))
                    whole.append(p["content"])
                    if "next_start_char" not in p:
                        break
                    extra = {"start_char": p["next_start_char"]}
                lines[n - first] = "".join(whole)
            content = "".join(lines)
        out.append(content)
        if "next_start_line" not in a:
            return "".join(out), sizes
        assert a.get("truncated") is True, a
        args = base | {"start_line": a["next_start_line"]}
        if "next_start_char" in a:
            args |= {"start_char": a["next_start_char"]}


async def follow_list(call: Call, tool: str, args: dict, key: str, ident: Callable[[dict], str]) -> tuple[list[str], list[int], dict]:
    """A paged list (`next_offset`): every entry's identity, in order."""
    out, sizes, first = [], [], None
    offset = 0
    while True:
        text, a = await call(tool, args | ({"offset": offset} if offset else {}))
        first = first or a
        sizes.append(len(text.encode()))
        out += [ident(e) for e in a.get(key, [])]
        if "next_offset" not in a:
            return out, sizes, first
        assert a.get("truncated") is True, a
        assert a["next_offset"] > offset, a
        offset = a["next_offset"]


def dump(v) -> str:
    return json.dumps(v, ensure_ascii=False)
