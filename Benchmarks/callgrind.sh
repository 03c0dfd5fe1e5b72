#!/usr/bin/env bash
# Counts the instructions of one to-do list ingest (normalize + publish into an empty store) under
# callgrind, line by line in the C core: instruction counts repeat exactly from run to run, where
# the clock on a shared machine does not.
#   Benchmarks/callgrind.sh [todos]     (default 20000)
# Prints the ingest's instructions, yajl's share of them (the instruction-count counterpart of
# "ingest vs yajl no-op": yajl with no-op callbacks costs about what yajl costs inside the ingest),
# and the top functions. The profile stays in $out/callgrind.out for
#   callgrind_annotate --auto=yes $out/callgrind.out
# Environment: TOP (functions listed, default 25), PROFILE_SCRATCH (build directory, default
# /tmp/relay-arena-callgrind).
#
# The release build is made with -gdwarf-4 for the C targets and no Swift debug information:
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 the toolchain emits by default, and then
# attributes nothing to source lines.
set -euo pipefail
todos="${1:-20000}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${PROFILE_SCRATCH:-/tmp/relay-arena-callgrind}"
command -v valgrind >/dev/null || { echo "callgrind.sh: needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
mkdir -p "$out"
swift build --package-path "$root" -c release --product relay-arena --scratch-path "$out/build" \
    -Xcc -gdwarf-4 -Xswiftc -gnone >&2
bin="$out/build/release/relay-arena"
"$bin" workload --todos "$todos" > "$out/todos.json"
documents="$root/Sources/RelayArenaWorkloads/Documents"
# Only the C entry points of an ingest are counted: not the schema's compilation, not the output.
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
    --toggle-collect=ra_normalizer_feed --toggle-collect=ra_normalizer_finish \
    --toggle-collect='ra_source_publish*' \
    "$bin" normalize --schema "$documents/todo.graphql" --document "$documents/todo-list-query.graphql" \
    --variables "{\"first\":$todos}" --quiet "$out/todos.json" 2> "$out/valgrind.log"
callgrind_annotate "$out/callgrind.out" 2>/dev/null > "$out/functions.txt"
python3 - "$out/functions.txt" "$todos" "${TOP:-25}" <<'EOF'
import re, sys
path, todos, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
total, yajl, rows = 0, 0, []
for line in open(path):
    m = re.match(r"\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)", line)
    if not m:
        continue
    count, what = int(m.group(1).replace(",", "")), m.group(2)
    if "PROGRAM TOTALS" in what:
        total = count
        continue
    if "libyajl" in what:
        yajl += count
    # yajl's .so has no symbols but its exported ones: name the object for the rest.
    rows.append((count, what if what.startswith("???") else re.sub(r"\s*\[.*\]$", "", what)))
print(f"ingest of {todos} todos: {total:,} instructions ({total / todos:,.0f} a todo)")
print(f"  yajl: {yajl:,} ({yajl / total:.1%}); the rest, RelayArena's: {total - yajl:,} ({(total - yajl) / todos:,.0f} a todo)")
print(f"  instruction ratio yajl / ingest: {yajl / total:.3f}")
print()
for count, what in rows[:top]:
    print(f"{count:>14,}  {count / total:6.1%}  {what}")
EOF
