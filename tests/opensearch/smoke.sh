#!/usr/bin/env bash
# Smoke test of the node started by tests/opensearch/start.sh: checks that the
# features the product relies on are really there (analyzers, mustache search
# templates, composable index templates, _bulk, nested + inner_hits,
# _delete_by_query). Uses throw-away names (vibe-smoke-*) and cleans them up.
#   usage: tests/opensearch/smoke.sh      (OPENSEARCH_PORT, default 9200;
#          OPENSEARCH_VERSION, the version expected, default any 2.19.x)
set -uo pipefail
U="http://127.0.0.1:${OPENSEARCH_PORT:-9200}"
pass=0; fail=0
j() { curl -s -m 30 -H 'Content-Type: application/json' "$@"; }
nd() { curl -s -m 30 -H 'Content-Type: application/x-ndjson' "$@"; }
check() { # name, haystack, needle
    if [[ "$2" == *"$3"* ]]; then pass=$((pass + 1)); echo "ok   $1"
    else fail=$((fail + 1)); echo "FAIL $1: expected $3 in: ${2:0:400}"; fi
}
cleanup() {
    j -XDELETE "$U/vibe-smoke-*" >/dev/null; j -XDELETE "$U/_index_template/vibe-smoke" >/dev/null
    j -XDELETE "$U/_scripts/vibe-smoke-t1" >/dev/null
}
cleanup

check version "$(j "$U/")" "\"number\" : \"${OPENSEARCH_VERSION:-2.19.}"
r=$(j -XPOST "$U/_analyze" -d '{"analyzer":"russian","text":"функции функция"}')
t=$(grep -o '"token":"[^"]*"' <<<"$r" | sort -u | wc -l)
check "russian analyzer stems both words to one token" "$t tokens $r" '1 tokens'
check "english analyzer" "$(j -XPOST "$U/_analyze" -d '{"analyzer":"english","text":"functions"}')" '"token":"function"'
r=$(j -XPOST "$U/_analyze" -d '{"analyzer":"cjk","text":"代码搜索"}')
check "cjk bigrams" "$(grep -o '"token":"[^"]*"' <<<"$r" | tr -d '\n')" '"token":"代码""token":"码搜""token":"搜索"'

check "stored mustache script" "$(j -XPUT "$U/_scripts/vibe-smoke-t1" -d '{"script":{"lang":"mustache","source":{"query":{"match":{"f":"{{q}}"}}}}}')" '"acknowledged":true'
check "_render/template" "$(j -XPOST "$U/_render/template" -d '{"id":"vibe-smoke-t1","params":{"q":"x"}}')" '{"template_output":{"query":{"match":{"f":"x"}}}}'

check "composable index template" "$(j -XPUT "$U/_index_template/vibe-smoke" -d '{"index_patterns":["vibe-smoke-*"],"template":{"settings":{"number_of_shards":1,"number_of_replicas":0},"mappings":{"properties":{"f":{"type":"text","analyzer":"russian"},"items":{"type":"nested","properties":{"name":{"type":"keyword"}}}}}}}')" '"acknowledged":true'
body=$(printf '%s\n' '{"index":{"_index":"vibe-smoke-1","_id":"1"}}' '{"f":"функции x","items":[{"name":"a"},{"name":"b"}]}' \
                     '{"index":{"_index":"vibe-smoke-1","_id":"2"}}' '{"f":"y","items":[{"name":"c"}]}')$'\n'
check "_bulk" "$(nd -XPOST "$U/_bulk?refresh=true" --data-binary "$body")" '"errors":false'
check "template applied (nested mapping)" "$(j "$U/vibe-smoke-1/_mapping")" '"type":"nested"'
check "_search/template" "$(j -XPOST "$U/vibe-smoke-1/_search/template" -d '{"id":"vibe-smoke-t1","params":{"q":"функция"}}')" '"_id":"1"'
check "_msearch/template" "$(nd -XPOST "$U/_msearch/template" --data-binary "$(printf '%s\n' '{"index":"vibe-smoke-1"}' '{"id":"vibe-smoke-t1","params":{"q":"y"}}')"$'\n')" '"_id":"2"'
check "nested + inner_hits" "$(j -XPOST "$U/vibe-smoke-1/_search" -d '{"query":{"nested":{"path":"items","query":{"term":{"items.name":"b"}},"inner_hits":{}}}}')" '"_nested":{"field":"items","offset":1}'
check "_delete_by_query" "$(j -XPOST "$U/vibe-smoke-1/_delete_by_query?refresh=true" -d '{"query":{"term":{"_id":"2"}}}')" '"deleted":1'

cleanup
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
