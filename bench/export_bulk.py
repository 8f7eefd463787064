"""Dump the documents the indexer wrote into NDJSON `_bulk` bodies.

    python3 bench/export_bulk.py URL FILES_ALIAS ANALYSIS_ALIAS RAW_FILES RAW_ANALYSIS OUT_DIR MAX_BYTES

Scrolls both aliases' `_source`s and writes, per file and in the indexer's
order (content document, then analysis document), `index` actions into the
RAW_* indices, cut into OUT_DIR/chunk-NNNN.ndjson files the way the indexer
cuts its bulk bodies (a body is sent once it reaches MAX_BYTES). Prints the
number of documents.
"""

import json
import os
import sys

from benchlib import os_scroll


def scroll(base, index):
    return {h["_id"]: h["_source"] for h in os_scroll(base, index, {"size": 2000, "sort": ["_doc"]}, keep="2m")}


def main():
    base, files_alias, analysis_alias, raw_files, raw_analysis, out_dir, max_bytes = sys.argv[1:]
    max_bytes = int(max_bytes)
    files = scroll(base, files_alias)
    analysis = scroll(base, analysis_alias)
    os.makedirs(out_dir, exist_ok=True)
    chunk, body, docs = 0, bytearray(), 0

    def flush():
        nonlocal chunk, body
        if body:
            with open(os.path.join(out_dir, f"chunk-{chunk:04}.ndjson"), "wb") as f:
                f.write(body)
            chunk += 1
            body = bytearray()

    def push(index, doc_id, source):
        nonlocal docs
        body.extend(json.dumps({"index": {"_index": index, "_id": doc_id}}, separators=(",", ":")).encode())
        body.extend(b"\n")
        body.extend(json.dumps(source, separators=(",", ":"), ensure_ascii=False).encode())
        body.extend(b"\n")
        docs += 1
        if len(body) >= max_bytes:
            flush()

    for doc_id in sorted(set(files) | set(analysis)):
        if doc_id in files:
            push(raw_files, doc_id, files[doc_id])
        if doc_id in analysis:
            push(raw_analysis, doc_id, analysis[doc_id])
    flush()
    print(docs)


if __name__ == "__main__":
    main()
