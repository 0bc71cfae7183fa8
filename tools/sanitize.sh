#!/usr/bin/env bash
# Builds gate and its unit tests with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan (-DCOSTGATE_SANITIZE=ON; the scenarios stay unsanitized, valgrind runs them) and runs
# the test suite there: unit tests, CLI tests and, unless --quick, the end-to-end tests too, which
# drive the sanitized gate binary against real valgrind. Any ASan or UBSan report aborts the
# process it is in, so the test that ran it fails. Leak detection is on. The tests labelled
# own_build (adoption, the action's steps, the layers check) are left out: they build, install
# and run a costgate of their own with the default flags, never build-asan's binaries, so here
# they would repeat make test's run of them to the byte.
#
#   tools/sanitize.sh [--quick] [CTEST ARGUMENTS...]
#     --quick: only the tests that run no valgrind (ctest -LE valgrind), about a minute
#     e.g. tools/sanitize.sh -R '^(results|cli)$'
# Prints "N passed, M failed" last; exit 0 when every test passed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

build="build-asan"
excluded=own_build
if [ "${1:-}" = "--quick" ]; then
  excluded="$excluded|valgrind"
  shift
fi
selection=(-LE "$excluded")
selection+=("$@")

# Every process of a test inherits these: gate, the unit tests, and the stand-ins the CLI test
# puts on PATH. The valgrind runs gate starts get a cleared environment and never see them.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

mkdir -p "$build"
# Ninja for a new build directory where there is one; an existing one keeps its generator.
generator=()
[ -f "$build/CMakeCache.txt" ] || ! command -v ninja >/dev/null 2>&1 || generator=(-G Ninja)
if ! cmake -S . -B "$build" "${generator[@]}" -DCOSTGATE_SANITIZE=ON >"$build/configure.log" 2>&1; then
  cat "$build/configure.log" >&2
  echo "sanitize: error: cannot configure $build" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if ! cmake --build "$build" -j "$(nproc)" >"$build/sanitize-build.log" 2>&1; then
  tail -n 40 "$build/sanitize-build.log" >&2
  echo "sanitize: error: cannot build $build (log: $build/sanitize-build.log)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

log="$build/sanitize-ctest.log"
# One test more than processors, as make test runs them (the Makefile says why).
(cd "$build" && ctest -j "$(($(nproc) + 1))" --output-on-failure "${selection[@]}") >"$log" 2>&1
status=$?
grep -E '^[[:space:]]*[0-9]+/[0-9]+ Test +#' "$log" | sed 's/^[[:space:]]*//'
sed -n '/^The following tests FAILED:/,/^Errors while running CTest/p' "$log"
summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
if [ -z "$summary" ]; then
  tail -n 20 "$log"
  echo "sanitize: error: ctest ran no test (log: $log)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$summary")
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
  echo "sanitize: a sanitizer reported an error (full log: $log):"
  grep -E -A 12 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -n 60
  [ "$failed" -gt 0 ] || failed=1
fi
# What a failing test said (its FAIL lines, what it showed under them, a C unit test's messages),
# since CI prints this script's output and not the log.
if [ "$failed" -gt 0 ]; then
  echo "sanitize: what the failing tests said (full log: $log):"
  grep -E '^(FAIL |    \| )|\.c:[0-9]+: |[0-9]+ passed, [0-9]+ failed' "$log" | head -n 80
fi
echo "$((total - failed)) passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
