"""What each field group added by word ranking and the one-call work costs
(index size, indexing time) and what it buys. Run by bench/field_cost.sh
(its header says how to read the table).

    python3 bench/field_cost.py --dump BULK.ndjson --prefix P [--runs 2] [--os-pid PID] [--json OUT]
    python3 bench/field_cost.py --report OUT        # the table of a saved run again

BULK.ndjson: what `VIBE_DUMP_BULK` wrote during a full `scan index` under
the prefix P. Per variant, each physical index `P_data_{files,analysis}_<hash>_g<n>`
gets a copy `P_fc_<variant>_{files,ast}_<hash>` with the live index's
settings and mapping, less the variant's field group (in the mapping and in
the documents), bulked in bodies cut as the indexer cuts them, BULK_IN_FLIGHT
at a time; then merged to one segment as the indexer does at the alias swap.
Sizes once `_recovery_source` is pruned (the retention leases waited for,
one document posted again so that a merge rewrites the segment) and as left
after the first merge. Questions in words: bench/concepts/dev.jsonl (the dev
set only) through the stored `search_code_symbols` template, scoped to each
question's project on the variant's copy, the gateway's 0.5 score cut.
"""

from __future__ import annotations

import argparse
import copy
import http.client
import json
import os
import re
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from benchlib import BENCH, logger, opensearch_url, os_json
from field_cost_variants import Variant, all_variants

log = logger("field_cost")
ROOT = BENCH.parent


def indexer_const(name: str, default: int) -> int:
    """A constant of the indexer's bulk writer (ingest/src/indexer/bulk.rs)."""
    text = (ROOT / "ingest/src/indexer/bulk.rs").read_text()
    m = re.search(rf"pub const {name}: usize = ([0-9 *_]+);", text)
    return eval(m[1].replace("_", "")) if m else default  # noqa: S307 - digits and * only


MAX_BULK_BYTES = indexer_const("MAX_BULK_BYTES", 5 * 1024 * 1024)
BULK_IN_FLIGHT = indexer_const("BULK_IN_FLIGHT", 2)
SYMBOL_KINDS = {"functions": ["function", "method"],
                "classes": ["class", "type", "struct", "interface", "trait", "enum"],
                "variables": ["variable", "constant", "field", "enum"]}
KEPT_SETTINGS = ("number_of_shards", "number_of_replicas", "auto_expand_replicas", "refresh_interval",
                 "max_inner_result_window", "max_regex_length", "sort", "mapping", "analysis")


# ---------------------------------------------------------------- variants (field_cost_variants.py)

# ---------------------------------------------------------------- the dump

@dataclass
class Doc:
    kind: str  # "files" | "ast"
    project: str  # the project's hash
    id: str
    raw: bytes  # the document line, without its newline


PHYSICAL = re.compile(r"^(?P<prefix>.+)_data_(?P<kind>files|analysis)_(?P<hash>[0-9a-f]+)_g\d+$")


def read_dump(path: str) -> tuple[list[Doc], dict[tuple[str, str], str]]:
    """The dump's documents in order, and the physical index of each
    (kind, project). Deletes (none in a full index) are left out."""
    docs, physical = [], {}
    with open(path, "rb") as f:
        for action in f:
            op, meta = next(iter(json.loads(action).items()))
            if op != "index":
                continue
            m = PHYSICAL.match(meta["_index"])
            if not m:
                raise SystemExit(f"not a data index: {meta['_index']}")
            kind = "files" if m["kind"] == "files" else "ast"
            physical[(kind, m["hash"])] = meta["_index"]
            docs.append(Doc(kind, m["hash"], meta["_id"], f.readline().rstrip(b"\n")))
    return docs, physical


def variant_index(prefix: str, variant: Variant, kind: str, project: str) -> str:
    return f"{prefix}_fc_{variant.name}_{kind}_{project}"


def transformed(doc: Doc, variant: Variant) -> bytes:
    edits = variant.ast_doc if doc.kind == "ast" else variant.files_doc
    if not edits:
        return doc.raw
    d = json.loads(doc.raw)
    for edit in edits:
        edit(d)
    return json.dumps(d, ensure_ascii=False, separators=(",", ":")).encode()


