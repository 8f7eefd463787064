#!/usr/bin/env bash
# Start / stop a REAL single-node OpenSearch (2.19.x) on 127.0.0.1 without Docker.
#
#   tests/opensearch/start.sh [start|stop|status]      (default: start)
#
# How: the server jar and the modules the product needs (transport-netty4,
# lang-mustache, analysis-common, reindex) + log4j-core are fetched from Maven Central
# with mvn (tests/opensearch/pom.xml), a tiny launcher (launcher/VibeNode.java)
# is compiled against them and starts org.opensearch.node.Node in-JVM with those
# modules as classpath plugins. Runs as a non-root user (creates system user
# "vibeos" when invoked as root). Everything is cached, so a second start
# neither downloads nor compiles.
#
# Environment:
#   OPENSEARCH_PORT            HTTP port on 127.0.0.1 (default 9200)
#   OPENSEARCH_TRANSPORT_PORT  transport port (range) (default 9300-9399)
#   OPENSEARCH_FRESH=1         wipe the node's data (and logs) before starting
#   OPENSEARCH_START_TIMEOUT   seconds to wait for yellow health (default 180)
#   OPENSEARCH_HEAP            max heap (default 1g; min heap is 512m or less)
#   OPENSEARCH_JAVA_OPTS       extra JVM options (appended)
#   OPENSEARCH_JAVA_HOME       JDK (>= 11) to use (default: java/javac on PATH)
#   OPENSEARCH_VERSION         override the pinned version in pom.xml (2.19.x)
#   VIBE_OS_HOME               cache/state dir (default: $HOME/.cache/vibe-opensearch,
#                              or /var/lib/vibe-opensearch when run as root so that
#                              the unprivileged node user can read it)
#   VIBE_OS_USER               user the node runs as when invoked as root (default vibeos)
#
# Exit codes: start 0 = up (started or reused), 1 = failed;
#             status 0 = up, 3 = down; stop 0.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CMD="${1:-start}"

PORT="${OPENSEARCH_PORT:-9200}"
TRANSPORT_PORT="${OPENSEARCH_TRANSPORT_PORT:-9300-9399}"
TIMEOUT="${OPENSEARCH_START_TIMEOUT:-180}"
HEAP="${OPENSEARCH_HEAP:-1g}"
RUN_USER_NAME="${VIBE_OS_USER:-vibeos}"
URL="http://127.0.0.1:${PORT}"

if [ "$(id -u)" = 0 ]; then
    OS_HOME="${VIBE_OS_HOME:-/var/lib/vibe-opensearch}"
else
    OS_HOME="${VIBE_OS_HOME:-${HOME:-/tmp}/.cache/vibe-opensearch}"
fi
NODE_DIR="$OS_HOME/node-$PORT"          # path.home of the node (data, logs, config)
PID_FILE="$OS_HOME/node-$PORT.pid"
LOCK_FILE="$OS_HOME/.lock-$PORT"

