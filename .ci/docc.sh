#!/usr/bin/env bash
# Builds the RelayArena module's DocC catalog with warnings as errors (a broken symbol link fails).
# Needs a debug build (`swift build`) first: the symbol graph is extracted from its module.
#   .ci/docc.sh [OUTPUT_DIR]      (default: a temporary directory, removed afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="${1:-$work/RelayArena.doccarchive}"
bin=$(swift build --show-bin-path)
mkdir -p "$work/symbols"
maps=()
for m in "$bin"/*.build/module.modulemap; do
  case "$m" in *-tool.build/*) continue ;; esac  # the same modules, built for plugins' host tools
  maps+=(-Xcc "-fmodule-map-file=$m")
done
swift symbolgraph-extract -module-name RelayArena -I "$bin/Modules" "${maps[@]}" \
  -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$work/symbols"
docc convert Sources/RelayArena/RelayArena.docc --additional-symbol-graph-dir "$work/symbols" \
  --output-path "$out" --fallback-display-name RelayArena --fallback-bundle-identifier RelayArena \
  --warnings-as-errors
echo "docc.sh: documentation built without warnings"
