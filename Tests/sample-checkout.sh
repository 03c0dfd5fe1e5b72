# Sourced by the sample packages' check.sh (Tests/PluginSample, Tests/LibrarySample) with `here`
# set to the sample's folder and `name` to its scratch name: sets `root`, `scratch` (removed on
# exit unless $SAMPLE_SCRATCH names one to reuse) and `sample`, the folder to build.
#
# The sample depends on this checkout the way a user's package does: by version, from a git
# repository. The checkout's files as they are now (committed or not, ignored ones left out) are
# committed to a repository in the scratch directory and tagged 1.0.0; SwiftPM checks such a
# dependency more strictly than a path (it refuses unsafe build flags in one, for instance).
# Outside a git checkout the sample falls back to depending on it by path.
root=$(cd "$here/../.." && pwd)
if [ -n "${SAMPLE_SCRATCH:-}" ]; then
    scratch=$SAMPLE_SCRATCH
    mkdir -p "$scratch"
else
    # A fresh build every time: a reused one can keep a stale plan after a source file is deleted.
    scratch=$(mktemp -d "/tmp/relay-arena-$(printf %s "$name" | tr " " -).XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
fi
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    repo="$scratch/relay-arena"
    rm -rf "$repo" && mkdir -p "$repo"
    git -C "$root" ls-files --cached --others --exclude-standard | while IFS= read -r f; do
        [ -e "$root/$f" ] || continue  # deleted, not yet committed
        mkdir -p "$repo/$(dirname "$f")" && cp -P "$root/$f" "$repo/$f"
    done
    git -C "$repo" init -q
    git -C "$repo" add -A
    git -C "$repo" -c user.name=check -c user.email=check@localhost commit -q -m "checkout for the $name"
    git -C "$repo" tag 1.0.0
    export RELAY_ARENA_SAMPLE_URL="file://$repo"
    # The sample is built from that copy, so that its Package.resolved (which pins the
    # repository) stays in the scratch directory, and no build of it made in place comes along.
    sample="$repo/Tests/$(basename "$here")"
else
    echo "check.sh: not a git checkout; the sample depends on it by path" >&2
    sample=$here  # its manifest finds the checkout two levels up
fi