log() { echo "[opensearch] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

answers() { curl -s -o /dev/null -m 3 "$URL/" 2>/dev/null; }

pid_alive() {
    local pid
    [ -f "$PID_FILE" ] || return 1
    pid="$(cat "$PID_FILE" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

show_log_tail() {
    local f
    for f in "$NODE_DIR/logs/stdout.log" "$NODE_DIR/logs/vibe-test.log"; do
        if [ -s "$f" ]; then
            log "---- tail of $f (stack frames omitted) ----"
            tail -n 400 "$f" | grep -v -E '^[[:space:]]+at |\][[:space:]]+at |^[[:space:]]+\.\.\. [0-9]+ more' | tail -n 40 >&2 || true
        fi
    done
}

cmd_status() {
    if answers; then
        local v
        v="$(curl -s -m 3 "$URL/" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -n1)"
        echo "opensearch: up at $URL (version ${v:-?})$(pid_alive && echo ", pid $(cat "$PID_FILE")")"
        return 0
    fi
    if pid_alive; then
        echo "opensearch: process $(cat "$PID_FILE") is running but $URL does not answer (yet)"
    else
        echo "opensearch: down ($URL does not answer)"
    fi
    return 3
}

cmd_stop() {
    if ! pid_alive; then
        rm -f "$PID_FILE"
        if answers; then
            log "no pid file for port $PORT, but something answers on $URL: not ours, left alone"
        else
            log "not running"
        fi
        return 0
    fi
    local pid i
    pid="$(cat "$PID_FILE")"
    log "stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 60); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "pid $pid still alive after 30 s, sending KILL"
        kill -KILL "$pid" 2>/dev/null || true
        sleep 1
    fi
    for i in $(seq 1 40); do
        answers || break
        sleep 0.5
    done
    rm -f "$PID_FILE"
    if answers; then die "port $PORT still answers after stop"; fi
    log "stopped"
}

# ---------------------------------------------------------------- tools
need_tools() {
    local missing=()
    command -v curl >/dev/null || missing+=(curl)
    command -v mvn  >/dev/null || missing+=(maven)
    if [ -n "${OPENSEARCH_JAVA_HOME:-}" ]; then
        [ -x "$OPENSEARCH_JAVA_HOME/bin/javac" ] || die "no javac in OPENSEARCH_JAVA_HOME=$OPENSEARCH_JAVA_HOME"
    else
        command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            log "installing ${missing[*]} with apt-get"
            DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
        else
            die "missing tools: ${missing[*]}"
        fi
    fi
    if [ -n "${OPENSEARCH_JAVA_HOME:-}" ]; then
        JAVA="$OPENSEARCH_JAVA_HOME/bin/java"; JAVAC="$OPENSEARCH_JAVA_HOME/bin/javac"
    else
        JAVAC="$(readlink -f "$(command -v javac)")"
        JAVA="$(dirname "$JAVAC")/java"
    fi
}

# ---------------------------------------------------------------- run user
setup_user() {
    RUN_AS=()
    RUN_UID="$(id -u)"; RUN_GID="$(id -g)"
    if [ "$(id -u)" != 0 ]; then
        return
    fi
    if ! id -u "$RUN_USER_NAME" >/dev/null 2>&1; then
        log "creating system user $RUN_USER_NAME"
        useradd -r -M -d /nonexistent -s /usr/sbin/nologin "$RUN_USER_NAME"
    fi
    RUN_UID="$(id -u "$RUN_USER_NAME")"; RUN_GID="$(id -g "$RUN_USER_NAME")"
    [ "$RUN_UID" != 0 ] || die "VIBE_OS_USER=$RUN_USER_NAME is root"
    if command -v setpriv >/dev/null; then
        RUN_AS=(setpriv "--reuid=$RUN_UID" "--regid=$RUN_GID" --init-groups --)
    else
        RUN_AS=(runuser -u "$RUN_USER_NAME" --)
    fi
}

# ---------------------------------------------------------------- jars
fetch_jars() {
    local ver_args=() ver
    if [ -n "${OPENSEARCH_VERSION:-}" ]; then
        ver_args=("-Dopensearch.version=$OPENSEARCH_VERSION")
        ver="$OPENSEARCH_VERSION"
    else
        ver="$(sed -n 's:.*<opensearch.version>\(.*\)</opensearch.version>.*:\1:p' "$SCRIPT_DIR/pom.xml" | head -n1)"
    fi
    [ -n "$ver" ] || die "cannot read opensearch.version from $SCRIPT_DIR/pom.xml"
    OS_VERSION="$ver"
    local pom_sum
    pom_sum="$(sha256sum "$SCRIPT_DIR/pom.xml" | cut -c1-16)"
    DIST="$OS_HOME/dist/$ver-$pom_sum"
    LIB="$DIST/lib"
    if [ -f "$DIST/.jars-complete" ]; then
        log "using cached OpenSearch $ver jars in $LIB"
        return
    fi
    log "downloading OpenSearch $ver jars with mvn into $LIB"
    rm -rf "$LIB.tmp"
    mkdir -p "$LIB.tmp"
    local t0=$SECONDS
    if ! mvn -q -B -f "$SCRIPT_DIR/pom.xml" "${ver_args[@]}" \
            dependency:copy-dependencies -DincludeScope=runtime \
            -DoutputDirectory="$LIB.tmp" >"$OS_HOME/mvn.log" 2>&1; then
        tail -n 40 "$OS_HOME/mvn.log" >&2
        die "mvn failed (full log: $OS_HOME/mvn.log)"
    fi
    ls "$LIB.tmp"/opensearch-"$ver".jar >/dev/null 2>&1 || die "mvn did not produce opensearch-$ver.jar"
    rm -rf "$LIB"; mv "$LIB.tmp" "$LIB"
    touch "$DIST/.jars-complete"
    log "downloaded $(ls "$LIB" | wc -l) jars in $((SECONDS - t0)) s"
}

compile_launcher() {
    local src="$SCRIPT_DIR/launcher/VibeNode.java" key
    key="$( (sha256sum "$src"; "$JAVAC" -version 2>&1) | sha256sum | cut -c1-16)"
    CLASSES="$DIST/launcher-$key"
    if [ -f "$CLASSES/VibeNode.class" ]; then
        return
    fi
    log "compiling $src"
    rm -rf "$CLASSES.tmp"; mkdir -p "$CLASSES.tmp"
    "$JAVAC" -nowarn -encoding UTF-8 -cp "$LIB/*" -d "$CLASSES.tmp" "$src" \
        || die "javac failed"
    rm -rf "$CLASSES"; mv "$CLASSES.tmp" "$CLASSES"
    # drop launchers compiled from older sources
    find "$DIST" -maxdepth 1 -name 'launcher-*' ! -name "$(basename "$CLASSES")" -exec rm -rf {} + 2>/dev/null || true
}

# ---------------------------------------------------------------- node dir
prepare_node_dir() {
    if [ "${OPENSEARCH_FRESH:-0}" = 1 ]; then
        log "OPENSEARCH_FRESH=1: wiping $NODE_DIR/data and logs"
        rm -rf "$NODE_DIR/data" "$NODE_DIR/logs"
    fi
    mkdir -p "$NODE_DIR/config" "$NODE_DIR/data" "$NODE_DIR/logs" \
             "$NODE_DIR/plugins" "$NODE_DIR/modules" "$NODE_DIR/tmp"
    cp "$SCRIPT_DIR/config/log4j2.properties" "$NODE_DIR/config/log4j2.properties"
    cat >"$NODE_DIR/config/opensearch.yml" <<EOF
# written by tests/opensearch/start.sh on every start; edits are lost
cluster.name: vibe-test
node.name: vibe-node-1
path.data: $NODE_DIR/data
path.logs: $NODE_DIR/logs
network.host: 127.0.0.1
http.port: $PORT
transport.port: $TRANSPORT_PORT
http.type: netty4
transport.type: netty4
discovery.type: single-node
cluster.routing.allocation.disk.threshold_enabled: false
EOF
    if [ "$(id -u)" = 0 ]; then
        chown -R "$RUN_UID:$RUN_GID" "$NODE_DIR"
        # the node user must be able to reach and read the cached jars
        chmod 755 "$OS_HOME" "$OS_HOME/dist" "$DIST" "$LIB" "$CLASSES"
        chmod -R a+rX "$LIB" "$CLASSES"
        "${RUN_AS[@]}" test -r "$LIB/opensearch-$OS_VERSION.jar" \
            || die "user $RUN_USER_NAME cannot read $LIB (choose VIBE_OS_HOME outside a private dir)"
    fi
}

start_node() {
    local xms=512m
    case "$HEAP" in
        *m|*M) if [ "${HEAP%[mM]}" -lt 512 ]; then xms="$HEAP"; fi ;;
    esac
    local jvm_opts=(
        "-Xms$xms" "-Xmx$HEAP"
        -XX:+UseG1GC -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30
        -XX:-HeapDumpOnOutOfMemoryError
        -Dfile.encoding=UTF-8 -Djava.awt.headless=true
        -Djna.nosys=true -Dlog4j2.formatMsgNoLookups=true -Dlog4j.shutdownHookEnabled=false
        -Dio.netty.noUnsafe=true -Dio.netty.noKeySetOptimization=true
        -Dio.netty.recycler.maxCapacityPerThread=0
        -Dio.netty.allocator.numDirectArenas=0
        "-Djava.io.tmpdir=$NODE_DIR/tmp"
    )
    # shellcheck disable=SC2206
    if [ -n "${OPENSEARCH_JAVA_OPTS:-}" ]; then jvm_opts+=(${OPENSEARCH_JAVA_OPTS}); fi

    log "starting OpenSearch $OS_VERSION on $URL (user $(id -nu "$RUN_UID" 2>/dev/null || echo "$RUN_UID"), home $NODE_DIR)"
    : >"$NODE_DIR/logs/stdout.log" 2>/dev/null || true
    if [ "$(id -u)" = 0 ]; then chown "$RUN_UID:$RUN_GID" "$NODE_DIR/logs/stdout.log"; fi
    (
        cd "$NODE_DIR"
        exec env HOME="$NODE_DIR" setsid nohup "${RUN_AS[@]}" "$JAVA" "${jvm_opts[@]}" \
            -cp "$CLASSES:$LIB/*" VibeNode "$NODE_DIR" \
            >>"$NODE_DIR/logs/stdout.log" 2>&1 </dev/null
    ) &
    local pid=$!
    echo "$pid" >"$PID_FILE"

    local deadline=$((SECONDS + TIMEOUT)) health=""
    while [ "$SECONDS" -lt "$deadline" ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            show_log_tail
            rm -f "$PID_FILE"
            die "OpenSearch process $pid exited during startup"
        fi
        if answers; then
            health="$(curl -s -m 10 "$URL/_cluster/health?wait_for_status=yellow&timeout=5s" || true)"
            case "$health" in
                *'"status":"green"'*|*'"status":"yellow"'*) break ;;
            esac
        fi
        sleep 1
        health=""
    done
    if [ -z "$health" ]; then
        show_log_tail
        die "OpenSearch did not become ready (yellow) within $TIMEOUT s; pid $pid left running, stop it with: $0 stop"
    fi
    local v
    v="$(curl -s -m 3 "$URL/" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -n1)"
    log "OpenSearch $v is up at $URL (pid $pid, status $(echo "$health" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p'))"
    log "logs: $NODE_DIR/logs/vibe-test.log (stdout: $NODE_DIR/logs/stdout.log)"
}

cmd_start() {
    if answers; then
        local body
        body="$(curl -s -m 3 "$URL/" || true)"
        case "$body" in
            *'"number"'*) log "reusing the OpenSearch already answering on $URL (version $(echo "$body" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -n1))" ;;
            *) log "WARNING: something already answers on $URL but it does not look like OpenSearch; reusing it anyway" ;;
        esac
        return 0
    fi
    mkdir -p "$OS_HOME"
    exec 9>"$LOCK_FILE"
    flock -w 600 9 || die "could not lock $LOCK_FILE"
    # another start may have won the race while we waited for the lock
    if answers; then
        log "reusing the OpenSearch already answering on $URL"
        return 0
    fi
    if pid_alive; then
        log "stale node process $(cat "$PID_FILE") does not answer; stopping it first"
        cmd_stop
    fi
    local t0=$SECONDS
    need_tools
    setup_user
    fetch_jars
    compile_launcher
    prepare_node_dir
    start_node
    log "ready after $((SECONDS - t0)) s"
}

case "$CMD" in
    start)  cmd_start ;;
    stop)   cmd_stop ;;
    status) cmd_status ;;
    restart) cmd_stop; cmd_start ;;
    *) echo "usage: $0 [start|stop|status|restart]" >&2; exit 2 ;;
esac
