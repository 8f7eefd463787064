"""Turn the indexer's own bulk bodies into `_bulk` bodies for raw indices.

    python3 bench/export_bulk.py DUMP RAW_FILES RAW_ANALYSIS OUT_DIR MAX_BYTES

DUMP is what `ingest/examples/bulk_bodies.rs` wrote: every document exactly
as the indexer builds it. (Scrolling `_source` back out no longer gives them:
the match-only fields, such as grams, symbols, references, about and words,
are left out of `_source`.) Writes, in the indexer's order, `index` actions
into RAW_FILES (content documents) and RAW_ANALYSIS (AST documents), cut
into OUT_DIR/chunk-NNNN.ndjson the way the indexer cuts its bodies (sent
once a body reaches MAX_BYTES after a file's pair of documents, and at each
project's end). Prints the number of documents.
"""

import json
import os
import re
import sys
from dataclasses import dataclass


@dataclass
class Doc:
    kind: str  # "files" | "ast"
    project: str  # the project's hash
    id: str
    raw: bytes  # the document line, without its newline


PHYSICAL = re.compile(r"^(?P<prefix>.+)_data_(?P<kind>files|analysis)_(?P<hash>[0-9a-f]+)_g\d+$")


def read_dump(path: str) -> list[Doc]:
    """The dump's documents in order (deletes, none in a full index, are left out)."""
    docs = []
    with open(path, "rb") as f:
        for action in f:
            op, meta = next(iter(json.loads(action).items()))
            if op != "index":
                continue
            m = PHYSICAL.match(meta["_index"])
            if not m:
                raise SystemExit(f"not a data index: {meta['_index']}")
            kind = "files" if m["kind"] == "files" else "ast"
            docs.append(Doc(kind, m["hash"], meta["_id"], f.readline().rstrip(b"\n")))
    return docs


def bodies(docs: list[Doc], target, max_bytes: int) -> list[bytes]:
    """Bulk bodies of `index` actions into target(doc), cut as the indexer
    cuts: after an AST document (the second of a file's pair) once
    max_bytes is reached, and at each project's end."""
    out, body, project = [], bytearray(), None
    for doc in docs:
        if doc.project != project and body:
            out.append(bytes(body))
            body = bytearray()
        project = doc.project
        action = {"index": {"_index": target(doc), "_id": doc.id}}
        body += json.dumps(action, separators=(",", ":")).encode() + b"\n" + doc.raw + b"\n"
        if doc.kind == "ast" and len(body) >= max_bytes:
            out.append(bytes(body))
            body = bytearray()
    if body:
        out.append(bytes(body))
    return out


def main():
    dump, raw_files, raw_analysis, out_dir, max_bytes = sys.argv[1:]
    docs = read_dump(dump)
    os.makedirs(out_dir, exist_ok=True)
    chunks = bodies(docs, lambda d: raw_files if d.kind == "files" else raw_analysis, int(max_bytes))
    for i, chunk in enumerate(chunks):
        with open(os.path.join(out_dir, f"chunk-{i:04}.ndjson"), "wb") as f:
            f.write(chunk)
    print(len(docs))


if __name__ == "__main__":
    main()