def bodies(docs: list[Doc], target, line=lambda doc: doc.raw) -> list[bytes]:
    """Bulk bodies of `index` actions into target(doc) with line(doc) as
    the document, cut as the indexer cuts: after an AST document (the
    second of a file's pair) once MAX_BULK_BYTES is reached, and at each
    project's end."""
    out, body, project = [], bytearray(), None
    for doc in docs:
        if doc.project != project and body:
            out.append(bytes(body))
            body = bytearray()
        project = doc.project
        action = {"index": {"_index": target(doc), "_id": doc.id}}
        body += json.dumps(action, separators=(",", ":")).encode() + b"\n" + line(doc) + b"\n"
        if doc.kind == "ast" and len(body) >= MAX_BULK_BYTES:
            out.append(bytes(body))
            body = bytearray()
    if body:
        out.append(bytes(body))
    return out


def variant_bodies(docs: list[Doc], variant: Variant, prefix: str) -> list[bytes]:
    return bodies(docs, lambda d: variant_index(prefix, variant, d.kind, d.project), lambda d: transformed(d, variant))


# ---------------------------------------------------------------- indices

def live_index_body(base: str, index: str) -> dict:
    """The settings that shape an index (not its identity) and its mapping."""
    settings = os_json(base, f"/{index}/_settings")[index]["settings"]["index"]
    mapping = os_json(base, f"/{index}/_mapping")[index]["mappings"]
    return {"settings": {"index": {k: v for k, v in settings.items() if k in KEPT_SETTINGS}}, "mappings": mapping}


def create_indices(base: str, prefix: str, variant: Variant, live: dict) -> list[str]:
    names = []
    for (kind, project), body in live.items():
        body = copy.deepcopy(body)
        for edit in variant.ast_map if kind == "ast" else variant.files_map:
            edit(body["mappings"])
        name = variant_index(prefix, variant, kind, project)
        delete_index(base, name)
        os_json(base, f"/{name}", body, method="PUT")
        names.append(name)
    return names


def delete_index(base: str, name: str) -> None:
    os_json(base, f"/{name}?ignore_unavailable=true", method="DELETE")


def store_bytes(base: str, names: list[str]) -> tuple[int, int]:
    """(store bytes, Lucene docs) of the indices, primaries and replicas."""
    s = os_json(base, f"/{','.join(names)}/_stats/store,docs")["_all"]["total"]
    return s["store"]["size_in_bytes"], s["docs"]["count"]


def product_size(base: str, names: list[str], timeout_s: float = 300) -> int:
    """Store bytes of the product's own indices once their merges are done."""
    t0 = time.time()
    while time.time() < t0 + timeout_s:
        merges = os_json(base, f"/{','.join(names)}/_stats/merge")["_all"]["total"]["merges"]["current"]
        if merges == 0:
            break
        time.sleep(3)
    os_json(base, f"/{','.join(names)}/_refresh", {})  # as the first search would
    return store_bytes(base, names)[0]


# ---------------------------------------------------------------- bulk

class Poster:
    """Posts bodies to _bulk on one keep-alive connection per thread."""

    def __init__(self, base: str):
        self.url = urllib.parse.urlsplit(base)
        self.local = threading.local()

    def conn(self) -> http.client.HTTPConnection:
        if not hasattr(self.local, "conn"):
            self.local.conn = http.client.HTTPConnection(self.url.hostname, self.url.port or 9200, timeout=600)
        return self.local.conn

    def post(self, body: bytes) -> None:
        c = self.conn()
        c.request("POST", "/_bulk", body=body, headers={"content-type": "application/x-ndjson"})
        r = c.getresponse()
        raw = r.read()
        if r.status != 200 or b'"errors":false' not in raw[:200]:
            first = next((i for i in json.loads(raw).get("items", []) if "error" in next(iter(i.values()))), None)
            raise SystemExit(f"_bulk failed ({r.status}): {json.dumps(first)[:400] if first else raw[:400]}")


