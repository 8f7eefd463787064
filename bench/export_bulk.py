"""Turn the indexer's own bulk bodies into `_bulk` bodies for raw indices.

    python3 bench/export_bulk.py DUMP RAW_FILES RAW_ANALYSIS OUT_DIR MAX_BYTES

DUMP is what `VIBE_DUMP_BULK=DUMP scan index` wrote: every document exactly
as the indexer sent it. (Scrolling `_source` back out no longer gives them:
the match-only fields, such as grams, symbols, references, about and words,
are left out of `_source`.) Writes, in the indexer's order, `index` actions
into RAW_FILES (content documents) and RAW_ANALYSIS (AST documents), cut
into OUT_DIR/chunk-NNNN.ndjson the way the indexer cuts its bodies (sent
once a body reaches MAX_BYTES after a file's pair of documents, and at each
project's end). Prints the number of documents.
"""

import os
import sys

import field_cost
from field_cost import bodies, read_dump


def main():
    dump, raw_files, raw_analysis, out_dir, max_bytes = sys.argv[1:]
    field_cost.MAX_BULK_BYTES = int(max_bytes)
    docs, _ = read_dump(dump)
    os.makedirs(out_dir, exist_ok=True)
    chunks = bodies(docs, lambda d: raw_files if d.kind == "files" else raw_analysis)
    for i, chunk in enumerate(chunks):
        with open(os.path.join(out_dir, f"chunk-{i:04}.ndjson"), "wb") as f:
            f.write(chunk)
    print(len(docs))


if __name__ == "__main__":
    main()
