#!/usr/bin/env bash
# Start / stop a REAL OpenSearch (2.19.x or 3.x) on 127.0.0.1 without Docker:
# one single-node instance (the default), or a local cluster of N nodes.
#
#   tests/opensearch/start.sh [start|stop|status|restart]      (default: start)
#   OPENSEARCH_NODES=3 OPENSEARCH_PORT=9250 tests/opensearch/start.sh start
#   OPENSEARCH_VERSION=3.9.0 OPENSEARCH_PORT=9400 tests/opensearch/start.sh start
#
# How: the server jar and the modules the product needs (transport-netty4,
# lang-mustache, analysis-common, reindex) + log4j-core are fetched from Maven Central
# with mvn (tests/opensearch/pom.xml), a tiny launcher (launcher/VibeNode.java)
# is compiled against them and starts org.opensearch.node.Node in-JVM with those
# modules as classpath plugins. Runs as a non-root user (creates system user
# "vibeos" when invoked as root). Everything is cached, so a second start
# neither downloads nor compiles.
#
# Cluster mode (OPENSEARCH_NODES=N, N > 1): N JVMs on HTTP ports PORT .. PORT+N-1,
# each with its own home/data dir node-<http port>, forming ONE cluster named
# vibe-<PORT> whose nodes only seed each other (transport ports TPORT .. TPORT+N-1,
# TPORT = PORT+1000 by default, never inside the 9300-9399 range of single nodes),
# so it can never join the default node or another cluster. start/stop/status/restart
# act on all N nodes (pass the same OPENSEARCH_PORT and OPENSEARCH_NODES); start
# also (re)starts just the nodes that are down and waits until the cluster has N
# nodes and is yellow or green. With N = 1 (the default) nothing changes: one node,
# cluster vibe-test, discovery.type single-node.
#
# Environment:
#   OPENSEARCH_PORT            HTTP port on 127.0.0.1 (default 9200); first node's
#                              port in cluster mode
#   OPENSEARCH_NODES           number of nodes (default 1 = single-node discovery)
#   OPENSEARCH_TRANSPORT_PORT  transport port (range) (default 9300-9399); in
#                              cluster mode the first node's port (default PORT+1000)
#   OPENSEARCH_FRESH=1         wipe the node's data (and logs) before starting
#                              (every node that is started, in cluster mode)
#   OPENSEARCH_START_TIMEOUT   seconds to wait for yellow health (default 180)
#   OPENSEARCH_HEAP            max heap per node (default 1g, 512m in cluster mode;
#                              min heap is 512m or less)
#   OPENSEARCH_JAVA_OPTS       extra JVM options (appended)
#   OPENSEARCH_JAVA_HOME       JDK to use (2.x needs >= 11, 3.x >= 21); unset: JAVA_HOME or
#                              javac on PATH if new enough, else the newest in /usr/lib/jvm
#   OPENSEARCH_VERSION         override the pinned version in pom.xml (2.19.6), e.g.
#                              3.9.0. A 3.x node keeps its data in node-<port>-v3, never
#                              in a 2.x node's node-<port>, and a start refuses to reuse
#                              a node of the other major version answering on the port
#   VIBE_OS_HOME               cache/state dir (default: $HOME/.cache/vibe-opensearch,
#                              or /var/lib/vibe-opensearch when run as root so that
#                              the unprivileged node user can read it)
#   VIBE_OS_USER               user the node runs as when invoked as root (default vibeos)
#
# Exit codes: start 0 = up (started or reused), 1 = failed;
#             status 0 = up (all N nodes, cluster of N), 3 = down (no node answers),
#             4 = cluster mode only: some nodes down or the cluster is not whole;
#             stop 0.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CMD="${1:-start}"

PORT="${OPENSEARCH_PORT:-9200}"
NODES="${OPENSEARCH_NODES:-1}"
TIMEOUT="${OPENSEARCH_START_TIMEOUT:-180}"
RUN_USER_NAME="${VIBE_OS_USER:-vibeos}"

if [ "$(id -u)" = 0 ]; then
    OS_HOME="${VIBE_OS_HOME:-/var/lib/vibe-opensearch}"
else
    OS_HOME="${VIBE_OS_HOME:-${HOME:-/tmp}/.cache/vibe-opensearch}"