def os_cpu(pid: int | None) -> float:
    """CPU seconds used so far by OpenSearch (0 without its pid)."""
    if not pid:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_pct() -> int:
    def sample():
        v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
        return v[3], sum(v)
    i1, t1 = sample()
    time.sleep(1)
    i2, t2 = sample()
    return int(100 * (i2 - i1) / (t2 - t1)) if t2 > t1 else 100


def wait_quiet(limit_s: float, want: int) -> int:
    """Waits (at most limit_s) for want % idle CPU; returns the last reading."""
    deadline, idle = time.time() + limit_s, idle_pct()
    while idle < want and time.time() < deadline:
        time.sleep(2)
        idle = idle_pct()
    return idle


@dataclass
class Run:
    wall: float
    os_cpu: float
    shard: float
    merge: float
    idle: int


def shard_seconds(base: str, names: list[str]) -> float:
    """Time the shards spent indexing, refreshing and merging the indices
    (their own stats: other users of the node do not count)."""
    p = os_json(base, f"/{','.join(names)}/_stats/indexing,refresh,merge")["_all"]["primaries"]
    ms = p["indexing"]["index_time_in_millis"] + p["refresh"]["total_time_in_millis"]
    return (ms + p["merges"]["total_time_in_millis"]) / 1000


def index_variant(base: str, prefix: str, variant: Variant, docs, live, pid, quiet) -> tuple[Run, list[str], int]:
    """One timed bulk of the variant into fresh copies, then the merge."""
    names = create_indices(base, prefix, variant, live)
    chunks = variant_bodies(docs, variant, prefix)
    size = sum(map(len, chunks))
    idle = wait_quiet(*quiet)
    poster = Poster(base)
    c0, t0 = os_cpu(pid), time.perf_counter()
    with ThreadPoolExecutor(BULK_IN_FLIGHT) as pool:
        list(pool.map(poster.post, chunks))
    os_json(base, f"/{','.join(names)}/_refresh", {})
    wall, cpu = time.perf_counter() - t0, os_cpu(pid) - c0
    shard, t1 = shard_seconds(base, names), time.perf_counter()
    os_json(base, f"/{','.join(names)}/_forcemerge?max_num_segments=1", {})
    merge = time.perf_counter() - t1
    # The replaced segments' files go once no reader or commit holds them.
    os_json(base, f"/{','.join(names)}/_refresh", {})
    os_json(base, f"/{','.join(names)}/_flush", {})
    return Run(wall, cpu, shard, merge, idle), names, size


# ---------------------------------------------------------------- pruning

def leases_caught_up(base: str, pattern: str) -> bool:
    stats = os_json(base, f"/{pattern}/_stats?level=shards&filter_path=indices.*.shards.*.seq_no,"
                          "indices.*.shards.*.retention_leases")
    for index in stats.get("indices", {}).values():
        for copies in index["shards"].values():
            for c in copies:
                top = c["seq_no"]["max_seq_no"]
                if any(lease["retaining_seq_no"] <= top for lease in c["retention_leases"]["leases"]):
                    return False
    return True


def prune(base: str, prefix: str, docs: list[Doc], variants: list[Variant], timeout_s: float = 300) -> None:
    """Posts each variant's last document of every index again, flushes,
    waits until the retention leases are past every operation, and merges
    to one segment: the merge drops `_recovery_source` and the replaced
    document."""
    last = {}
    for doc in docs:
        last[(doc.kind, doc.project)] = doc
    for v in variants:
        body = b"".join(json.dumps({"index": {"_index": variant_index(prefix, v, d.kind, d.project), "_id": d.id}})
                        .encode() + b"\n" + transformed(d, v) + b"\n" for d in last.values())
        Poster(base).post(body)
    pattern = f"{prefix}_fc_*"
    os_json(base, f"/{pattern}/_refresh", {})
    os_json(base, f"/{pattern}/_flush", {})
    t0 = time.time()
    while not leases_caught_up(base, pattern):
        if time.time() > t0 + timeout_s:
            log(f"retention leases still behind after {timeout_s:.0f} s: pruned sizes may keep _recovery_source")
            break
        time.sleep(5)
    log(f"retention leases past every operation after {time.time() - t0:.0f} s")
    for v in variants:
        os_json(base, f"/{prefix}_fc_{v.name}_*/_forcemerge?max_num_segments=1", {})


