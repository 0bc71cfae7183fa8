#!/usr/bin/env bash
# gate --verify measures every run twice: a deterministic scenario passes with its second runs
# kept beside the first, and a scenario whose work depends on the clock is a measurement failure
# (exit 3) naming the scenario, the run and both counts.
# Usage: test_verify.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
work=$(temp_dir verify) || exit 2

mkdir -p "$work/build/scenarios"
{
  grep -Ev '^(scenario|build) ' "$build/scenarios/manifest.txt"
  grep '^scenario consume_raw ' "$build/scenarios/manifest.txt"
  grep '^scenario nondeterministic ' "$build/tests/scenarios/manifest.txt"
} >"$work/build/scenarios/manifest.txt"

out=$work/out err=$work/err
"$gate" -q --verify --messages 200 --build-dir "$work/build" --json "$work/results.json" \
  --raw-dir "$work/raw" >"$out" 2>"$err"
code=$?
# One run, exit 3 for the one scenario: each case below names what it checks of it.
check_run "verify_should_fail_a_scenario_that_is_not_deterministic" 3
check_run "verify_should_name_the_scenario_the_run_and_both_counts" 3 \
  '^nondeterministic: failed to measure: not deterministic: the callgrind run at [0-9]+ counted [0-9]+ and then [0-9]+ instructions'
# Its figure is the first run's, callgrind's parts at N and 2N added up by hand (GCC 12 -O2:
# 47.170; clang 14: 46.185).
at_n=$(callgrind_sum program_own "$work/raw" consume_raw 200 200)
at_2n=$(callgrind_sum program_own "$work/raw" consume_raw 400 200)
per_message=$(awk -v n="${at_n:-0}" -v twice="${at_2n:-0}" \
  'BEGIN { printf "%.3f", (twice - n) / 200 }')
check_run "verify_should_pass_a_deterministic_scenario ($per_message)" 3 \
  "^consume_raw +${per_message//./\\.} .* ok\$"
if [ -s "$work/raw/callgrind.out.consume_raw.200-400.again" ] && [ -s "$work/raw/dhat.out.consume_raw.400.again" ]; then
  pass "verify_should_keep_the_second_runs"
else
  fail "verify_should_keep_the_second_runs"
fi
# Without --verify the clock-dependent scenario is measured once, and nothing in one measurement
# says its counts do not repeat: it passes with figures that are merely wrong, or, when the clock
# made its slope depend on N, fails the linearity check. Never "not deterministic".
"$gate" --messages 200 --build-dir "$work/build" -s nondeterministic --json "$work/once.json" \
  --raw-dir "$work/raw-once" >"$work/once.out" 2>&1
code=$?
if { [ "$code" -ne 3 ] || grep -q 'not linear' "$work/once.out"; } &&
  ! grep -q 'not deterministic' "$work/once.out"; then
  pass "without_verify_a_single_measurement_cannot_tell (exit $code)"
else
  fail "without_verify_a_single_measurement_cannot_tell (exit $code)"
  show "$work/once.out"
fi

finish
