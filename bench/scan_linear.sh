#!/usr/bin/env bash
# `scan ast` on generated files of one shape each, from 12,500 to 200,000
# lines (issue 59): top-level assignments, one name assigned again and
# again, an object literal's keys, a Java enum's members, a Go const block,
# TypeScript and Rust constants; a Scala object's vals, Haskell bindings
# (each after one of another name) and Zig constants (issue 69). Generated
# tables, data modules and bundles have these shapes; a scan that is
# quadratic in them stalls on one file.
#
#   bash bench/scan_linear.sh
#
# Prints, per shape and size, the best wall time of $BENCH_RUNS (default 3)
# runs of the release binary and the ratio to the size before (one doubling);
# then the same of the CPU time (user + system), which the host's other work
# does not add to. Targets: at most 2.2x per doubling; 200,000 lines in at
# most 2 s.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOAD0="$(loadavg)"

build
SIZES=(12500 25000 50000 100000 200000)
SHAPES=(py-assign:py py-one-name:py js-object:js java-enum:java go-const:go ts-const:ts rust-const:rs
    scala-object:scala haskell-bind:hs zig-const:zig)
[ -z "${SCAN_LINEAR_SHAPES:-}" ] || read -r -a SHAPES <<<"$SCAN_LINEAR_SHAPES" # (a subset: "zig-const:zig ...")

# generate SHAPE LINES FILE
generate() {
    python3 - "$@" <<'EOF'
import sys
shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = {
    "py-assign": lambda: (f"x{i} = {i}\n" for i in range(n)),
    "py-one-name": lambda: (f"x = {i}\n" for i in range(n)),
    "js-object": lambda: ["module.exports = {\n", *(f"  k{i}: {i},\n" for i in range(n)), "};\n"],
    "java-enum": lambda: ["enum Big {\n", *(f"  V{i},\n" for i in range(n)), "}\n"],
    "go-const": lambda: ["package big\nconst (\n", *(f"\tC{i} = {i}\n" for i in range(n)), ")\n"],
    "ts-const": lambda: (f"export const c{i} = {i};\n" for i in range(n)),
    "rust-const": lambda: (f"pub const C{i}: u32 = {i};\n" for i in range(n)),
    "scala-object": lambda: ["object Big {\n", *(f"  val v{i} = {i}\n" for i in range(n)), "}\n"],
    "haskell-bind": lambda: ["module Big where\n", *(f"x{i} = {i}\n" for i in range(n))],
    "zig-const": lambda: (f"pub const c{i}: u32 = {i};\n" for i in range(n)),
}[shape]()
with open(out, "w") as f:
    f.writelines(lines)
EOF
}

for entry in "${SHAPES[@]}"; do
    shape="${entry%%:*}" ext="${entry##*:}"
    for n in "${SIZES[@]}"; do
        dir="$WORK/$shape-$n/src" cfg="$WORK/$shape-$n/config"
        mkdir -p "$dir" "$cfg"
        generate "$shape" "$n" "$dir/gen.$ext"
        "$BIN" --config-dir "$cfg" source add "$dir" >/dev/null
        for _ in $(seq 1 "$RUNS"); do
            timed "$WORK/$shape-$n.times" "$BIN" --config-dir "$cfg" scan ast --output "$WORK/ast.json"
        done
    done
done

# table NAME PICK: per shape and size the best of the runs by PICK (`best`:
# wall seconds; `best_cpu`: user + system CPU seconds, which a busy host's
# other work and a VM's stolen time leave out), and the ratio per doubling.
# Sets WORST_RATIO and WORST_TOP.
table() {
    local name="$1" pick="$2" entry shape n t prev cell r
    WORST_RATIO=0 WORST_TOP=0
    echo "$name"
    printf '%-12s' shape
    for n in "${SIZES[@]}"; do printf '%16s' "$n lines"; done
    echo
    for entry in "${SHAPES[@]}"; do
        shape="${entry%%:*}"
        printf '%-12s' "$shape"
        prev=""
        for n in "${SIZES[@]}"; do
            t="$("$pick" "$WORK/$shape-$n.times")"
            cell="$t s"
            if [ -n "$prev" ]; then
                r="$(ratio "$t" "$prev")"
                cell="$t s ${r}x"
                WORST_RATIO="$(awk -v a="$r" -v b="$WORST_RATIO" 'BEGIN{ print (a > b) ? a : b }')"
            fi
            printf '%16s' "$cell"
            prev="$t"
        done
        WORST_TOP="$(awk -v a="$prev" -v b="$WORST_TOP" 'BEGIN{ print (a > b) ? a : b }')"
        echo
    done
    echo
}

table "wall seconds, best of $RUNS" best
echo "wall: worst ratio per doubling ${WORST_RATIO}x (target <= 2.2); slowest 200,000-line file ${WORST_TOP} s (target <= 2)"
echo
table "CPU seconds (user + system), best of $RUNS" best_cpu
echo "CPU: worst ratio per doubling ${WORST_RATIO}x (target <= 2.2); slowest 200,000-line file ${WORST_TOP} s"
machine_line "$LOAD0"