# ---------------------------------------------------------------- questions in words

def template_id(base: str, prefix: str) -> str:
    scripts = os_json(base, "/_cluster/state/metadata?filter_path=metadata.stored_scripts")
    ids = [i for i in scripts.get("metadata", {}).get("stored_scripts", {}) if
           i.startswith(f"{prefix}_search_code_symbols_v")]
    if not ids:
        raise SystemExit(f"no stored template {prefix}_search_code_symbols_v* (run scan index first)")
    return max(ids, key=lambda i: int(i.rsplit("_v", 1)[1]))


def question_params(q: dict) -> dict:
    """The gateway's parameters for a question in words (params::code, the exact pass)."""
    query = q["query"]
    return {"query": query, "name": query, "lower": query.lower(), "owner": None, "words": query,
            "kinds": SYMBOL_KINDS[q["tool"]], "all": False, "fuzzy": False, "names_only": False,
            "question": True, "limit": 10, "offset": 0, "inner_limit": 5}


def ranked_paths(response: dict, cut: float = 0.5) -> list[str]:
    hits = response["hits"]["hits"]
    if not hits:
        return []
    top = hits[0]["_score"] or 0
    return [h["fields"]["path"][0] for h in hits if (h["_score"] or 0) >= cut * top]


def words_quality(base: str, prefix: str, variant: Variant, tid: str, questions, projects) -> dict:
    """hit@3 and MRR of the dev questions on the variant's AST indices."""
    ranks = []
    for q in questions:
        index = variant_index(prefix, variant, "ast", projects[q["lang"]])
        r = os_json(base, f"/{index}/_search/template", {"id": tid, "params": question_params(q)})
        paths = ranked_paths(r)
        ranks.append(next((i + 1 for i, p in enumerate(paths) if p in q["expected"]), 0))
    n = len(ranks) or 1
    return {"n": len(ranks), "hit3": sum(1 <= r <= 3 for r in ranks) / n, "mrr": sum(1 / r for r in ranks if r) / n}


def dev_questions(base: str, prefix: str) -> tuple[list[dict], dict[str, str]]:
    """The dev questions whose project is indexed, and each project's hash."""
    meta = os_json(base, f"/{prefix}_meta/_search?size=100")
    projects = {h["_source"]["name"]: h["_id"] for h in meta["hits"]["hits"]}
    qs = [json.loads(line) for line in open(BENCH / "concepts" / "dev.jsonl") if line.strip()]
    return [q for q in qs if q["lang"] in projects], projects


# ---------------------------------------------------------------- report

def mb(b: float) -> str:
    return f"{b / 1048576:.1f}"


def delta(v: float, full: float) -> str:
    d = v - full
    pct = 100 * d / full if full else 0
    return f"{d:+.1f} ({pct:+.0f} %)"


