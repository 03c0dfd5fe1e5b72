#!/bin/sh
# Builds the plugin sample (a package applying RelayArenaGenerate) from scratch in a temporary
# directory and runs it. PLUGIN_SAMPLE_SCRATCH=DIR reuses DIR instead.
#
# The sample depends on this checkout the way a user's package does: by version, from a git
# repository. The checkout's files as they are now (committed or not, ignored ones left out) are
# committed to a repository in the scratch directory and tagged 1.0.0. SwiftPM checks such a
# dependency more strictly than a path (it refuses unsafe build flags in one, for instance).
# Outside a git checkout the sample falls back to depending on it by path.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -n "${PLUGIN_SAMPLE_SCRATCH:-}" ]; then
    scratch=$PLUGIN_SAMPLE_SCRATCH
    mkdir -p "$scratch"
else
    # A fresh build every time: a reused one can keep a stale plan after a source file is deleted.
    scratch=$(mktemp -d /tmp/relay-arena-plugin-sample.XXXXXX)
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
    git -C "$repo" -c user.name=check -c user.email=check@localhost commit -q -m "checkout for the plugin sample"
    git -C "$repo" tag 1.0.0
    export RELAY_ARENA_SAMPLE_URL="file://$repo"
    # The sample is built from that copy, so that its Package.resolved (which pins the
    # repository) stays in the scratch directory, and no build of it made in place comes along.
    sample="$repo/Tests/PluginSample"
else
    echo "check.sh: not a git checkout; the sample depends on it by path" >&2
    sample=$here  # its manifest finds the checkout two levels up
fi
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
