#!/usr/bin/env bash
# Freshness of `scan watch` (issue 14): on a copy of two corpora (rust + go
# from bench/corpora.sh, ~3,000 files), the delay from a change on disk to
# the change being searchable in the files index, for single added, changed,
# renamed and deleted files ($BENCH_WATCH_OPS rounds each, default 10; p50 and
# max), and for a burst of 1,000 new files (delay to all 1,000 searchable,
# from the first and from the last write, and how many batches it took).
# Then the CPU the idle watcher uses over 10 s (/proc/<pid>/stat).
#
#   bash bench/watch.sh                 (VIBE_BIN=path skips the build)
#
# Target: every delay under 2 s; the burst in one batch (or very few).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"
PREFIX="vibebench-watch"
CORPORA="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
private_binary
start_opensearch

TREE="$WORK/tree"
mkdir -p "$TREE"
for lang in rust go; do
    [ -d "$CORPORA/$lang" ] || { log "no $CORPORA/$lang: run bash bench/corpora.sh $lang"; exit 1; }
    cp -a "$CORPORA/$lang" "$TREE/$lang"
done
CFG="$WORK/config"
make_config "$CFG" "$PREFIX"
drop_prefix "$PREFIX"
CLEANUPS+=("drop_prefix $PREFIX")
"$BIN" --config-dir "$CFG" source add "$TREE" >/dev/null
log "tree: $(tree_summary "$TREE")"

"$BIN" --config-dir "$CFG" scan watch --no-llm >"$WORK/watch.out" 2>"$WORK/watch.err" &
WATCHER=$!
CLEANUPS=("kill $WATCHER 2>/dev/null; wait $WATCHER 2>/dev/null" "${CLEANUPS[@]}")
for _ in $(seq 1 1200); do
    grep -q '^watch: watching' "$WORK/watch.out" && break
    kill -0 "$WATCHER" 2>/dev/null || { cat "$WORK/watch.err" >&2; log "scan watch exited"; exit 1; }
    sleep 0.1
done
grep -q '^watch: watching' "$WORK/watch.out" || { log "scan watch did not start"; exit 1; }
log "$(head -n2 "$WORK/watch.out" | paste -sd' ')"

python3 - "$OS_URL" "$PREFIX" "$TREE" "$WORK/watch.out" "${BENCH_WATCH_OPS:-10}" >"$WORK/table" <<'EOF'
import json, os, re, statistics, sys, time, urllib.request

url, prefix, tree, log, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
# The physical files indices (every generation).
files = f"{prefix}_data_files_*"

def post(path, body):
    req = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)

def doc(rel):
    hits = post(f"/{files}/_search", {"query": {"ids": {"values": [rel]}}, "_source": ["content"]})["hits"]["hits"]
    return hits[0]["_source"] if hits else None

def count():
    return post(f"/{files}/_count", {})["count"]

def wait(cond, timeout=30):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            return None
        time.sleep(0.01)
    return True

def lines():
    return open(log).read().splitlines()

def batch_secs(ls):
    return [float(m.group(1)) for l in ls if (m := re.search(r"indexed in ([0-9.]+) s", l))]

def write(rel, text):
    p = os.path.join(tree, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)

delays = {"add": [], "change": [], "rename": [], "delete": []}
first = len(lines())
def timed(kind, op, cond):
    time.sleep(0.8)  # let the previous batch finish: one change per batch
    t0 = time.monotonic()
    op()
    ok = wait(cond)
    delays[kind].append(time.monotonic() - t0 if ok else float("inf"))

for i in range(rounds):
    a, r = f"watchbench/add_{i}.py", f"watchbench/ren_{i}.py"
    timed("add", lambda: write(a, f"def added_{i}():\n    return {i}\n"), lambda: doc(a) is not None)
    timed("change", lambda: write(a, f"def changed_{i}():\n    return {i}\n"),
          lambda: "changed_" in ((doc(a) or {}).get("content") or ""))
    timed("rename", lambda: os.rename(os.path.join(tree, a), os.path.join(tree, r)),
          lambda: doc(r) is not None and doc(a) is None)
    timed("delete", lambda: os.remove(os.path.join(tree, r)), lambda: doc(r) is None)
single = batch_secs(lines()[first:])

time.sleep(1)
before, base = len(lines()), count()
t0 = time.monotonic()
for i in range(1000):
    write(f"burst/b{i // 100}/f{i}.py", f"def burst_{i}():\n    return {i}\n")
t_last = time.monotonic()
ok = wait(lambda: count() >= base + 1000, timeout=120)
t1 = time.monotonic()
time.sleep(1.5)
burst_batches = batch_secs(lines()[before:])

def row(name, xs):
    xs = sorted(xs)
    print(f"{name:<34} {statistics.median(xs):>8.2f} {xs[-1]:>8.2f} {len(xs):>6}")
print(f"{'change -> searchable':<34} {'p50 s':>8} {'max s':>8} {'n':>6}")
for k, xs in delays.items():
    row(f"one file {k.rstrip('e')}ed", xs)
row("  of which the index run (per batch)", single)
if ok:
    print(f"{'burst of 1,000 new files':<34} {t1 - t0:>8.2f} {'':>8} {'':>6}  from the first write "
          f"({t1 - t_last:.2f} s from the last; writing took {t_last - t0:.2f} s)")
else:
    print("burst of 1,000 new files: NOT all searchable within 120 s")
print(f"{'  batches for the burst':<34} {len(burst_batches):>8} {'':>8} {'':>6}  index runs: "
      + ", ".join(f"{s:.2f} s" for s in burst_batches))
EOF

# Idle CPU: nothing changes for 10 s.
sleep 2
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$WATCHER/stat"; }
rss() { awk '/VmRSS/{print $2}' "/proc/$WATCHER/status"; }
c0="$(cpu)"; lines0="$(wc -l <"$WORK/watch.out")"
sleep 10
c1="$(cpu)"; lines1="$(wc -l <"$WORK/watch.out")"

echo
echo "== scan watch: freshness on $(tree_summary "$TREE") =="
grep '^watch: initial sync' "$WORK/watch.out" || true
grep '^watch: watching' "$WORK/watch.out" || true
cat "$WORK/table"
printf '%-34s %8s s CPU over 10 s (%s %%), %s batches, RSS %s KB\n' "idle watcher" \
    "$(awk -v a="$c0" -v b="$c1" 'BEGIN{printf "%.2f", b-a}')" \
    "$(awk -v a="$c0" -v b="$c1" 'BEGIN{printf "%.1f", (b-a)*10}')" "$((lines1 - lines0))" "$(rss)"
if grep -q 'error\|failed' "$WORK/watch.out"; then
    echo "errors reported by the watcher:"; grep 'error\|failed' "$WORK/watch.out" | head
fi
echo
machine_line "$LOAD0"
