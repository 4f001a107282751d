#!/usr/bin/env bash
# tests/fuzz/run.sh: builds the libFuzzer targets (clang-14, ASan + UBSan; tests/fuzz/CMakeLists.txt as a project of
# its own), replays the saved regression inputs, then fuzzes each target for --time seconds, two at a time.
# Seeds are read at run time from ../shared (JSONTestSuite, the small corpus files), the own conformance cases
# (tests/conformance/cases/) and tests/filter/*.test (jq programs); nothing is copied: JSON seeds are symlinks,
# program seeds are extracted into the build directory. Without ../shared the own seeds alone are used (SKIPPED line).
# Each run appends one line per target to BUILD/work/history.tsv (date, target, seconds, executions, result).
#
# Usage: run.sh [--time SECONDS] [--build-dir DIR] [--shared DIR] [--targets "parse roundtrip ..."] [--parallel N]
# Exit: 0 all clean, 1 a target crashed or a regression input failed (artifacts named), 77 clang/libFuzzer missing.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
time_each=60
build="$root/build-fuzz/libfuzzer"
shared="$root/../shared"
targets="parse roundtrip utf8 stream chunks decompress compile compile_deep eval"
parallel=2
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_each="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --shared) shared="$2"; shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -d "$shared" ]; then
  shared="$(cd "$shared" && pwd)"
else
  echo "SKIPPED: fuzz seeds from ../shared (JSONTestSuite, corpus): $shared missing (own seeds only)"
  shared=""
fi
mkdir -p "$build" && build="$(cd "$build" && pwd)"

cxx="$(command -v clang++-14 || true)"
if [ -z "$cxx" ] || ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "run.sh: SKIP: clang++-14 or libFuzzer (libclang-rt-14-dev) is not installed"
  exit 77
fi

# ---- build ----
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE= -DJVIEW_FUZZ_FILTER=ON \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
fi
echo "run.sh: building the fuzz targets in $build (clang-14, ASan+UBSan)"
if ! cmake --build "$build" -j 2 >"$build/build.log" 2>&1; then
  grep -E "error|Error" "$build/build.log" | head -30
  echo "run.sh: FAILED: the fuzz build failed (log: $build/build.log)"
  exit 1
fi

# ---- seeds ----
work="$build/work"
mkdir -p "$work/seeds/json" "$work/seeds/jq" "$work/seeds/eval" "$work/seeds/deep" "$work/artifacts"
# JSON: the small corpus files (symlinks), JSONTestSuite's parsing and transform cases (read in place).
json_seeds=("$work/seeds/json" "$root/tests/conformance/cases")
if [ -n "$shared" ]; then
  find "$shared/corpus" -type f \( -name '*.json' -o -name '*.ndjson' \) -size -64k -print0 |
    while IFS= read -r -d '' f; do ln -sf "$f" "$work/seeds/json/$(echo "${f#$shared/}" | tr / _)"; done
  suite="$shared/conformance/JSONTestSuite"
  json_seeds+=("$suite/test_parsing" "$suite/test_transform")
fi
ln -sf "$root/corpus/samples/demo.json" "$work/seeds/json/samples_demo.json"
# jq programs (and program NUL input pairs for eval) from the repository's jq-format case files.
python3 - "$root/tests/filter" "$work/seeds" <<'EOF'
import hashlib, os, sys
src, out = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    if not name.endswith(".test"):
        continue
    blocks, block = [], []
    for line in open(os.path.join(src, name), encoding="utf-8", errors="replace").read().split("\n"):
        if not line.strip():
            if block: blocks.append(block)
            block = []
        elif not (line.startswith("#") and not block):
            block.append(line)
    if block: blocks.append(block)
    for b in blocks:
        fail = b[0].startswith("%%FAIL")
        prog = b[1] if fail and len(b) > 1 else b[0]
        for kind, data in (("jq", prog.encode()),
                           ("eval", None if fail or len(b) < 2 else prog.encode() + b"\0" + b[1].encode())):
            if data is None: continue
            h = hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(out, kind, h), "wb") as f: f.write(data)
EOF

# Deep programs (fuzz_compile_deep): one recipe per construct of its table, with 200 and with 10,000 repetitions,
# and a few mixed ones.
python3 - "$work/seeds/deep" <<'EOF'
import os, sys
out = sys.argv[1]
for c in range(41):
    for name, step in (("small", bytes([c, 200, 0, 0])), ("big", bytes([c, 0x27, 0x80, 0x10]))):
        with open(os.path.join(out, "%02d-%s" % (c, name)), "wb") as f: f.write(step)
for i, recipe in enumerate((bytes([25, 100, 0, 0, 0, 0x9c, 0x80, 0x40]), bytes([14, 0x30, 0x81, 0, 7, 50, 0, 0]),
                            bytes([21, 0x10, 0x80, 0, 3, 0x10, 0x80, 0, 13, 255, 0, 0]))):
    with open(os.path.join(out, "mixed-%d" % i), "wb") as f: f.write(recipe)
EOF

