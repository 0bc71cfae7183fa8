#!/usr/bin/env bash
# gate profile end to end: gperftools' CPU profiler around the drain of a real native scenario,
# google-pprof's text output, and the usage errors.
# Usage: test_profile.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2")
work=$(temp_dir profile) || exit 2

"$gate" profile consume_json --build-dir "$build" --seconds 0.3 --top 8 -o "$work/p/consume_json.prof" \
  >"$work/out" 2>"$work/err"
code=$?
if [ "$code" -eq 0 ] && [ -s "$work/p/consume_json.prof" ]; then
  pass "profile_should_write_the_profile_file"
else
  fail "profile_should_write_the_profile_file: exit $code: $(cat "$work/err")"
fi
if head -n 1 "$work/out" | grep -qE '^Total: [0-9]+ samples$' && [ "$(wc -l <"$work/out")" -eq 9 ] &&
  grep -qE 'cJSON|order_decode|malloc|strto' "$work/out"; then
  pass "profile_should_print_the_top_functions_of_the_decode"
else
  fail "profile_should_print_the_top_functions_of_the_decode: $(cat "$work/out")"
fi
# Every sample lies under the region: the fill and the start are outside the profile.
google-pprof --text "$build/scenarios/native/consume_json" "$work/p/consume_json.prof" \
  >"$work/full" 2>/dev/null
if grep -qE '100\.0% costgate_measured_region$' "$work/full"; then
  pass "profile_should_hold_the_drain_and_nothing_else"
else
  fail "profile_should_hold_the_drain_and_nothing_else: $(grep costgate_measured_region "$work/full")"
fi

"$gate" profile decode_only --build-dir "$build" --messages 300000 --top 2 -q -o "$work/d.prof" >"$work/out2"
code=$?
if [ "$code" -eq 0 ] && [ "$(wc -l <"$work/out2")" -eq 3 ]; then
  pass "profile_should_take_an_exact_message_count"
else
  fail "profile_should_take_an_exact_message_count: exit $code: $(cat "$work/out2")"
fi

expect_error() {
  local name=$1 pattern=$2 stderr code
  shift 2
  stderr=$("$gate" profile --build-dir "$build" "$@" 2>&1 >/dev/null)
  code=$?
  if [ "$code" -eq 2 ] && grep -qE -- "$pattern" <<<"$stderr"; then
    pass "$name"
  else
    fail "$name: exit $code: $stderr"
  fi
}
expect_error profile_should_reject_an_unknown_scenario "unknown scenario 'nope'$" nope
expect_error profile_should_suggest_the_nearest_scenario \
  "unknown scenario 'consume_jsn': did you mean 'consume_json'\?" consume_jsn
expect_error profile_should_need_a_scenario "needs a SCENARIO"
expect_error profile_should_refuse_a_frequency_of_zero "--frequency must be an integer from 1" \
  consume_json --frequency 0

finish
