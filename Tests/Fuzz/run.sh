#!/usr/bin/env bash
# Builds the libFuzzer harness for the C core and runs it on a scratch copy of the seed corpus.
#   Tests/Fuzz/run.sh [seconds]     (default 60)
#   FUZZ_TARGET=snapshot Tests/Fuzz/run.sh [seconds]   (the snapshot loader; default: normalize)
# Environment: CLANG (default: clang on PATH), FUZZ_JOBS (default 1), FUZZ_ARGS (extra flags),
# FUZZ_BUILD_ONLY=1 to stop after building, FUZZ_RESUME=1 to keep the scratch corpus of earlier runs.
set -euo pipefail
seconds="${1:-60}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/.build-fuzz"
cc="${CLANG:-$(command -v clang || echo /opt/swift/usr/bin/clang)}"
mkdir -p "$out"
# lld when the toolchain has it (quieter and faster than gold with sanitizers).
ld=()
[ -x "$("$cc" -print-prog-name=ld.lld)" ] && ld=(-fuse-ld=lld)

target="${FUZZ_TARGET:-normalize}"
case "$target" in
normalize) corpus="$here/corpus"; dict=(-dict="$here/fuzz.dict"); defs=() ;;
snapshot) corpus="$here/corpus-snapshot"; dict=(); defs=(-DRA_SNAPSHOT_THREAD_MIN=1024 -DRA_SNAPSHOT_RUN=2) ;;  # (two threads from 1 KiB, runs of 2 symbols)
*) echo "FUZZ_TARGET: normalize or snapshot" >&2; exit 1 ;;
esac
src="$root/CSources/CRelayArena"
"$cc" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 -std=gnu11 \
    -I "$src/include" -I "$src" $(pkg-config --cflags libxxhash) "${defs[@]}" \
    "$src"/*.c "$here/fuzz_$target.c" \
    "${ld[@]}" -lyajl -lxxhash -o "$out/fuzz_$target"
echo "built $out/fuzz_$target"
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

# Work on a copy so the committed seeds don't grow; crashes land in $out/artifacts.
# FUZZ_RESUME=1 keeps what earlier runs added to the scratch corpus.
work="$out/corpus-$target"
[ "${FUZZ_RESUME:-0}" = 1 ] || rm -rf "$work"
mkdir -p "$work" "$out/artifacts"
cp "$corpus"/* "$work"/
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$out"
# One process by default (libFuzzer's -jobs=N forks N workers that log to fuzz-<i>.log instead).
jobs="${FUZZ_JOBS:-1}"
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
exec "$out/fuzz_$target" "$work" \
    -max_len=4096 -timeout=10 -max_total_time="$seconds" "${parallel[@]}" \
    "${dict[@]}" -artifact_prefix="$out/artifacts/" -print_final_stats=1 ${FUZZ_ARGS:-}
