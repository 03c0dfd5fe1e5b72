#!/bin/sh
# Builds the plugin sample (a package applying RelayArenaGenerate) from scratch in a temporary
# directory and runs it, depending on this checkout by version (Tests/sample-checkout.sh).
# SAMPLE_SCRATCH=DIR reuses DIR instead.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
name="plugin sample"
. "$here/../sample-checkout.sh"
start=$(date +%s)
swift build --package-path "$sample" --scratch-path "$scratch/build"
output=$("$scratch/build/debug/PluginSample")
printf '%s\n' "$output"
expected='user: Ada isMissingData: false
t1 [x] Taste JavaScript
t2 [ ] Buy a unicorn'
if [ "$output" != "$expected" ]; then
    echo "check.sh: unexpected output; expected:" >&2
    printf '%s\n' "$expected" >&2
    exit 1
fi
echo "check.sh: plugin sample OK in $(( $(date +%s) - start ))s"
