#!/usr/bin/env python3
"""List Rust functions longer than a limit (issue 26: none over 80 lines).

Counts, for every `fn` with a body in the .rs files under common/src,
gateway/src, ingest/src and cli/src (test modules inside src/ included), the lines from
the line of `fn` to the line of the body's closing brace, both included.
Braces are matched after removing comments, strings and char literals.

usage: long_functions.py [LIMIT] [DIR...]   (exit 1 and the list if any is over)
"""
import os
import re
import sys

LIMIT = 80
DIRS = ["common/src", "gateway/src", "ingest/src", "cli/src"]


def blank_literals(text):
    """The text with comments, strings and chars replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    keep = lambda s: "".join(c if c == "\n" else " " for c in s)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(keep(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(keep(text[i:j]))
            i = j
        elif (m := re.match(r'b?r(#*)"', text[i:i + 300])) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            out.append(keep(text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(keep(text[i:j + 1]))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\\n])'", text[i:i + 16])
            if m:
                out.append(keep(m.group(0)))
                i += m.end()
            else:  # a lifetime or label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def long_functions(path, limit):
    code = blank_literals(open(path, encoding="utf-8").read())
    found = []
    for m in FN.finditer(code):
        # the body is the first `{` at nesting depth 0 of (), <> ... before any `;`
        i, depth = m.end(), 0
        while i < len(code):
            c = code[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == ";" and depth == 0:
                i = -1  # a declaration without a body
                break
            elif c == "{" and depth == 0:
                break
            i += 1
        if i < 0 or i >= len(code):
            continue
        start, braces = i, 0
        while i < len(code):
            if code[i] == "{":
                braces += 1
            elif code[i] == "}":
                braces -= 1
                if braces == 0:
                    break
            i += 1
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, i) + 1
        if last - first + 1 > limit:
            found.append((last - first + 1, path, first, m.group(1)))
    return found


def main(argv):
    limit = int(argv[0]) if argv else LIMIT
    dirs = argv[1:] or DIRS
    found = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith(".rs"):
                    found += long_functions(os.path.join(root, f), limit)
    for lines, path, line, name in sorted(found, reverse=True):
        print(f"{lines:5}  {path}:{line}  {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
