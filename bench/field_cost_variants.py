"""The variants of bench/field_cost.py: each field group added by word
ranking and the one-call work, as edits of the documents and of the
mappings, and the combinations the table prints."""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

def drop_keys(*keys, symbols=False):
    """Document edit: the keys left out of the document (of each symbol)."""
    def f(doc):
        for d in (doc.get("symbols") or []) if symbols else [doc]:
            for k in keys:
                d.pop(k, None)
    return f


def code_out(doc):
    """No `symbols.code` (nor `code_skip`): out of the symbols and out of
    the JSON each one's `show` holds."""
    for s in doc.get("symbols") or []:
        s.pop("code", None)
        s.pop("code_skip", None)
        if isinstance(s.get("show"), str):  # JSON in base64 (a binary field)
            shown = json.loads(base64.b64decode(s["show"]))
            shown.pop("code", None)
            shown.pop("code_skip", None)
            text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
            s["show"] = base64.b64encode(text.encode()).decode()


def unmap(*paths):
    """Mapping edit: the properties at these dotted paths are removed."""
    def f(mapping):
        for path in paths:
            node, parts = mapping, path.split(".")
            for p in parts[:-1]:
                node = node["properties"][p]
            node["properties"].pop(parts[-1], None)
    return f


def no_ref_name_doc_values(mapping):
    mapping["properties"]["references"]["properties"]["name"]["doc_values"] = False


def no_source_excludes(mapping):
    mapping.pop("_source", None)


WORD_FIELDS = ("symbols.about", "symbols.context", "symbols.body", "about", "words")


def with_positions(mapping):
    """The word fields (and their `.zh`) index positions too, as before
    they were `index_options: freqs`."""
    for path in WORD_FIELDS:
        node, parts = mapping, path.split(".")
        for p in parts:
            node = node["properties"][p]
        for f in [node] + list(node.get("fields", {}).values()):
            f["index_options"] = "positions"


def no_recovery_source(mapping):
    mapping.setdefault("_source", {})["recovery_source_enabled"] = False


@dataclass
class Variant:
    name: str
    label: str
    buys: str
    ast_doc: list = field(default_factory=list)
    files_doc: list = field(default_factory=list)
    ast_map: list = field(default_factory=list)
    files_map: list = field(default_factory=list)
    words: bool = False  # whether questions in words are measured on it


WORDS = "questions in words (search_by_code_*; a plain word no name matched)"
GROUPS = [
    Variant("sym-about", "symbols.about (+ .zh)",
            f"{WORDS}: a definition's name, owner, joined word pairs and doc paragraph, weight 1",
            ast_doc=[drop_keys("about", symbols=True)], ast_map=[unmap("symbols.about")], words=True),
    Variant("sym-body", "symbols.body",
            f"{WORDS}: the word bag of a definition's own lines, weight 0.5",
            ast_doc=[drop_keys("body", symbols=True)], ast_map=[unmap("symbols.body")], words=True),
    Variant("sym-context", "symbols.context",
            f"{WORDS}: the owner's name and doc, or a class's members' names and doc summaries, weight 0.2",
            ast_doc=[drop_keys("context", symbols=True)], ast_map=[unmap("symbols.context")], words=True),
    Variant("about", "about (file, + .zh)",
            f"{WORDS}: a file's path, header comments, LLM description and tags, weight 0.5",
            ast_doc=[drop_keys("about")], ast_map=[unmap("about")], words=True),
    Variant("words", "words (file)",
            f"{WORDS}: the file's word bag, weight 1",
            ast_doc=[drop_keys("words")], ast_map=[unmap("words")], words=True),
    Variant("sym-show", "symbols.show (doc values)",
            "every code search hit: name, kind, owner, lines, signature, doc (and the best match's code) "
            "read from doc values in inner hits, no _source parsed (symbols are not in _source)",
            ast_doc=[drop_keys("show", symbols=True)], ast_map=[unmap("symbols.show")]),
    Variant("sym-code", "symbols.code (inside show)",
            "the best match's first 12 lines without an _mget of the file's content (a longer definition "
            "is read from the files index; a file over 256 KB shows only these)",
            ast_doc=[code_out]),
    Variant("ref-dv", "references.name doc values",
            "find_references / find_callees: each use's name read from doc values in inner hits "
            "(references are not in _source)",
            ast_map=[no_ref_name_doc_values]),
    Variant("mtime", "mtime (both indices)",
            "the stale flag of every answer from size and mtime against the disk, no file read "
            "(docvalue_fields of every template)",
            ast_doc=[drop_keys("mtime")], files_doc=[drop_keys("mtime")],
            ast_map=[unmap("mtime")], files_map=[unmap("mtime")]),
    Variant("grams", "grams (files; before bf94d91 too)",
            "search_code_text: the candidates holding every 3-gram of the text (without it: every file checked)",
            files_doc=[drop_keys("grams")], files_map=[unmap("grams")]),
]
MAPPINGS = [
    Variant("ast-src", "AST: no _source excludes (as bf94d91)",
            "searches read small documents: symbols, references, about, words are indexed, not fetched "
            "(fetch 3.76 -> 1.51 ms per name look-up, throughput.sh)",
            ast_map=[no_source_excludes]),
    Variant("grams-src", "files: grams in _source (as bf94d91)",
            "nothing read: grams left out of _source is only a storage choice",
            files_map=[no_source_excludes]),
    Variant("positions", "word fields with positions (before: all five are index_options: freqs)",
            "nothing searched: no template runs a phrase query on them (their matches set "
            "auto_generate_synonyms_phrase_query: false)",
            ast_map=[with_positions], words=True),
    Variant("no-rsrc", "full, recovery_source_enabled: false",
            "(what _recovery_source costs; a replica catching up by replaying operations would lose "
            "the excluded fields)",
            ast_map=[no_recovery_source], files_map=[no_recovery_source]),
]
WORD_GROUPS = ("sym-about", "sym-body", "sym-context", "about", "words")
ONE_CALL_GROUPS = ("sym-show", "sym-code", "ref-dv", "mtime")


def combined(name: str, label: str, buys: str, groups: tuple, words: bool = False) -> Variant:
    """The groups left out together."""
    v = Variant(name, label, buys, words=words)
    for p in (g for g in GROUPS + MAPPINGS if g.name in groups):
        v.ast_doc, v.files_doc = v.ast_doc + p.ast_doc, v.files_doc + p.files_doc
        v.ast_map, v.files_map = v.ast_map + p.ast_map, v.files_map + p.files_map
    return v


def all_variants() -> list[Variant]:
    return [Variant("full", "full (as indexed today)", "-", words=True)] + GROUPS + MAPPINGS + [
        combined("words-all", "the five word fields together", "word ranking as a whole", WORD_GROUPS, True),
        combined("one-call", "show, code, references dv, mtime together", "the one-call work's fields",
                 ONE_CALL_GROUPS),
        combined("baseline", "baseline-like: all of the above left out",
                 "bf94d91's fields on today's documents (today's ast, symbols and references otherwise)",
                 WORD_GROUPS + ONE_CALL_GROUPS + ("ast-src", "grams-src"), True)]