fi
LOCK_FILE="$OS_HOME/.lock-$PORT"

log() { echo "[opensearch] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

OS_VERSION="${OPENSEARCH_VERSION:-$(sed -n 's:.*<opensearch.version>\(.*\)</opensearch.version>.*:\1:p' "$SCRIPT_DIR/pom.xml" | head -n1)}"
[ -n "$OS_VERSION" ] || die "cannot read opensearch.version from $SCRIPT_DIR/pom.xml"
OS_MAJOR="${OS_VERSION%%.*}"
case "$OS_MAJOR" in
    2) NODE_SUFFIX=""; MIN_JAVA=11 ;;      # the historical layout: node-<port>
    3) NODE_SUFFIX="-v3"; MIN_JAVA=21 ;;   # never the data dir of a 2.x node
    *) die "OPENSEARCH_VERSION=$OS_VERSION: only 2.x and 3.x are supported" ;;
esac

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

is_uint "$PORT" || die "OPENSEARCH_PORT=$PORT is not a port number"
is_uint "$NODES" && [ "$NODES" -ge 1 ] || die "OPENSEARCH_NODES=$NODES is not a positive number"
[ $((PORT + NODES - 1)) -le 65535 ] || die "HTTP ports $PORT..$((PORT + NODES - 1)) exceed 65535"

if [ "$NODES" = 1 ]; then
    # single node (default): exactly the historical setup
    CLUSTER_NAME="vibe-test"
    TRANSPORT_PORT="${OPENSEARCH_TRANSPORT_PORT:-9300-9399}"
    HEAP="${OPENSEARCH_HEAP:-1g}"
else
    # cluster: own name and own fixed transport ports, derived from the HTTP port
    CLUSTER_NAME="vibe-$PORT"
    TRANSPORT_BASE="${OPENSEARCH_TRANSPORT_PORT:-$((PORT + 1000))}"
    HEAP="${OPENSEARCH_HEAP:-512m}"
    is_uint "$TRANSPORT_BASE" \
        || die "OPENSEARCH_TRANSPORT_PORT=$TRANSPORT_BASE: with OPENSEARCH_NODES=$NODES give the first node's port (one number)"
    TRANSPORT_LAST=$((TRANSPORT_BASE + NODES - 1))
    [ "$TRANSPORT_LAST" -le 65535 ] || die "transport ports $TRANSPORT_BASE..$TRANSPORT_LAST exceed 65535 (set OPENSEARCH_TRANSPORT_PORT)"
    if [ "$TRANSPORT_BASE" -le 9399 ] && [ "$TRANSPORT_LAST" -ge 9300 ]; then
        die "transport ports $TRANSPORT_BASE..$TRANSPORT_LAST overlap 9300-9399 (single nodes' range); set OPENSEARCH_TRANSPORT_PORT"
    fi
    if [ "$TRANSPORT_BASE" -le $((PORT + NODES - 1)) ] && [ "$TRANSPORT_LAST" -ge "$PORT" ]; then
        die "transport ports $TRANSPORT_BASE..$TRANSPORT_LAST overlap the HTTP ports; set OPENSEARCH_TRANSPORT_PORT"
    fi
fi

# select_node I: point the per-node globals at node I (1..NODES). Node I has HTTP
# port PORT+I-1, home dir node-<http port> and, in cluster mode, transport port
# TRANSPORT_BASE+I-1.
select_node() {
    NODE_INDEX="$1"
    NODE_PORT=$((PORT + NODE_INDEX - 1))
    NODE_NAME="vibe-node-$NODE_INDEX"
    URL="http://127.0.0.1:${NODE_PORT}"
    NODE_DIR="$OS_HOME/node-$NODE_PORT$NODE_SUFFIX"    # path.home (data, logs, config)
    PID_FILE="$OS_HOME/node-$NODE_PORT$NODE_SUFFIX.pid"
    if [ "$NODES" = 1 ]; then
        NODE_TRANSPORT="$TRANSPORT_PORT"
        NODE_TAG=""                         # prefix of per-node log lines
    else
        NODE_TRANSPORT=$((TRANSPORT_BASE + NODE_INDEX - 1))
        NODE_TAG="node $NODE_INDEX (:$NODE_PORT): "
    fi
}
select_node 1

