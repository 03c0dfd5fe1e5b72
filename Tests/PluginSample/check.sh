#!/bin/sh
# Builds the plugin sample (a package applying RelayArenaGenerate, depending on this checkout) from
# scratch in a temporary directory and runs it. PLUGIN_SAMPLE_SCRATCH=DIR reuses DIR instead.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${PLUGIN_SAMPLE_SCRATCH:-}" ]; then
    scratch=$PLUGIN_SAMPLE_SCRATCH
else
    # A fresh build every time: a reused one can keep a stale plan after a source file is deleted.
    scratch=$(mktemp -d /tmp/relay-arena-plugin-sample.XXXXXX)
    trap 'rm -rf "$scratch"' EXIT
fi
start=$(date +%s)
swift build --package-path "$here" --scratch-path "$scratch"
output=$("$scratch/debug/PluginSample")
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
