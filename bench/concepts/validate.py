"""Sanity check for the concept question sets: JSON, unique ids, paths exist, counts, name leakage."""
import json, os, re, collections, sys
B = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("CORPORA", "/root/.cache/vibe-bench/corpora")
def load(p):
    out = []
    for i, line in enumerate(open(p, encoding="utf-8"), 1):
        out.append(json.loads(line))
    return out
sets = {"test": load(f"{B}/questions.jsonl"), "dev": load(f"{B}/dev.jsonl")}
if os.path.exists(f"{B}/questions_ru.jsonl"):
    sets["ru"] = load(f"{B}/questions_ru.jsonl")
ids = collections.Counter(r["id"] for s in sets.values() for r in s)
dups = [i for i, c in ids.items() if c > 1]
print("duplicate ids:", dups)
problems = 0
files = {k: collections.Counter() for k in sets}
for name, recs in sets.items():
    cnt = collections.Counter((r["lang"], r["tool"]) for r in recs)
    print(f"== {name}: {len(recs)} records")
    for lang in sorted({r['lang'] for r in recs}):
        print("  ", lang, sum(v for (l, t), v in cnt.items() if l == lang),
              {t: v for (l, t), v in cnt.items() if l == lang})
    for r in recs:
        assert set(r) == {"id", "lang", "tool", "query", "expected", "symbol"}, r
        assert r["tool"] in ("functions", "classes", "variables"), r
        base = f"{B}/ru_tree" if r["lang"] == "ru" else f"{ROOT}/{r['lang']}"
        files[name][(r["lang"], r["expected"][0])] += 1
        for e in r["expected"]:
            if not os.path.isfile(f"{base}/{e}"):
                print("  MISSING PATH", r["id"], e); problems += 1
        bare = r["symbol"].split(".")[-1]
        q = r["query"]
        if re.search(r"(?<![A-Za-z0-9_])" + re.escape(bare) + r"(?![A-Za-z0-9_])", q, re.I):
            print("  NAME IN QUERY (word)", r["id"], bare, "|", q); problems += 1
        elif bare.lower() in q.lower() and len(bare) > 3:
            print("  name substring (info)", r["id"], bare, "|", q)
        # split camel/snake words, check whole sequence copied
        parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", bare)]
        if len(parts) >= 2 and " ".join(parts) in q.lower():
            print("  NAME WORDS IN QUERY", r["id"], bare, "|", q); problems += 1
        n = len(q.split())
        if not 3 <= n <= 12:
            print("  WORDCOUNT", n, r["id"], q)
        if re.search(r"\w+\.(py|go|java|js)\b", q):
            print("  FILENAME?", r["id"], q)
for name in files:
    for k, c in files[name].items():
        if c > 2: print("  >2 per file", name, k, c)
ov = set(files["test"]) & set(files["dev"])
print("test/dev file overlap:", sorted(ov))
print("problems:", problems)
