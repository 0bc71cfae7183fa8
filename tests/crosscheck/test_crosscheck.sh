#!/usr/bin/env bash
# The second opinion end to end under real valgrind (gate --cross-check, which also requires the
# native variants): the native counter agrees with DHAT on every real scenario and on every kind
# of realloc; a scenario that allocates differently without valgrind fails with exit 3 naming
# both figures; no native scenarios is exit 3 with --cross-check.
# Usage: test_crosscheck.sh GATE BUILD_DIR CROSSCHECK_BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") own=$(realpath -- "$3")
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
work=$(temp_dir crosscheck) || exit 2

# run NAME BUILD ARGS...: gate --cross-check, stdout and stderr kept under NAME ($out, $err),
# its exit status in $code (for check_run).
run() {
  local name=$1 directory=$2
  shift 2
  out=$work/$name.out err=$work/$name.err
  "$gate" --cross-check --build-dir "$directory" --messages 100 --json "$work/$name.json" \
    --raw-dir "$work/raw-$name" "$@" >"$out" 2>"$err"
  code=$?
}

run suite "$build"
check_run native_counts_should_equal_dhat_for_every_scenario 0 \
  'err:^gate: second opinion: 7 of 7 scenarios behave alike natively$'

run reallocates "$own" -s reallocates
row=$(awk '$1 == "reallocates"' "$work/reallocates.out")
if [ "$code" -eq 0 ] && awk '{ exit !($3 == "5.000" && $(NF - 2) == 6 && $NF == "ok") }' <<<"$row"; then
  pass "every_kind_of_realloc_should_count_as_dhat_counts_it (5 a message, 6 cold)"
else
  fail "every_kind_of_realloc_should_count_as_dhat_counts_it: exit $code: $(cat "$work/reallocates.out" "$work/reallocates.err")"
fi
native=$("$own/scenarios/native/reallocates" --count-allocations 1)
if [ "$native" = "allocations 6" ]; then
  pass "native_counter_should_print_the_blocks_of_the_region"
else
  fail "native_counter_should_print_the_blocks_of_the_region: '$native'"
fi

run disagrees "$own" -s disagrees
check_run a_disagreement_should_be_a_measurement_failure_naming_both_figures 3 \
  "^disagrees: failed to measure: behaves differently when measured: 2\.000 heap blocks per message and 2 cold natively \(address randomisation on, no pins, N on stdin, at most 3 messages waiting\), against 1\.000 and 1 measured \(2 / 200 / 400 at 1 / N / 2N, against 1 / 100 / 200\)$"

mkdir -p "$work/no-native/scenarios"
cp "$own/scenarios/manifest.txt" "$work/no-native/scenarios/manifest.txt"
run no_native "$work/no-native" -s reallocates
check_run missing_native_scenarios_should_be_a_measurement_failure 3 \
  "err:gate: error: --cross-check: no native scenarios"

finish
