#!/usr/bin/env bash
# Executables that hide cost from callgrind are refused before they are measured (exit 3, naming
# the file and the symbol or address): a second function named costgate_measured_region, a
# client request (RUNNING_ON_VALGRIND) in the scenario, and CALLGRIND_TOGGLE_COLLECT in a shared
# library the scenario loads from the build tree. The addresses are checked against nm's.
# Usage: test_program_checks.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2

tmp=$(temp_dir program-checks) || exit 2
own=$(realpath "$build/tests/evasion/own/scenarios")
shared=$(realpath "$build/tests/evasion/libevasion_toggle.so")
out=$tmp/stdout err=$tmp/stderr

# run DIR: gate on the build DIR; sets code and fills $out and $err.
run() {
  "$gate" --build-dir "$1" --messages 100 -j 2 --json "$tmp/results.json" --raw-dir "$tmp/raw" \
    >"$out" 2>"$err"
  code=$?
}

# expect NAME CODE FIXED_LINE: the last run exited CODE and printed FIXED_LINE exactly.
expect() {
  if [ "$code" -eq "$2" ] && grep -qxF -- "$3" "$out"; then
    pass "$1"
  else
    fail "$1: exit $code, expected $2 and the line: $3"
    show "$out"
    show "$err"
  fi
}

# address FILE SYMBOL: nm's addresses of SYMBOL in FILE as gate prints them (0x without zeros).
addresses() { nm "$1" | awk -v s="$2" '$3 == s { printf "0x%s\n", $1 }' | sed 's/0x0*/0x/'; }

run "$build/tests/evasion/own"
mapfile -t regions < <(addresses "$own/second_region" costgate_measured_region)
if [ "${#regions[@]}" -ne 2 ]; then
  fail "setup: nm shows ${#regions[@]} costgate_measured_region in second_region, not 2"
else
  expect "a_second_region_function_should_fail_naming_both_addresses" 3 \
    "second_region: failed to measure: 2 functions are named 'costgate_measured_region' (${regions[0]} in '$own/second_region', ${regions[1]} in '$own/second_region'): exactly one may be the measured region, or callgrind counts the wrong code"
fi
check_run "running_on_valgrind_should_fail_naming_the_function" 3 \
  "^client_request: failed to measure: '$own/client_request' holds a valgrind client request \(the preamble of valgrind\.h\) at 0x[0-9a-f]+ in 'handle': the program under test may not talk to valgrind\$"
if ls "$tmp/raw"/callgrind.out.* >/dev/null 2>&1; then
  fail "refused_scenarios_should_never_run_under_valgrind: $(ls "$tmp/raw")"
else
  pass "refused_scenarios_should_never_run_under_valgrind"
fi

run "$build/tests/evasion/library"
check_run "a_client_request_in_a_library_of_the_build_tree_should_fail_naming_the_library" 3 \
  "^toggles_in_library: failed to measure: '$shared' holds a valgrind client request \(the preamble of valgrind\.h\) at 0x[0-9a-f]+ in 'evasion_hidden_checksum'"

# The real scenarios pass the same checks (one region each, no client request).
run "$build"
check_run "the_project_s_own_scenarios_should_pass_the_checks" 0 "!failed to measure"

finish
