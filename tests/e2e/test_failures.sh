#!/usr/bin/env bash
# Measurement failures under real valgrind (docs/design.md rules 7 and 8, exit 3): a scenario that
# crashes and one that never enters its region fail by name while a good one beside them is still
# measured; a scenario whose executable is missing; valgrind missing from PATH; a scenario that
# never ends is killed at --timeout.
# Usage: test_failures.sh GATE BUILD_DIR C_COMPILER
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2 compiler=$3
# Absolute: the cases run from a temporary directory.
setup_gate

tmp=$(temp_dir failures) || exit 2
cd "$tmp" || exit 2

# failure_names FILE: the names listed under costgate.failures of a results.json.
failure_names() {
  awk '/^\t\t"failures":/ { inside = 1; next } inside && /^\t\t"/ { exit }
    inside && /"name":/ { print }' "$1" | sed 's/.*"name":[[:space:]]*"\([^"]*\)".*/\1/' | xargs
}

out=$tmp/stdout err=$tmp/stderr

# measure DIR MESSAGES [OPTION...]: gate, quiet, on the build directory DIR, its results and raw
# files in DIR; sets $code.
measure() {
  local dir=$1 messages=$2
  shift 2
  "$gate" --build-dir "$dir" --messages "$messages" --json "$dir/results.json" --raw-dir "$dir/raw" \
    --quiet "$@" >"$out" 2>"$err"
  code=$?
}

# failed_to_measure SCENARIO WHY: the last run says SCENARIO failed to measure, for WHY (an
# extended regular expression), and its row's state is failed.
failed_to_measure() {
  grep -qE "^$1: failed to measure: .*$2" "$out" &&
    [ "$(awk -v name="$1" '$1 == name { print $NF; exit }' "$out")" = failed ]
}

# --- one good scenario beside a crash and a region never entered
manifest "$tmp/mixed" "consume_raw=$build/scenarios/consume_raw" \
  "segfaults=$build/tests/scenarios/segfaults" \
  "never_enters_region=$build/tests/scenarios/never_enters_region"
measure "$tmp/mixed" 100
check_run failures_should_exit_3 3
if failed_to_measure segfaults 'signal 11'; then
  pass "crash_should_be_reported_as_failed_with_signal_11"
else
  fail "crash_should_be_reported_as_failed_with_signal_11: $(cat "$out")"
fi
if failed_to_measure never_enters_region 'never entered'; then
  pass "region_never_entered_should_be_reported_as_failed"
else
  fail "region_never_entered_should_be_reported_as_failed: $(cat "$out")"
fi
good=$(awk '$1 == "consume_raw" { print; exit }' "$out")
if awk '{ exit !($NF == "ok" && $2 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $2 > 0 && $5 ~ /^[0-9]+$/ && $5 > 0) }' \
  <<<"$good"; then
  pass "good_scenario_should_still_be_measured_beside_failures"
else
  fail "good_scenario_should_still_be_measured_beside_failures: row '$good'"
fi
check_grep summary_should_name_both_failures "$out" \
  '^fail: 2 failed to measure (never_enters_region, segfaults)$'
listed=$(failure_names "$tmp/mixed/results.json")
if [ "$listed" = "never_enters_region segfaults" ]; then
  pass "results_json_should_list_both_failures"
else
  fail "results_json_should_list_both_failures: costgate.failures names '$listed'"
fi

# --- a scenario the manifest lists but the build does not have
manifest "$tmp/ghost" "ghost=$tmp/ghost/scenarios/ghost"
measure "$tmp/ghost" 2
if [ "$code" -eq 3 ] && grep -qE "^ghost: failed to measure: .*cannot run '[^']*/ghost'" "$out" &&
  [ "$(failure_names "$tmp/ghost/results.json")" = ghost ]; then
  pass "missing_executable_should_be_a_measurement_failure"
else
  fail "missing_executable_should_be_a_measurement_failure: exit $code: $(cat "$err" "$out")"
fi

# --- no valgrind on PATH (gate itself by absolute path)
mkdir -p "$tmp/nobin"
PATH="$tmp/nobin" "$gate" --build-dir "$build" --scenario consume_raw --messages 2 \
  --json "$tmp/nobin.json" --raw-dir "$tmp/nobin-raw" >"$out" 2>"$err"
code=$?
# "!^": stdout has no line at all.
check_run missing_valgrind_should_exit_3_and_say_so 3 'err:^gate: error: .*valgrind' '!^'

# --- a scenario that never ends: a real executable that describes itself, then spins
mkdir -p "$tmp/hang/bin"
bare_scenario "$tmp/hang/hangs.c" hangs "never ends" "for (;;) spin++;" \
  "static volatile unsigned long spin;"
if ! "$compiler" -O1 -o "$tmp/hang/bin/hangs" "$tmp/hang/hangs.c" 2>"$err"; then
  fail "timeout_should_kill_a_run_that_never_ends: cannot compile: $(cat "$err")"
else
  manifest "$tmp/hang" "hangs=$tmp/hang/bin/hangs"
  start=$SECONDS
  measure "$tmp/hang" 2 --timeout 2 --jobs 2
  elapsed=$((SECONDS - start))
  if [ "$code" -eq 3 ] && failed_to_measure hangs 'timed out'; then
    pass "timeout_should_kill_a_run_that_never_ends (${elapsed} s)"
  else
    fail "timeout_should_kill_a_run_that_never_ends: exit $code: $(cat "$err" "$out")"
  fi
  if [ "$(failure_names "$tmp/hang/results.json")" = hangs ]; then
    pass "timeout_should_be_listed_under_failures"
  else
    fail "timeout_should_be_listed_under_failures: '$(failure_names "$tmp/hang/results.json")'"
  fi
  # Six runs of 2 s on two slots: far less than a minute unless the deadline is not kept.
  if [ "$elapsed" -lt 60 ]; then
    pass "timeout_should_keep_its_deadline"
  else
    fail "timeout_should_keep_its_deadline: gate took $elapsed s"
  fi
  # Nothing gate started may outlive it: every valgrind run names the raw dir in its argv.
  left=$(pgrep -f -- "$tmp/hang/raw/" | xargs)
  if [ -z "$left" ]; then
    pass "timeout_should_leave_no_process_behind"
  else
    fail "timeout_should_leave_no_process_behind: still running: $left"
    for pid in $left; do kill -KILL "$pid" 2>/dev/null; done
  fi
fi

finish
