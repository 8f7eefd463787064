#!/usr/bin/env bash
# Seeded random-input fuzzing of the AST extraction and the LLM JSON repair
# (cli/tests/it/fuzz_extract.rs, cli/tests/it/fuzz_repair.rs)
# for a given time, one seed after another. Prints seeds run, inputs tried,
# time spent and crashes (a crash prints its seed, which reproduces it with
#   VIBE_FUZZ_SEED=<seed> VIBE_FUZZ_ITERS=<iters> cargo test --release -p vibe-analyzer --test it fuzz_).
#
#   bash bench/fuzz.sh [SECONDS]     (default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
budget="${1:-600}"
iters="${VIBE_FUZZ_ITERS:-200}"
cargo test --release -p vibe-analyzer --test it --no-run -q 2>/dev/null
files=$(find tests/parsers/fixtures -mindepth 2 -type f ! -name '*.json' | wc -l)
start=$(date +%s); seeds=0; crashes=0; seed=${VIBE_FUZZ_SEED_START:-1}
while [ $(( $(date +%s) - start )) -lt "$budget" ]; do
  if ! VIBE_FUZZ_SEED=$seed VIBE_FUZZ_ITERS=$iters cargo test --release -q -p vibe-analyzer --test it fuzz_ >/tmp/vibe-fuzz.log 2>&1; then
    crashes=$((crashes + 1)); echo "crash with seed $seed:"; grep -m3 -A3 panicked /tmp/vibe-fuzz.log || true
  fi
  seeds=$((seeds + 1)); seed=$((seed + 1))
done
elapsed=$(( $(date +%s) - start ))
echo "fuzz: ${seeds} seeds x ${iters} rounds x ${files} fixtures = $((seeds * iters * files)) inputs in ${elapsed}s ($(awk "BEGIN{printf \"%.2f\", $elapsed/3600}") h), crashes: ${crashes}"
