#!/usr/bin/env bash
# Fuzzes gate's four readers of untrusted files (the callgrind parser, the DHAT parser, the
# baseline reader, the ELF module with its ld.so.cache reader) with libFuzzer for SECONDS each of a processor's time (default 60), all at
# once, and prints per target the runs, executions per second and crashes. Builds in
# build-fuzz with clang, ASan and UBSan. The committed seeds (tests/fuzz/corpus/TARGET) are only read; what the fuzzer adds
# goes to build-fuzz/fuzz/corpus/TARGET, and a crash to build-fuzz/fuzz/crashes/TARGET/. A crash
# is a bug: add the file to tests/fuzz/corpus/TARGET/ (replayed by every run) and a case to the
# parser's unit test (tests/unit/parse/, or tests/unit/core/test_results.c for the baseline reader).
#
#   tools/fuzz.sh [SECONDS]    exit 0 when no target crashed, 1 when one did, 2 on a setup error
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: error: SECONDS must be a positive whole number, not '$seconds'" >&2
  exit 2
fi
if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: error: clang not found (apt-get install clang libclang-rt-dev)" >&2
  exit 2
fi
probe=$(mktemp -d)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' \
  >"$probe/probe.c"
if ! clang -fsanitize=fuzzer,address,undefined "$probe/probe.c" -o "$probe/probe" >"$probe/log" 2>&1; then
  cat "$probe/log" >&2
  rm -rf "$probe"
  echo "fuzz: error: clang cannot link libFuzzer here (apt-get install libclang-rt-dev)" >&2
  exit 2
fi
rm -rf "$probe"

build="build-fuzz"
targets=(callgrind dhat results elf)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$build"
# Ninja for a new build directory where there is one; an existing one keeps its generator.
generator=()
[ -f "$build/CMakeCache.txt" ] || ! command -v ninja >/dev/null 2>&1 || generator=(-G Ninja)
if ! CC=clang cmake -S . -B "$build" "${generator[@]}" -DCOSTGATE_FUZZ=ON -DCOSTGATE_SANITIZE=ON \
  >"$build/configure.log" 2>&1; then
  cat "$build/configure.log" >&2
  echo "fuzz: error: cannot configure $build" >&2
  exit 2
fi
if ! grep -q 'fuzz_callgrind' <<<"$(cmake --build "$build" --target help 2>/dev/null)"; then
  echo "fuzz: error: tests/fuzz is not part of the build: tests/CMakeLists.txt needs add_subdirectory(fuzz)" >&2
  exit 2
fi
if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  echo "fuzz: error: cannot build the fuzz targets (log: $build/fuzz-build.log)" >&2
  exit 2
fi

# fuzz TARGET: one target's run; its exit status goes to build-fuzz/fuzz/TARGET.status and its
# wall seconds to TARGET.seconds.
fuzz() {
  local target=$1 corpus="$build/fuzz/corpus/$1" crashes="$build/fuzz/crashes/$1" started=$SECONDS
  # Crashes of an earlier run are gone once this one starts: keep them in tests/fixtures.
  rm -rf "$crashes"
  mkdir -p "$corpus" "$crashes"
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
    -print_final_stats=1 -dict="tests/fuzz/$target.dict" -artifact_prefix="$crashes/" \
    "$corpus" "tests/fuzz/corpus/$target" >"$build/fuzz/$target.log" 2>&1
  echo $? >"$build/fuzz/$target.status"
  echo $((SECONDS - started)) >"$build/fuzz/$target.seconds"
}

# Every target at once, each for SECONDS of a processor's time (libFuzzer runs one thread): with
# more targets than processors, each runs SECONDS x targets / processors of wall time on its
# share, so no processor waits for the last target alone.
slots=$(nproc 2>/dev/null || echo 1)
if [ "${#targets[@]}" -gt "$slots" ]; then
  seconds=$(((seconds * ${#targets[@]} + slots - 1) / slots))
fi
for target in "${targets[@]}"; do
  fuzz "$target" &
done
wait

passed=0 failed=0
for target in "${targets[@]}"; do
  crashes="$build/fuzz/crashes/$target" log="$build/fuzz/$target.log"
  status=$(cat "$build/fuzz/$target.status" 2>/dev/null || echo 1)
  elapsed=$(cat "$build/fuzz/$target.seconds" 2>/dev/null || echo 0)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  # A run that ended without its statistics (the target could not start) counts as a failure.
  if [ -z "$runs" ]; then
    echo "fuzz_$target: no statistics, exit $status: $(tail -n 5 "$log")"
    failed=$((failed + 1))
    continue
  fi
  # slow-unit-* files only report a slow input (a busy machine makes them): not crashes.
  found=$(find "$crashes" -type f ! -name 'slow-unit-*' | wc -l)
  echo "fuzz_$target: ${runs} runs in ${elapsed} s, ${rate} executions per second, ${found} crashes"
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    find "$crashes" -type f ! -name 'slow-unit-*' -printf '  crash: %p\n'
    grep -m 3 -E 'ERROR: |runtime error: |invariant broken' "$log" | sed 's/^/  /'
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
