#!/bin/sh
# Builds the library sample (a package depending on the RelayArena runtime product alone) from
# scratch in a temporary directory, runs it, and checks that the build compiled the runtime alone
# (no GraphQL parser). LIBRARY_SAMPLE_SCRATCH=DIR reuses DIR instead.
#
# The sample depends on this checkout the way a user's package does: by version, from a git
# repository. The checkout's files as they are now (committed or not, ignored ones left out) are
# committed to a repository in the scratch directory and tagged 1.0.0. SwiftPM checks such a
# dependency more strictly than a path (it refuses unsafe build flags in one, for instance).
# Outside a git checkout the sample falls back to depending on it by path.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -n "${LIBRARY_SAMPLE_SCRATCH:-}" ]; then
    scratch=$LIBRARY_SAMPLE_SCRATCH
    mkdir -p "$scratch"
else
    # A fresh build every time: a reused one can keep a stale plan after a source file is deleted.
    scratch=$(mktemp -d /tmp/relay-arena-library-sample.XXXXXX)
    trap 'rm -rf "$scratch"' EXIT
fi
start=$(date +%s)
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    repo="$scratch/relay-arena"
    rm -rf "$repo" && mkdir -p "$repo"
    git -C "$root" ls-files --cached --others --exclude-standard | while IFS= read -r f; do
        [ -e "$root/$f" ] || continue  # deleted, not yet committed
        mkdir -p "$repo/$(dirname "$f")" && cp -P "$root/$f" "$repo/$f"
    done
    git -C "$repo" init -q
    git -C "$repo" add -A
    git -C "$repo" -c user.name=check -c user.email=check@localhost commit -q -m "checkout for the library sample"
    git -C "$repo" tag 1.0.0
    export RELAY_ARENA_SAMPLE_URL="file://$repo"
    # The sample is built from that copy, so that its Package.resolved (which pins the
    # repository) stays in the scratch directory, and no build of it made in place comes along.
    sample="$repo/Tests/LibrarySample"
else
    echo "check.sh: not a git checkout; the sample depends on it by path" >&2
    sample=$here  # its manifest finds the checkout two levels up
fi
swift build --package-path "$sample" --scratch-path "$scratch/build" --product LibrarySample
# What a runtime-only user builds: no GraphQL parser, no argument parser, no benchmark scaffolding.
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
