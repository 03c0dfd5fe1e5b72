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
# What applying the plugin builds: the runtime, the compiler (GraphQLSwift) and the plugin's tool;
# no SwiftNIO, BoringSSL, AsyncHTTPClient, Hummingbird, workloads or benchmark scaffolding. The
# modules compiled are each target's object folder (the host tools' included).
modules=$(find "$scratch/build/" -path '*/debug/*' -name '*.o' | sed -E 's|.*/debug/||' \
    | sed -E 's|^Modules(-tool)?/([^/]*)\.o$|\2|; s|\.build/.*||; s|-tool$||' | sort -u)
printf 'compiled: %s\n' "$(printf '%s\n' "$modules" | tr '\n' ' ')"
if printf '%s\n' "$modules" | grep -qiE '^(C?NIO|CNIOBoringSSL|AsyncHTTPClient|Hummingbird|RelayArenaHTTP|RelayArenaWorkloads|RelayArenaHTTPWorkloads|YajlBaseline|CAllocationCounter|relay_arena$)'; then
    echo "check.sh: applying the plugin compiled more than the compiler and the runtime" >&2
    exit 1
fi
output=$("$scratch/build/debug/PluginSample")
printf '%s\n' "$output"
expected='user: Ada isMissingData: false
t1 [x] Taste JavaScript
t2 [ ] Buy a unicorn due 2026-12-24'
if [ "$output" != "$expected" ]; then
    echo "check.sh: unexpected output; expected:" >&2
    printf '%s\n' "$expected" >&2
    exit 1
fi
echo "check.sh: plugin sample OK in $(( $(date +%s) - start ))s"
