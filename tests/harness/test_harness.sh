#!/usr/bin/env bash
# The harness contract, on the real scenario executables: --describe, the usage errors, and the
# internal checks (fill, count, same body bytes) that end in exit 1.
# Usage: test_harness.sh SCENARIO_DIR TEST_SCENARIO_DIR DESCRIBE_CHECK
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
scenarios=$1 test_scenarios=$2 describe_check=$3
work=$(temp_dir harness) || exit 2

# expect NAME CODE PATTERN -- COMMAND...: the command exits CODE and its stderr matches PATTERN.
expect() {
  local name=$1 code=$2 pattern=$3 stderr actual
  shift 4
  stderr=$("$@" 2>&1 >/dev/null)
  actual=$?
  if [ "$actual" -ne "$code" ]; then
    fail "$name: exit $actual, expected $code ($stderr)"
  elif ! grep -qE -- "$pattern" <<<"$stderr"; then
    fail "$name: stderr does not match '$pattern': $stderr"
  else
    pass "$name"
  fi
}

names=(consume_json consume_json_kilobyte reply batch consume_raw decode_only roundtrip_json)
for name in "${names[@]}"; do
  if "$scenarios/$name" --describe | "$describe_check" "$name"; then
    pass "describe_should_print_a_valid_declaration ($name)"
  else
    fail "describe_should_print_a_valid_declaration ($name)"
  fi
  # shellcheck disable=SC2016 # $1 is for the inner shell
  expect "scenario_should_run_1_1000_2000_deliveries ($name)" 0 '^$' -- \
    bash -c '"$1" 1 && "$1" 1000 && "$1" 2000' _ "$scenarios/$name"
done

# --describe escapes what JSON must escape, and the harness adds no library to the executable.
odd_title="test only: "$'say "hi" \\ tab\there, bell\a, line\nbreak, caf\xc3\xa9'
if "$test_scenarios/odd_title" --describe | "$describe_check" odd_title "$odd_title" 0.5; then
  pass "describe_should_escape_every_character_json_must"
else
  fail "describe_should_escape_every_character_json_must"
fi
needed=$(readelf -d "$test_scenarios/odd_title" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
if [ "$needed" = "libc.so.6 " ]; then
  pass "harness_should_link_nothing_but_the_c_library"
else
  fail "harness_should_link_nothing_but_the_c_library: the executable loads: $needed"
fi

# A declared linearity limit, allocator limit and system call floors are printed, and only when
# declared.
declared=$("$test_scenarios/warms_up_declared" --describe)
if printf '%s\n' "$declared" | "$describe_check" warms_up_declared &&
  grep -q '"linearity_percent":25[,}]' <<<"$declared" &&
  grep -q '"allocator_limit_percent":30[,}]' <<<"$declared" &&
  grep -q '"steady_syscalls":0.5,"cold_syscalls":3}' <<<"$declared" &&
  ! "$scenarios/consume_json" --describe | grep -qE 'linearity_percent|allocator_limit|syscalls'; then
  pass "describe_should_print_the_declared_limits_and_system_call_floors"
else
  fail "describe_should_print_the_declared_limits_and_system_call_floors: $declared"
fi

# The checker itself must reject a declaration that lacks a field.
if echo '{"name":"consume_json","title":"t","gated":true,"region":"costgate_measured_region"}' |
  "$describe_check" consume_json 2>/dev/null; then
  fail "describe_check_should_reject_a_declaration_without_floors"
else
  pass "describe_check_should_reject_a_declaration_without_floors"
fi

for bad in 0 -3 abc 18446744073709551616 1x "" 100000001; do
  expect "count_should_reject_'$bad'" 2 "COUNT must be a positive integer.*'$bad'" -- \
    "$scenarios/consume_json" "$bad"
done
expect "count_should_be_required" 2 'expected COUNT, --snapshots' -- "$scenarios/consume_json"
expect "count_should_be_alone" 2 'expected COUNT, --snapshots' -- "$scenarios/consume_json" 1 2

# --snapshots K1,K2 COUNT: increasing counts up to COUNT.
for bad in 0,5 5,5 6,5 5,11 11 1,,5 '1,' ,1 a,5 1,2,3,4,5,6,7,8,9; do
  expect "snapshots_should_reject_'$bad'" 2 "--snapshots takes increasing counts up to COUNT \\(10\\).*'$bad'" -- \
    "$scenarios/consume_json" --snapshots "$bad" 10
done
expect "snapshots_should_come_before_count" 2 'expected COUNT, --snapshots' -- \
  "$scenarios/consume_json" 10 --snapshots 1,5
# A run with snapshots forks a child at each (it exits at once) and says so on stderr; the
# harness's checks hold in every phase.
if "$scenarios/consume_json" --snapshots 1,5,10 10 2>"$work/snapshots.err" &&
  [ "$(grep -c '^costgate: snapshot at' "$work/snapshots.err")" -eq 3 ] &&
  grep -q '^costgate: snapshot at 1 deliveries$' "$work/snapshots.err" &&
  grep -q '^costgate: snapshot at 5 deliveries$' "$work/snapshots.err" &&
  grep -q '^costgate: snapshot at 10 deliveries$' "$work/snapshots.err"; then
  pass "snapshots_should_be_taken_after_each_phase"
else
  fail "snapshots_should_be_taken_after_each_phase: $(cat "$work/snapshots.err")"
fi
# --phases K1,K2 COUNT: the same phases and lines, without a child (the tool takes the counts).
for bad in 0,5 5,1 1,11 1,,5; do
  expect "phases_should_reject_'$bad'" 2 "--phases takes increasing counts up to COUNT \\(10\\).*'$bad'" -- \
    "$scenarios/consume_json" --phases "$bad" 10
done
if "$scenarios/consume_json" --phases 1,5,10 10 2>"$work/phases.err" &&
  [ "$(grep -c '^costgate: snapshot at' "$work/phases.err")" -eq 3 ] &&
  grep -q '^costgate: snapshot at 5 deliveries$' "$work/phases.err"; then
  pass "phases_should_report_the_end_of_each_phase"
else
  fail "phases_should_report_the_end_of_each_phase: $(cat "$work/phases.err")"
fi
expect "count_check_should_hold_with_phases" 1 'the count check' -- \
  "$test_scenarios/requeues_once" --phases 1,5 10
expect "fill_check_should_hold_with_snapshots" 1 'the fill check' -- \
  "$test_scenarios/steals_during_fill" --snapshots 1,5 10
expect "count_check_should_hold_with_snapshots" 1 'the count check' -- \
  "$test_scenarios/requeues_once" --snapshots 1,5 10
expect "body_check_should_hold_with_snapshots" 1 'the body check: the generator wrote different bytes' -- \
  "$test_scenarios/varying_body" --snapshots 1,5 10

expect "fill_check_should_catch_a_consumer_during_the_fill" 1 'the fill check' -- \
  "$test_scenarios/steals_during_fill" 10
expect "count_check_should_catch_an_extra_message" 1 'the count check.*10 requested, 11 handled' -- \
  "$test_scenarios/requeues_once" 10
expect "body_check_should_catch_bodies_that_change" 1 'the body check: the generator wrote different bytes' -- \
  "$test_scenarios/varying_body" 10

finish
