#!/bin/sh
# Builds the library sample (a package depending on the RelayArena runtime product alone) from
# scratch in a temporary directory, runs it, and checks that the build compiled the runtime alone
# (no GraphQL parser). SAMPLE_SCRATCH=DIR reuses DIR instead.
# It depends on this checkout by version, as a user would (Tests/sample-checkout.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
name="library sample"
. "$here/../sample-checkout.sh"
start=$(date +%s)
swift build --package-path "$sample" --scratch-path "$scratch/build" --product LibrarySample
# What a runtime-only user builds: no GraphQL parser, no argument parser, no SwiftNIO, no benchmark
# scaffolding.
# (SwiftPM 6.3 still resolves and pins GraphQL and swift-argument-parser: for a package it depends
# on, it keeps every dependency that any of that package's products needs, here the compiler's and
# the CLI's, not only those of the products used; `swift package show-dependencies` lists them.)
# The modules compiled: each target's object folder, and the module objects SwiftPM gathers in Modules/.
modules=$(find "$scratch/build/debug/" -name '*.o' | sed "s|^$scratch/build/debug/||" \
    | sed -E 's|^Modules/([^/]*)\.o$|\1|; s|\.build/.*||' | sort -u)
printf 'compiled: %s\n' "$(printf '%s\n' "$modules" | tr '\n' ' ')"
if printf '%s\n' "$modules" | grep -qviE '^(CRelayArena|RelayArena|LibrarySample)$'; then
    echo "check.sh: a runtime-only build compiled more than the runtime" >&2
    exit 1
fi
resolved=$(swift package --package-path "$sample" --scratch-path "$scratch/build" show-dependencies --format flatlist)
printf 'resolved: %s\n' "$(printf '%s\n' "$resolved" | tr '\n' ' ')"
# Named, so that a failure says which: the compiler's parser (Compiler trait) and the HTTP stack
# (HTTP trait: AsyncHTTPClient, SwiftNIO; Hummingbird, the tests' server).
for dependency in graphql swift-argument-parser async-http-client swift-nio hummingbird; do
    if printf '%s\n' "$resolved" | grep -qixF "$dependency"; then
        echo "check.sh: a runtime-only package resolved $dependency (traits: [] should leave it out)" >&2
        exit 1
    fi
done
if printf '%s\n' "$resolved" | grep -qviE '^relay-arena$'; then
    echo "check.sh: a runtime-only package resolved more than RelayArena (traits: [] should leave GraphQL out)" >&2
    exit 1
fi
output=$("$scratch/build/debug/LibrarySample")
printf '%s\n' "$output"
expected='updated: ["V1", "client:root"]
{"data":{"viewer":{"name":"Ada"}},"isMissingData":false}
name: Ada'
if [ "$output" != "$expected" ]; then
    echo "check.sh: unexpected output; expected:" >&2
    printf '%s\n' "$expected" >&2
    exit 1
fi
echo "check.sh: library sample OK in $(( $(date +%s) - start ))s"