# ---- per-target settings: seeds, dictionary, maximum input length, extra flags ----
args_for() {
  local t="$1"
  case "$t" in
    parse|roundtrip) echo "-dict=$here/json.dict -max_len=16384" ;;
    stream) echo "-dict=$here/json.dict -max_len=16384" ;;
    utf8) echo "-dict=$here/json.dict -max_len=4096" ;;
    decompress) echo "-max_len=65536" ;;
    compile) echo "-dict=$here/jq.dict -max_len=2048" ;;
    # Recipes of 4-byte steps (fuzz_compile_deep.cpp): 16 steps at most. Fork mode, timeouts ignored: a recipe can
    # multiply one step by another (10^3 values, each through a chain of 10^5 subtractions: 8.8 s in the release
    # build, 80 s in jq 1.8), which is work the program asks for, not a hang; the hostile suite times big programs.
    compile_deep) echo "-max_len=64 -fork=1 -ignore_timeouts=1" ;;
    # Fork mode: a slow or memory-hungry program that slips past the target's limits is counted, not fatal.
    eval) echo "-dict=$here/jq.dict -max_len=4096 -fork=1 -ignore_timeouts=1 -ignore_ooms=1" ;;
  esac
}
seeds_for() {
  case "$1" in
    compile) echo "$work/seeds/jq" ;;
    compile_deep) echo "$work/seeds/deep" ;;
    eval) echo "$work/seeds/eval" ;;
    *) echo "${json_seeds[@]}" ;;
  esac
}

# ---- saved inputs: regressions/<target>/ must pass (every crash found and fixed is kept there); known/<target>/
# holds crashes not fixed yet (see README.md): they are replayed and reported, but do not fail the run ----
status=0
for t in $targets; do
  for kind in regressions known; do
    dir="$here/$kind/$t"
    [ -d "$dir" ] || continue
    files=("$dir"/*)
    [ -e "${files[0]}" ] || continue
    n_bad=0
    for f in "${files[@]}"; do
      if ! "$build/fuzz_$t" -runs=1 "$f" >"$work/$kind-$t-$(basename "$f").log" 2>&1; then
        n_bad=$((n_bad + 1))
        if [ "$kind" = regressions ]; then
          echo "run.sh: FAILED: regression input $f crashes again (log: $work/$kind-$t-$(basename "$f").log)"
          grep -E "ERROR|FUZZ CHECK|SUMMARY" "$work/$kind-$t-$(basename "$f").log" | head -3
          status=1
        else
          echo "run.sh: known bug still there: $f"
        fi
      elif [ "$kind" = known ]; then
        echo "run.sh: known bug input $f passes now: move it to tests/fuzz/regressions/$t/"
      fi
    done
    echo "run.sh: $t: ${#files[@]} $kind inputs replayed, $n_bad failing"
  done
done

# ---- fuzz ----
fuzz_one() {
  local t="$1" log="$work/$1.log"
  mkdir -p "$work/corpus/$t"
  # shellcheck disable=SC2046
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" UBSAN_OPTIONS="print_stacktrace=1" \
    "$build/fuzz_$t" $(args_for "$t") -max_total_time="$time_each" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" "$work/corpus/$t" $(seeds_for "$t") \
    >"$log" 2>&1
  echo $? >"$work/$t.rc"
}
running=0
for t in $targets; do
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

total_execs=0
for t in $targets; do
  log="$work/$t.log"
  rc="$(cat "$work/$t.rc" 2>/dev/null || echo 1)"
  # Executions: the final stats line, or (fork mode) the last status line "#N: ...".
  execs="$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  if [ -z "$execs" ]; then
    execs="$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')"
  fi
  execs="${execs:-0}"
  ignored="$(grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' "$log" | tail -1 | sed 's/oom\/timeout\/crash: //')"
  corpus="$(find "$work/corpus/$t" -type f | wc -l)"
  result=ok
  if [ "$rc" != 0 ] || grep -qE "^==[0-9]+==ERROR|FUZZ CHECK FAILED|runtime error:|deadly signal" "$log"; then
    result=CRASH
    status=1
  fi
  total_execs=$((total_execs + execs))
  printf 'fuzz %-9s %10s executions in %ss, corpus %s inputs%s: %s\n' "$t" "$execs" "$time_each" "$corpus" \
    "${ignored:+, ignored oom/timeout/crash $ignored}" "$result"
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$t" "$time_each" "$execs" "$result" \
    >>"$work/history.tsv"
  if [ "$result" = CRASH ]; then
    grep -E "^==[0-9]+==ERROR|FUZZ CHECK FAILED|runtime error:|SUMMARY|Test unit written to" "$log" |
      head -8 | sed 's/^/    /'
    echo "    log: $log   reproduce: $build/fuzz_$t <artifact>   then save it in tests/fuzz/regressions/$t/"
  fi
done
echo "fuzz: $total_execs executions in total; history in $work/history.tsv"
[ "$status" = 0 ] && echo "fuzz: all targets clean" || echo "fuzz: FAILED"
exit "$status"
