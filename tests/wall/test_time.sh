#!/usr/bin/env bash
# gate time end to end on the real native scenarios, with short rounds: the native --time mode,
# the scenarios section in schema 3's layout, a run of gate and a run of gate time each keeping
# the section the other wrote, the selection, and the usage and run failures (exit 2 and 3).
# Usage: test_time.sh GATE BUILD_DIR RESULTS_CHECK
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") check=$(realpath -- "$3")
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
work=$(temp_dir time) || exit 2
native=$build/scenarios/native

# --- the native executable's --time mode, and the measured executable's contract unchanged
out=$("$native/consume_json" --time 1000)
if [[ $out =~ ^drain_ns\ [1-9][0-9]*$ ]]; then
  pass "native_time_mode_should_print_the_drains_nanoseconds"
else
  fail "native_time_mode_should_print_the_drains_nanoseconds: '$out'"
fi
"$build/scenarios/consume_json" --time 1000 >/dev/null 2>&1
code=$?
"$native/consume_json" --time 0 >/dev/null 2>&1
code_zero=$?
"$native/consume_json" --time >/dev/null 2>&1
code_missing=$?
if [ "$code" -eq 2 ] && [ "$code_zero" -eq 2 ] && [ "$code_missing" -eq 2 ]; then
  pass "time_mode_should_exist_only_natively_and_take_a_positive_count"
else
  fail "time_mode_should_exist_only_natively_and_take_a_positive_count: exits $code $code_zero $code_missing"
fi
if "$build/scenarios/consume_json" --describe | grep -q raw_counterpart; then
  fail "measured_executable_should_not_carry_the_counterpart_name"
elif "$native/consume_json" --describe | grep -q '"raw_counterpart":"decode_only"'; then
  pass "native_describe_should_name_the_raw_counterpart"
else
  fail "native_describe_should_name_the_raw_counterpart: $("$native/consume_json" --describe)"
fi

# --- gate, then gate time, then gate again on one results file
results=$work/results.json
"$gate" -q --build-dir "$build" -s consume_raw --messages 20 --json "$results" --raw-dir "$work/raw" >/dev/null
code_before=$("$check" section "$results" code)
costgate_before=$("$check" section "$results" costgate)
"$gate" time -q --build-dir "$build" --round-seconds 0.05 --json "$results" >"$work/time.out" 2>"$work/time.err"
code=$?
if [ "$code" -eq 0 ] && grep -qE '^batch +decode_only ' "$work/time.out" &&
  grep -qE '^consume_json +decode_only .*(indistinguishable|measured)$' "$work/time.out"; then
  pass "time_should_time_every_pair_and_print_a_row_each"
else
  fail "time_should_time_every_pair_and_print_a_row_each: exit $code: $(cat "$work/time.out" "$work/time.err")"
fi
if "$check" scenarios "$results" 9 3 3; then
  pass "time_should_write_the_scenarios_section_in_schema_3_layout (3 loops of 3 rounds)"
else
  fail "time_should_write_the_scenarios_section_in_schema_3_layout"
fi
if [ "$("$check" keys "$results")" = "schema environment scenarios code costgate" ] &&
  [ "$("$check" section "$results" code)" = "$code_before" ] &&
  [ "$("$check" section "$results" costgate)" = "$costgate_before" ]; then
  pass "time_should_keep_the_code_section_gate_wrote"
else
  fail "time_should_keep_the_code_section_gate_wrote: keys $("$check" keys "$results")"
fi
scenarios_before=$("$check" section "$results" scenarios)
"$gate" -q --build-dir "$build" -s consume_raw --messages 20 --json "$results" --raw-dir "$work/raw" >/dev/null
if [ "$("$check" section "$results" scenarios)" = "$scenarios_before" ] &&
  [ "$("$check" keys "$results")" = "schema environment scenarios code costgate" ]; then
  pass "gate_should_keep_the_scenarios_section_time_wrote"
else
  fail "gate_should_keep_the_scenarios_section_time_wrote: keys $("$check" keys "$results")"
fi

# --- a selection, and loops and rounds of another size
"$gate" time -q --build-dir "$build" -s 'consume_*' --round-seconds 0.02 --loops 2 --rounds 1 \
  --json "$work/one.json" >"$work/one.out"
if "$check" scenarios "$work/one.json" 2 2 1 &&
  [ "$("$check" section "$work/one.json" scenarios | grep -o '"name":"[a-z_]*"' | xargs)" = 'name:consume_json' ]; then
  pass "time_should_time_only_the_selected_pairs"
