#!/usr/bin/env bash
# The raw side of bench/full_index.sh: what the indexer does to OpenSearch,
# with curl and prepared bodies. Creates the two indices (matched by the
# product's index templates), posts every chunk to _bulk in order, then
# refreshes. REFRESH: `on` keeps the template's 1 s refresh interval while
# posting (as the indexer does); `off` turns refresh off until the end (the
# usual advice for bulk loads). full_index.sh times both and keeps the faster.
#
#   bash bench/raw_bulk.sh URL FILES_INDEX ANALYSIS_INDEX CHUNK_DIR [on|off]
set -euo pipefail
URL="$1"; FILES="$2"; ANALYSIS="$3"; DIR="$4"; REFRESH="${5:-on}"
J=(-H 'Content-Type: application/json')
SETTINGS='{}'
[ "$REFRESH" = off ] && SETTINGS='{"settings":{"index":{"refresh_interval":"-1"}}}'
for index in "$FILES" "$ANALYSIS"; do
    curl -sf -o /dev/null -X PUT "${J[@]}" "$URL/$index" -d "$SETTINGS"
done
n=0
for chunk in "$DIR"/chunk-*.ndjson; do
    curl -sf -o "$DIR/response-$n.json" -H 'Content-Type: application/x-ndjson' \
        --data-binary "@$chunk" "$URL/_bulk"
    n=$((n + 1))
done
for index in "$FILES" "$ANALYSIS"; do
    curl -sf -o /dev/null -X PUT "${J[@]}" "$URL/$index/_settings" -d '{"index":{"refresh_interval":"1s"}}'
    curl -sf -o /dev/null -X POST "$URL/$index/_refresh"
done