answers() { curl -s -o /dev/null -m 3 "$URL/" 2>/dev/null; }

pid_alive() {
    local pid
    [ -f "$PID_FILE" ] || return 1
    pid="$(cat "$PID_FILE" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

show_log_tail() {
    local f
    for f in "$NODE_DIR/logs/stdout.log" "$NODE_DIR/logs/$CLUSTER_NAME.log"; do
        if [ -s "$f" ]; then
            log "---- tail of $f (stack frames omitted) ----"
            tail -n 400 "$f" | grep -v -E '^[[:space:]]+at |\][[:space:]]+at |^[[:space:]]+\.\.\. [0-9]+ more' | tail -n 40 >&2 || true
        fi
    done
}

# node_status PREFIX: one line about the selected node; 0 = it answers, 3 = not
node_status() {
    local prefix="$1"
    if answers; then
        local v
        v="$(curl -s -m 3 "$URL/" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -n1)"
        echo "${prefix}up at $URL (version ${v:-?})$(pid_alive && echo ", pid $(cat "$PID_FILE")")"
        return 0
    fi
    if pid_alive; then
        echo "${prefix}process $(cat "$PID_FILE") is running but $URL does not answer (yet)"
    else
        echo "${prefix}down ($URL does not answer)"
    fi
    return 3
}

# json_field NAME: the scalar value of "NAME" in the JSON on stdin (flat, no spaces)
json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" | head -n1; }

cmd_status() {
    if [ "$NODES" = 1 ]; then
        node_status "opensearch: "
        return
    fi
    local i up=0 first="" health n st
    echo "opensearch: cluster $CLUSTER_NAME of $NODES nodes (HTTP 127.0.0.1:$PORT..$((PORT + NODES - 1)))"
    for i in $(seq 1 "$NODES"); do
        select_node "$i"
        if node_status "opensearch:   node $i: "; then
            up=$((up + 1))
            [ -n "$first" ] || first="$URL"
        fi
    done
    [ "$up" -gt 0 ] || return 3
    # local=true: the node's own view, answers even when no cluster manager is elected
    health="$(curl -s -m 5 "$first/_cluster/health?local=true" || true)"
    n="$(json_field number_of_nodes <<<"$health")"
    st="$(json_field status <<<"$health")"
    if [ "$(json_field discovered_cluster_manager <<<"$health")" != true ]; then
        # the node's last cluster state is stale: its node count means nothing
        echo "opensearch: cluster ${CLUSTER_NAME}: no cluster manager elected, a majority of the voting nodes is down (as seen by $first)"
        if [ "$NODES" = 2 ]; then
            echo "opensearch: (of 2 nodes only one votes: when it is down the other cannot elect; use 3 nodes to test fail-over)"
        fi
        return 4
    fi
    echo "opensearch: cluster ${CLUSTER_NAME}: status ${st:-?}, ${n:-?} of $NODES nodes joined (as seen by $first)"
    if [ "$up" = "$NODES" ] && [ "$n" = "$NODES" ] && { [ "$st" = green ] || [ "$st" = yellow ]; }; then
        return 0
    fi
    return 4
}

# stop_node: stop the selected node (TERM, KILL after 30 s) if its pid file says it is ours
stop_node() {
    if ! pid_alive; then
        rm -f "$PID_FILE"
        if answers; then
            log "${NODE_TAG}no pid file for port $NODE_PORT, but something answers on $URL: not ours, left alone"
        else
            log "${NODE_TAG}not running"
        fi
        return 0
    fi
    local pid i
    pid="$(cat "$PID_FILE")"
    log "${NODE_TAG}stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 60); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "${NODE_TAG}pid $pid still alive after 30 s, sending KILL"
        kill -KILL "$pid" 2>/dev/null || true
        sleep 1
    fi
    for i in $(seq 1 40); do
        answers || break
        sleep 0.5
    done
    rm -f "$PID_FILE"
    if answers; then die "port $NODE_PORT still answers after stop"; fi
    log "${NODE_TAG}stopped"
}

cmd_stop() {
    if [ "$NODES" = 1 ]; then
        stop_node
        return
    fi
    # all nodes at once (in subshells): one by one, the survivors would keep
    # re-electing a cluster manager while the others go away
    local i pid pids=() rc=0
    for i in $(seq 1 "$NODES"); do
        ( select_node "$i"; stop_node ) &
        pids+=("$!")
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || rc=1
    done
    [ "$rc" = 0 ] || die "some nodes of cluster $CLUSTER_NAME did not stop"
    log "cluster $CLUSTER_NAME stopped ($NODES nodes)"
}

# ---------------------------------------------------------------- tools
need_tools() {
    local missing=()
    command -v curl >/dev/null || missing+=(curl)
    command -v mvn  >/dev/null || missing+=(maven)
    if [ -n "${OPENSEARCH_JAVA_HOME:-}" ]; then
        [ -x "$OPENSEARCH_JAVA_HOME/bin/javac" ] || die "no javac in OPENSEARCH_JAVA_HOME=$OPENSEARCH_JAVA_HOME"
    elif [ "$OS_MAJOR" = 2 ]; then
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
    pick_java
    JAVA="$(dirname "$JAVAC")/java"
    log "Java $(java_major "$JAVAC") from $(dirname "$(dirname "$JAVAC")") for OpenSearch $OS_VERSION"
}

# java_major JAVAC: the feature release of that JDK (17, 21, 25 ...), 0 if unknown
java_major() { "$1" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p' | grep . || echo 0; }

# pick_java: set JAVAC to a JDK new enough for OS_MAJOR (see OPENSEARCH_JAVA_HOME)
pick_java() {
    local c best="" best_major=0 m
    if [ -n "${OPENSEARCH_JAVA_HOME:-}" ]; then
        JAVAC="$OPENSEARCH_JAVA_HOME/bin/javac"
        [ "$(java_major "$JAVAC")" -ge "$MIN_JAVA" ] \
            || die "OpenSearch $OS_VERSION needs Java >= $MIN_JAVA; OPENSEARCH_JAVA_HOME=$OPENSEARCH_JAVA_HOME is Java $(java_major "$JAVAC")"
        return
    fi
    for c in "${JAVA_HOME:+$JAVA_HOME/bin/javac}" "$(readlink -f "$(command -v javac 2>/dev/null)" 2>/dev/null)"; do
        if [ -n "$c" ] && [ -x "$c" ] && [ "$(java_major "$c")" -ge "$MIN_JAVA" ]; then JAVAC="$c"; return; fi
    done
    for c in /usr/lib/jvm/*/bin/javac; do
        [ -x "$c" ] || continue
        m="$(java_major "$c")"
        if [ "$m" -ge "$MIN_JAVA" ] && [ "$m" -gt "$best_major" ]; then best="$c"; best_major="$m"; fi
    done
    [ -n "$best" ] || die "OpenSearch $OS_VERSION needs a JDK >= $MIN_JAVA: none in JAVA_HOME, on PATH or in /usr/lib/jvm (set OPENSEARCH_JAVA_HOME)"
    JAVAC="$(readlink -f "$best")"
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
    local ver="$OS_VERSION" ver_args=("-Dopensearch.version=$OS_VERSION") pom_sum
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
# The data of a node belongs to one cluster: a former single node (or a node of
# another cluster) on the same port would form a cluster of its own instead of
# joining. Cluster nodes record their cluster name in <node dir>/cluster.name;
# a node dir without it holds single-node data (vibe-test).
check_node_data() {
    local marker="$NODE_DIR/cluster.name" was
    [ -d "$NODE_DIR/data/nodes" ] || return 0
    was="$(cat "$marker" 2>/dev/null || echo vibe-test)"
    if [ "$was" != "$CLUSTER_NAME" ]; then
        die "${NODE_TAG}$NODE_DIR holds the data of cluster $was, not $CLUSTER_NAME; start with OPENSEARCH_FRESH=1 to wipe it"
    fi
}

# the discovery settings of opensearch.yml
discovery_settings() {
    if [ "$NODES" = 1 ]; then
        echo "discovery.type: single-node"
        return
    fi
    local i seeds="" names=""
    for i in $(seq 1 "$NODES"); do
        seeds+="${seeds:+, }\"127.0.0.1:$((TRANSPORT_BASE + i - 1))\""
        names+="${names:+, }vibe-node-$i"
    done
    echo "discovery.seed_hosts: [$seeds]"
    echo "cluster.initial_cluster_manager_nodes: [$names]"
}

prepare_node_dir() {
    if [ "${OPENSEARCH_FRESH:-0}" = 1 ]; then
        log "${NODE_TAG}OPENSEARCH_FRESH=1: wiping $NODE_DIR/data and logs"
        rm -rf "$NODE_DIR/data" "$NODE_DIR/logs"
    fi
    check_node_data
    mkdir -p "$NODE_DIR/config" "$NODE_DIR/data" "$NODE_DIR/logs" \
             "$NODE_DIR/plugins" "$NODE_DIR/modules" "$NODE_DIR/tmp"
    if [ "$NODES" = 1 ]; then
        rm -f "$NODE_DIR/cluster.name"
    else
        echo "$CLUSTER_NAME" >"$NODE_DIR/cluster.name"
    fi
    cp "$SCRIPT_DIR/config/log4j2.properties" "$NODE_DIR/config/log4j2.properties"
    cat >"$NODE_DIR/config/opensearch.yml" <<EOF
# written by tests/opensearch/start.sh on every start; edits are lost
cluster.name: $CLUSTER_NAME
node.name: $NODE_NAME
path.data: $NODE_DIR/data
path.logs: $NODE_DIR/logs
network.host: 127.0.0.1
http.port: $NODE_PORT
transport.port: $NODE_TRANSPORT
http.type: netty4
transport.type: netty4
$(discovery_settings)
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

# ---------------------------------------------------------------- start
declare -a LAUNCHED=()      # LAUNCHED[node index] = pid of a JVM started by this run

# launch_node: start the JVM of the selected node in the background (no waiting)
launch_node() {
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
    # as 3.x's jvm.options: Lucene 10's vectorized code paths
    if [ "$OS_MAJOR" = 3 ]; then jvm_opts+=(--add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED); fi
    # shellcheck disable=SC2206
    if [ -n "${OPENSEARCH_JAVA_OPTS:-}" ]; then jvm_opts+=(${OPENSEARCH_JAVA_OPTS}); fi

    log "${NODE_TAG}starting OpenSearch $OS_VERSION on $URL (user $(id -nu "$RUN_UID" 2>/dev/null || echo "$RUN_UID"), home $NODE_DIR)"
    : >"$NODE_DIR/logs/stdout.log" 2>/dev/null || true
    if [ "$(id -u)" = 0 ]; then chown "$RUN_UID:$RUN_GID" "$NODE_DIR/logs/stdout.log"; fi
    (
        cd "$NODE_DIR"
        exec 9>&-       # the start lock must not live on in the JVM
        exec env HOME="$NODE_DIR" setsid nohup "${RUN_AS[@]}" "$JAVA" "${jvm_opts[@]}" \
            -cp "$CLASSES:$LIB/*" VibeNode "$NODE_DIR" \
            >>"$NODE_DIR/logs/stdout.log" 2>&1 </dev/null
    ) &
    LAUNCHED[$NODE_INDEX]=$!
    echo "$!" >"$PID_FILE"
}

# wait_ready: wait until node 1 reports the cluster yellow or green (with all
# NODES nodes joined in cluster mode); dies when a JVM started here exits or
# after TIMEOUT seconds
wait_ready() {
    local deadline=$((SECONDS + TIMEOUT)) health="" query="wait_for_status=yellow&timeout=5s" i
    [ "$NODES" = 1 ] || query+="&wait_for_nodes=$NODES"
    while [ "$SECONDS" -lt "$deadline" ]; do
        for i in "${!LAUNCHED[@]}"; do
            if ! kill -0 "${LAUNCHED[$i]}" 2>/dev/null; then
                select_node "$i"
                show_log_tail
                rm -f "$PID_FILE"
                die "${NODE_TAG}OpenSearch process ${LAUNCHED[$i]} exited during startup"
            fi
        done
        select_node 1
        if answers; then
            health="$(curl -s -m 10 "$URL/_cluster/health?$query" || true)"
            case "$health" in
                *'"status":"green"'*|*'"status":"yellow"'*)
                    if [ "$NODES" = 1 ] || [ "$(json_field number_of_nodes <<<"$health")" = "$NODES" ]; then
                        break
                    fi ;;
            esac
        fi
        sleep 1
        health=""
    done
    if [ -z "$health" ]; then
        for i in "${!LAUNCHED[@]}"; do select_node "$i"; show_log_tail; done
        if [ "$NODES" = 1 ]; then
            die "OpenSearch did not become ready (yellow) within $TIMEOUT s; pid ${LAUNCHED[1]:-?} left running, stop it with: $0 stop"
        fi
        die "cluster $CLUSTER_NAME did not become ready ($NODES nodes, yellow) within $TIMEOUT s; nodes left running, stop them with: OPENSEARCH_PORT=$PORT OPENSEARCH_NODES=$NODES $0 stop"
    fi
    select_node 1
    local v st
    v="$(curl -s -m 3 "$URL/" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -n1)"
    st="$(json_field status <<<"$health")"
    if [ "$NODES" = 1 ]; then
        log "OpenSearch $v is up at $URL (pid ${LAUNCHED[1]:-?}, status $st)"
        log "logs: $NODE_DIR/logs/$CLUSTER_NAME.log (stdout: $NODE_DIR/logs/stdout.log)"
    else
        log "OpenSearch $v cluster $CLUSTER_NAME is up: $NODES nodes at http://127.0.0.1:$PORT..$((PORT + NODES - 1)), status $st"
        log "logs: $OS_HOME/node-<port>/logs/$CLUSTER_NAME.log (stdout: $OS_HOME/node-<port>/logs/stdout.log)"
    fi
}

# prepare the tools, jars and launcher needed to start a JVM
prepare_runtime() {
    need_tools
    setup_user
    fetch_jars
    compile_launcher
}

take_lock() {
    mkdir -p "$OS_HOME"
    exec 9>"$LOCK_FILE"
    flock -w 600 9 || die "could not lock $LOCK_FILE"
}

# reuse_node: log the reuse of the node answering on URL; dies when it is an
# OpenSearch of another major version than OS_VERSION (its data is not ours)
reuse_node() {
    local body v
    body="$(curl -s -m 3 "$URL/" || true)"
    v="$(echo "$body" | sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' | head -n1)"
    if [ -z "$v" ]; then
        log "WARNING: something already answers on $URL but it does not look like OpenSearch; reusing it anyway"
    elif [ "${v%%.*}" != "$OS_MAJOR" ]; then
        die "$URL serves OpenSearch $v, not $OS_VERSION: choose another OPENSEARCH_PORT"
    else
        log "${NODE_TAG}reusing the OpenSearch already answering on $URL (version $v)"
    fi
}

start_single() {
    if answers; then reuse_node; return 0; fi
    take_lock
    # another start may have won the race while we waited for the lock
    if answers; then reuse_node; return 0; fi
    if pid_alive; then
        log "stale node process $(cat "$PID_FILE") does not answer; stopping it first"
        stop_node
    fi
    local t0=$SECONDS
    prepare_runtime
    prepare_node_dir
    launch_node
    wait_ready
    log "ready after $((SECONDS - t0)) s"
}

# start the nodes of the cluster that do not answer (all of them at once: the
# first election needs a quorum of the initial cluster managers), reuse the others
start_cluster() {
    take_lock
    local i t0=$SECONDS todo=()
    for i in $(seq 1 "$NODES"); do
        select_node "$i"
        if answers; then reuse_node; continue; fi
        if pid_alive; then
            log "${NODE_TAG}stale node process $(cat "$PID_FILE") does not answer; stopping it first"
            stop_node
        fi
        todo+=("$i")
    done
    if [ "${#todo[@]}" -gt 0 ]; then
        prepare_runtime
        for i in "${todo[@]}"; do select_node "$i"; prepare_node_dir; done
        for i in "${todo[@]}"; do select_node "$i"; launch_node; done
    fi
    wait_ready
    log "ready after $((SECONDS - t0)) s"
}

cmd_start() {
    if [ "$NODES" = 1 ]; then start_single; else start_cluster; fi
}

case "$CMD" in
    start)  cmd_start ;;
    stop)   cmd_stop ;;
    status) cmd_status ;;
    restart) cmd_stop; cmd_start ;;
    *) echo "usage: $0 [start|stop|status|restart]" >&2; exit 2 ;;
esac
