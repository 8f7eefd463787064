#!/usr/bin/env bash
# The main job: start (or reuse) OpenSearch, build Vibe Analyzer, add the
# bundled sample sources, index them and serve MCP on http://127.0.0.1:9020.
#
#   VIBE_CONFIG_DIR  config folder (default: ~/.vibe-analyzer)
#   VIBE_MCP_PORT    MCP port (default: from the config, 9020)
set -euo pipefail
cd "$(dirname "$0")/.."

bash tests/opensearch/start.sh start
cargo build --release --bin vibe-analyzer
bin="${CARGO_TARGET_DIR:-target}/release/vibe-analyzer"
args=()
[ -n "${VIBE_CONFIG_DIR:-}" ] && args+=(--config-dir "$VIBE_CONFIG_DIR")

for src in tests/fixtures/samples tests/fixtures/knowledge; do
  [ -d "$src" ] && "$bin" "${args[@]}" source add "$src"
done
"$bin" "${args[@]}" source list
"$bin" "${args[@]}" scan index --no-llm
"$bin" "${args[@]}" stats info
serve=(serve start)
[ -n "${VIBE_MCP_PORT:-}" ] && serve+=(--port "$VIBE_MCP_PORT")
exec "$bin" "${args[@]}" "${serve[@]}"
