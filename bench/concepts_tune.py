"""Runs a search_code_symbols template FILE (mustache, as in search-templates/)
directly against the index kept by `CONCEPTS_KEEP=1 bash bench/concepts.sh`
(prefix vibebench-concepts on 127.0.0.1:9200), for the look-ups of SETS, with
the parameters the gateway would send: hit@1, hit@3, MRR over 10 and
OpenSearch's `took`. For tuning on the DEV set only (bench/concepts/dev.jsonl):
the test sets are measured by concepts.sh and never tuned on.

  python3 bench/concepts_tune.py FILE bench/concepts/dev.jsonl[,MORE.jsonl] [target] [-v]

`target` searches each look-up's own project only; `-v` lists the misses;
PAD_CUT=0.5 drops results under that share of the best score, as the
gateway does for questions in words; NODFS=1 skips the dfs phase;
TUNE_PREFIX names another kept index (default vibebench-concepts).
"""
import json, os, sys, time, urllib.request, statistics, re
from pathlib import Path
tpl = Path(sys.argv[1]).read_text()
sets = sys.argv[2].split(",")
target = len(sys.argv) > 3 and sys.argv[3] == "target"
KINDS = {"functions": ["function", "method"], "classes": ["class", "type", "struct", "interface", "trait", "enum"],
         "variables": ["variable", "constant", "field", "enum"]}
PROJECT = {"python": "python", "go": "go", "java": "java", "javascript": "javascript", "ru": "ru_tree",
           "rust": "rust", "typescript": "typescript"}
# alias per project root
PREFIX = os.environ.get("TUNE_PREFIX", "vibebench-concepts")
meta = json.load(urllib.request.urlopen(f"http://127.0.0.1:9200/{PREFIX}_meta/_search?size=10"))
def post(path, body):
    req = urllib.request.Request("http://127.0.0.1:9200" + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    return json.load(urllib.request.urlopen(req))
qs = [json.loads(l) for s in sets for l in open(s) if l.strip()]
by = {}
tooks = []
for q in qs:
    p = {"query": q["query"], "name": q["query"], "lower": q["query"].lower(), "owner": None, "words": q["query"],
         "kinds": KINDS[q["tool"]], "all": False, "fuzzy": False, "names_only": False, "question": " " in q["query"].strip(), "cjk": False, "limit": 10, "offset": 0, "inner_limit": 5}
    idx = f"{PREFIX}_ast_*"
    if target:
        idx = f"{PREFIX}_ast_" + [h["_id"] for h in meta["hits"]["hits"] if h["_source"]["name"] == PROJECT[q["lang"]]][0]
    # As the gateway: a question in words ranks on every project's term statistics.
    dfs = "?search_type=dfs_query_then_fetch" if p["question"] and not os.environ.get("NODFS") else ""
    r = post(f"/{idx}/_search/template{dfs}", {"source": tpl, "params": p})
    tooks.append(r["took"])
    files = []
    hs = r["hits"]["hits"]
    cut = float(os.environ.get("PAD_CUT", "0"))
    if hs:
        top = (hs[0].get("sort") or [hs[0]["_score"]])[0]
        hs = [h for h in hs if (h.get("sort") or [h["_score"]])[0] >= cut * top]
    for h in hs:
        s = h.get("_source") or {k: v[0] for k, v in h.get("fields", {}).items()}  # doc values, not _source
        files.append(Path(s["root"]).name + "/" + s["path"])
    exp = {PROJECT[q["lang"]] + "/" + e for e in q["expected"]}
    rank = next((i + 1 for i, f in enumerate(files) if f in exp), 0)
    by.setdefault(q["lang"], []).append(rank)
    q["rank"] = rank; q["files"] = files[:3]
def m(ranks):
    n = len(ranks); return (sum(r == 1 for r in ranks)/n, sum(1 <= r <= 3 for r in ranks)/n, sum(1/r for r in ranks if r)/n)
for lang, ranks in sorted(by.items()):
    print(f"{lang:12} n={len(ranks):3} @1 {m(ranks)[0]:.2f} @3 {m(ranks)[1]:.2f} MRR {m(ranks)[2]:.2f}")
allr = [r for v in by.values() for r in v]
print(f"{'all':12} n={len(allr):3} @1 {m(allr)[0]:.2f} @3 {m(allr)[1]:.2f} MRR {m(allr)[2]:.2f}  took p50 {statistics.median(tooks)} max {max(tooks)}")
if "-v" in sys.argv:
    for q in qs:
        if not 1 <= q["rank"] <= 3: print("  miss", q["id"], q["query"], "->", q["files"], "rank", q["rank"])
