#!/usr/bin/env bash
# tests/arm/run.sh: cross-compile simd/, core/dtoa and the parser with their unit tests (tests/unit/main.cpp,
# tests/unit/simd/*.cpp, tests/unit/core/dtoa_test.cpp, tests/unit/core/parser_two_stage_test.cpp) for AArch64,
# statically linked at -O2, and run them under qemu-user, so the NEON kernels and scanners are executed, not just
# compiled: among them the NEON stage 1 against the portable stage 1 (tests/unit/simd/structural_diff_test.cpp) and
# the two-stage parser on the NEON stage 1 against the one-pass parser, on the corpus and JSONTestSuite of
# ../shared (skipped when absent) and generated inputs. Needs Debian's g++-aarch64-linux-gnu and qemu-user. Usage: tests/arm/run.sh [BUILD_DIR] [doctest args]
# (default build dir: build-arm). Takes about 20 s to build and 10 s to run on the 2-core machines here.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$root/build-arm}
shift || true
shared=${JVIEW_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd || echo "$root/../shared")}
cxx=${JVIEW_AARCH64_CXX:-aarch64-linux-gnu-g++}
qemu=${JVIEW_QEMU_AARCH64:-qemu-aarch64}
jobs=${JOBS:-2}

for tool in "$cxx" "$qemu"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "tests/arm/run.sh: $tool not found; install: apt-get install -y g++-aarch64-linux-gnu qemu-user" >&2
    exit 1
  fi
done

mkdir -p "$out/obj" "$out/include"
# doctest is header-only and the same for every architecture; expose just it (not the host's /usr/include).
ln -sfn /usr/include/doctest "$out/include/doctest"
ln -sfn /usr/include/fast_float "$out/include/fast_float"  # header-only too (core/number.cpp)

flags=(-std=c++20 -O2 -Wall -Wextra -Wpedantic -Werror -I"$root" -I"$out/include"
       "-DJVIEW_SHARED_DIR=\"$shared\"")
# core/dtoa (NEON digits) and core/number with their test, a tenth of the random samples (qemu is slow).
flags+=("-DJVIEW_SOURCE_DIR=\"$root\"" -DJVIEW_TEST_SAMPLE_DIVISOR=10)
sources=("$root"/simd/*.cpp "$root"/tests/unit/main.cpp "$root"/tests/unit/simd/*.cpp
         "$root"/core/dtoa.cpp "$root"/core/dtoa_tables.cpp "$root"/core/number.cpp "$root"/tests/unit/core/dtoa_test.cpp
         "$root"/core/parser.cpp "$root"/core/parser_two_stage.cpp "$root"/core/document.cpp "$root"/core/error.cpp "$root"/core/object_keys.cpp "$root"/core/key_index.cpp
         "$root"/tests/unit/core/parser_two_stage_test.cpp)

start=$(date +%s)
# One object per source, $jobs at a time.
printf '%s\n' "${sources[@]}" | xargs -P "$jobs" -I{} sh -c '
  src="$1"; shift; obj="$0/obj/$(echo "${src#'"$root"'/}" | tr / _).o"
  exec "$@" -c "$src" -o "$obj"' "$out" {} "$cxx" "${flags[@]}"
"$cxx" -static -o "$out/unit_tests_simd" "$out"/obj/*.o
built=$(date +%s)
echo "tests/arm/run.sh: built $out/unit_tests_simd for AArch64 in $((built - start)) s" >&2

status=0
"$qemu" "$out/unit_tests_simd" "$@" || status=$?
echo "tests/arm/run.sh: ran under $qemu in $(($(date +%s) - built)) s" >&2
exit $status