else
  fail "time_should_time_only_the_selected_pairs: $(cat "$work/one.out")"
fi

# --- -v says where gate time's time went: the timed drains against the rest of the runs
"$gate" time -v --build-dir "$build" -s consume_json --round-seconds 0.05 --loops 1 --rounds 2 \
  --json "$work/share.json" >"$work/share.out" 2>"$work/share.err"
line=$(grep '^gate: time: [0-9]* runs in ' "$work/share.err")
if [[ $line =~ ^gate:\ time:\ ([0-9]+)\ runs\ in\ ([0-9.]+)\ s\;\ the\ timed\ drains\ took\ ([0-9.]+)\ s\ \(([0-9]+)\ %\),\ the\ rest\ of\ the\ runs\ ([0-9.]+)\ s ]] &&
  [ "${BASH_REMATCH[1]}" -ge 6 ] && [ "${BASH_REMATCH[4]}" -ge 1 ] && [ "${BASH_REMATCH[4]}" -le 100 ] &&
  awk -v total="${BASH_REMATCH[2]}" -v drains="${BASH_REMATCH[3]}" -v rest="${BASH_REMATCH[5]}" \
    'BEGIN { exit !(drains > 0 && drains + rest <= total + 0.1) }'; then
  pass "verbose_time_should_say_what_share_the_timed_drains_took"
else
  fail "verbose_time_should_say_what_share_the_timed_drains_took: '$line'"
fi

# expect_error NAME EXIT PATTERN ARGS...: gate time exits EXIT with a message matching PATTERN.
expect_error() {
  local name=$1 expected=$2 pattern=$3 stderr code
  shift 3
  stderr=$("$gate" time -q "$@" --json "$work/error.json" 2>&1 >/dev/null)
  code=$?
  if [ "$code" -eq "$expected" ] && grep -qE -- "$pattern" <<<"$stderr"; then
    pass "$name"
  else
    fail "$name: exit $code: $stderr"
  fi
}
expect_error time_should_refuse_a_round_of_zero_seconds 2 "--round-seconds must be a number" \
  --build-dir "$build" --round-seconds 0
expect_error time_should_refuse_zero_loops 2 "--loops must be an integer from 1" --build-dir "$build" --loops 0
expect_error time_should_refuse_a_stray_argument 2 "unexpected argument 'extra'" --build-dir "$build" extra
expect_error time_should_say_when_the_selection_has_no_pair 2 \
  "nothing to time: no selected scenario declares a raw counterpart" --build-dir "$build" -s consume_raw
expect_error time_should_say_how_to_get_the_native_scenarios 2 "no native scenarios: the build has none .*docs/wall-clock.md" \
  --build-dir "$work/empty"

# --- stand-in native scenarios: a counterpart that is not raw, and a run that fails
fake=$work/fake/scenarios/native
mkdir -p "$fake"
# stand_in NAME RAW COUNTERPART TIME_EXIT: a script that answers --describe and --time.
stand_in() {
  local counterpart=""
  [ -n "$3" ] && counterpart=",\"raw_counterpart\":\"$3\""
  cat >"$fake/$1" <<SCRIPT
#!/bin/sh
if [ "\$1" = --describe ]; then
  echo '{"name":"$1","title":"stand-in","body_bytes":512,"raw":$2$counterpart}'
  exit 0
fi
[ "$4" -eq 0 ] && echo "drain_ns 1000000"
exit $4
SCRIPT
  chmod +x "$fake/$1"
}
write_manifest() {
  { echo "compiler GNU 12"; echo "flags -O2 -g"
    for name in "$@"; do echo "scenario $name $fake/$name"; done; } >"$fake/manifest.txt"
}
stand_in harness false not_raw 0
stand_in not_raw false "" 0
write_manifest harness not_raw
expect_error time_should_refuse_a_counterpart_that_is_not_a_raw_loop 2 \
  "declares the raw counterpart 'not_raw', which is not a raw loop" --build-dir "$work/fake"
stand_in harness false raw_loop 1
stand_in raw_loop true "" 0
write_manifest harness raw_loop
expect_error time_should_fail_with_exit_3_when_a_run_fails 3 "timing 'harness'.*exited with 1" \
  --build-dir "$work/fake" --round-seconds 0.01
if [ ! -e "$work/error.json" ]; then
  pass "time_should_write_no_results_when_a_run_failed"
else
  fail "time_should_write_no_results_when_a_run_failed"
fi

finish