def report(results: list[dict], scan: str | None) -> None:
    full = results[0]
    head = ("field group", "size MB", "Δ size MB", "bulk s", "Δ bulk s", "shard s", "Δ shard s",
            "as left MB", "dev hit@3 / MRR", "what it buys")
    print("\n| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for r in results:
        q = r.get("words")
        cells = (r["label"], mb(r["pruned"]), delta(r["pruned"] / 1048576, full["pruned"] / 1048576),
                 f"{r['wall']:.1f}", delta(r["wall"], full["wall"]), f"{r['shard']:.1f}",
                 delta(r["shard"], full["shard"]), "-".join(mb(b) for b in (min(r["merged"]), max(r["merged"]))),
                 f"{q['hit3']:.2f} / {q['mrr']:.2f}" if q else "-", r["buys"])
        print("| " + " | ".join(cells) + " |")
    print()
    runs = lambda xs: "/".join(f"{x:.1f}" for x in xs)  # noqa: E731
    for r in results:
        print(f"  {r['label']}: bulk wall s {runs(r['walls'])}, OS CPU s {runs(r['cpus'])}, shard s "
              f"{runs(r['shards'])}, merge s {runs(r['merges'])} (idle {'/'.join(map(str, r['idles']))} %), "
              f"{r['bulk_mb']:.0f} MB of bodies, {r['docs']} Lucene docs")
    if scan:
        print(f"  the product's full index that wrote the dump: {scan}")
    print(f"  the product's own indices as that full index left them: {mb(full['product'])} MB")
    print("  size: store once _recovery_source is pruned (merged after the retention leases passed every "
          "operation); as left: merged right after the bulk, as the indexer does (keeps the _recovery_source "
          "of documents the lease had not passed yet: varies with timing); bulk s: posts and refresh, wall; shard s: "
          "the indices' own indexing + refresh + merge time during the bulk (other users of the node do not "
          "count); best of the runs")


def measure(args, variants: list[Variant]) -> list[dict]:
    base = args.url
    docs, physical = read_dump(args.dump)
    log(f"{len(docs)} documents in {len({d.project for d in docs})} projects from {args.dump}")
    live = {key: live_index_body(base, name) for key, name in physical.items()}
    product = product_size(base, list(physical.values()))
    log(f"the product's indices as the full index left them: {mb(product)} MB")
    quiet = (args.quiet_wait, args.quiet_idle)
    res = {v.name: {"label": v.label, "buys": v.buys, "walls": [], "cpus": [], "shards": [], "idles": [], "merges": [], "merged": []}
           for v in variants}
    for run in range(1, args.runs + 1):
        for v in variants:
            t, names, size = index_variant(base, args.prefix, v, docs, live, args.os_pid, quiet)
            r = res[v.name]
            for key, value in (("walls", t.wall), ("cpus", t.os_cpu), ("shards", t.shard), ("idles", t.idle),
                               ("merges", t.merge)):
                r[key].append(value)
            merged, r["docs"] = store_bytes(base, names)
            r["merged"].append(merged)
            r["bulk_mb"], r["names"] = size / 1048576, names
            log(f"run {run}/{args.runs} {v.name}: {t.wall:.1f} s, OS CPU {t.os_cpu:.1f} s, shard {t.shard:.1f} s, "
                f"merge {t.merge:.1f} s, "
                f"{mb(merged)} MB merged ({t.idle} % idle before)")
    log("pruning _recovery_source (waiting for the retention leases)")
    prune(base, args.prefix, docs, variants)
    tid, (questions, projects) = template_id(base, args.prefix), dev_questions(base, args.prefix)
    log(f"{len(questions)} dev questions in words ({', '.join(sorted({q['lang'] for q in questions}))}), {tid}")
    out = []
    for v in variants:
        r = res[v.name]
        r["pruned"] = store_bytes(base, r.pop("names"))[0]
        r["wall"], r["os_cpu"], r["shard"] = min(r["walls"]), min(r["cpus"]), min(r["shards"])
        if v.words and questions:
            r["words"] = words_quality(base, args.prefix, v, tid, questions, projects)
        out.append({"name": v.name, **r})
    out[0]["product"], out[0]["scan"] = product, args.scan
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump")
    ap.add_argument("--prefix")
    ap.add_argument("--report", default=None, help="print the table of a saved --json file, measure nothing")
    ap.add_argument("--url", default=opensearch_url())
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--os-pid", type=int, default=0)
    ap.add_argument("--only", default="", help="comma-separated variant names (full always runs)")
    ap.add_argument("--quiet-wait", type=float, default=float(os.environ.get("BENCH_QUIET_WAIT", 300)))
    ap.add_argument("--quiet-idle", type=int, default=int(os.environ.get("BENCH_QUIET_IDLE", 85)))
    ap.add_argument("--scan", default=None, help="a line about the full index that wrote the dump")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if args.report:
        results = json.loads(Path(args.report).read_text())
        report(results, results[0].get("scan"))
        return
    if not (args.dump and args.prefix):
        ap.error("--dump and --prefix are needed to measure")
    variants = all_variants()
    if args.only:
        keep = set(args.only.split(",")) | {"full"}
        variants = [v for v in variants if v.name in keep]
    results = measure(args, variants)
    report(results, args.scan)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
