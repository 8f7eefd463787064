"""The comment and string stripper of bench/references.py: source text with
comments and string literals blanked (lengths and lines kept), so that the
call-site regexes of the oracle see only code."""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# comment and string stripper
# ---------------------------------------------------------------------------

# Per language: line comment starts, block comments (open, close, nested?),
# string delimiters (longest first) and whether `'` opens a string or a char.
SYNTAX = {
    "python": {"line": ["#"], "block": [], "strings": ['"""', "'''", '"', "'"]},
    "javascript": {"line": ["//"], "block": [("/*", "*/", False)], "strings": ['"', "'", "`"]},
    "typescript": {"line": ["//"], "block": [("/*", "*/", False)], "strings": ['"', "'", "`"]},
    "java": {"line": ["//"], "block": [("/*", "*/", False)], "strings": ['"""', '"', "'"]},
    "csharp": {"line": ["//"], "block": [("/*", "*/", False)], "strings": ['"""', '@"', '$@"', '@$"', '$"', '"', "'"]},
    "go": {"line": ["//"], "block": [("/*", "*/", False)], "strings": ['"', "`", "'"]},
    "rust": {"line": ["//"], "block": [("/*", "*/", True)], "strings": ['"', "'"]},
    "kotlin": {"line": ["//"], "block": [("/*", "*/", True)], "strings": ['"""', '"', "'"]},
    "swift": {"line": ["//"], "block": [("/*", "*/", True)], "strings": ['"""', '"']},
    "dart": {"line": ["//"], "block": [("/*", "*/", True)], "strings": ['"""', "'''", '"', "'"]},
}
PY_PREFIX = re.compile(r"(?i)(?<![\w])(rb|br|fr|rf|r|b|f|u)$")
RUST_RAW = re.compile(r'r(#*)"')
RUST_CHAR = re.compile(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^\\'\n])'")


TRIGGERS = "/#\"'`@$r*"  # the characters that may start a comment or a literal


def strip_code(text: str, lang: str) -> str:
    """The text with comments and string contents replaced by spaces (line
    breaks kept, so line numbers hold). A string's delimiters are blanked too."""
    syn = SYNTAX[lang]
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text[i] not in TRIGGERS:
            i += 1
            continue
        span = comment_span(text, i, syn)
        if span is None and lang == "rust":
            span = rust_span(text, i)
        if span is None:
            span = string_span(text, i, lang, syn)
        if span is None:
            i += 1
            continue
        start, i = span
        for j in range(start, min(i, n)):
            if out[j] != "\n":
                out[j] = " "
    return "".join(out)


def comment_span(text: str, i: int, syn: dict) -> tuple[int, int] | None:
    """(start, end) of the line or block comment at i (nested where the
    language nests them), else None."""
    n = len(text)
    if any(text.startswith(t, i) for t in syn["line"]):
        j = text.find("\n", i)
        return i, (n if j < 0 else j)
    blk = next((b for b in syn["block"] if text.startswith(b[0], i)), None)
    if blk is None:
        return None
    open_, close, nested = blk
    depth, j = 1, i + len(open_)
    while j < n and depth:
        if nested and text.startswith(open_, j):
            depth += 1
            j += len(open_)
        elif text.startswith(close, j):
            depth -= 1
            j += len(close)
        else:
            j += 1
    return i, j


def rust_span(text: str, i: int) -> tuple[int, int] | None:
    """Rust raw strings r"…", r#"…"# and char literals at i: (start, end) to
    blank; a lifetime's quote is passed over, blanking nothing."""
    c = text[i]
    if c == "r" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
        m = RUST_RAW.match(text, i)
        if m:
            end = text.find('"' + m.group(1), m.end())
            return i, (len(text) if end < 0 else end + 1 + len(m.group(1)))
    if c == "'":
        m = RUST_CHAR.match(text, i)
        return (i, m.end()) if m else (i + 1, i + 1)
    return None


def string_span(text: str, i: int, lang: str, syn: dict) -> tuple[int, int] | None:
    """(start, end) of the string literal at i, its delimiters and (Python)
    prefix included, else None."""
    n = len(text)
    delim = next((d for d in syn["strings"] if text.startswith(d, i)), None)
    if delim is None:
        return None
    if lang == "csharp" and delim == "'" and i > 0 and text[i - 1].isalnum():
        return None
    if len(delim) == 3 and delim[0] == delim[1] == delim[2]:
        end = text.find(delim, i + 3)
        return i, (n if end < 0 else end + 3)
    quote = delim[-1] if delim[-1] in "\"'`" else delim
    verbatim = lang == "csharp" and "@" in delim
    raw = lang == "go" and delim == "`"
    j = i + len(delim)
    while j < n:
        ch = text[j]
        if ch == "\\" and not verbatim and not raw:
            j += 2
            continue
        if ch == quote:
            if verbatim and j + 1 < n and text[j + 1] == quote:
                j += 2
                continue
            j += 1
            break
        if ch == "\n" and quote in "\"'" and not verbatim and lang not in ("python",):
            break  # an unterminated one-line string: stop at the line end
        j += 1
    # Python string prefixes (r, b, f, rb…) belong to the string.
    start = i
    if lang == "python":
        m = PY_PREFIX.search(text, max(0, i - 2), i)
        if m:
            start = m.start()
    return start, j
