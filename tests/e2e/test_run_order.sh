#!/usr/bin/env bash
# The order runs start in without a baseline: gate orders them by the last results written where
# it writes its own (--json), heaviest first. At -j 1 runs end in the order they start, so the
# progress lines show it. A first run has no figures: every scenario counts as typical, and the
# DHAT runs (the dearer start-up) all go before the callgrind runs. A second, with the first's
# results in place, starts roundtrip_json's two runs (58,805 instructions a message) before
# consume_raw's (47). A results file gate cannot read orders nothing and is no error.
# Usage: test_run_order.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
setup_gate
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
tmp=$(temp_dir run-order) || exit 2
cd "$tmp" || exit 2

# measure NAME: gate on consume_raw and roundtrip_json at -j 1, its results in results.json;
# prints the runs in the order they ended ("roundtrip_json dhat,...").
measure() {
  "$gate" --build-dir "$build" --messages 300 -j 1 -v -s consume_raw -s roundtrip_json \
    --json "$tmp/results.json" --raw-dir "$tmp/raw" >"$tmp/$1.out" 2>"$tmp/$1.err" ||
    echo "exit $?,"
  sed -nE 's/^gate: ([a-z0-9_]+ [a-z]+) [0-9]+: done in .*/\1/p' "$tmp/$1.err" | paste -sd, -
}

first=$(measure first)
case $first in
*dhat,*dhat,*callgrind,*callgrind) pass "a_first_run_should_start_every_dhat_run_first ($first)" ;;
*) fail "a_first_run_should_start_every_dhat_run_first: $first" && show "$tmp/first.err" ;;
esac

second=$(measure second)
expected="roundtrip_json dhat,roundtrip_json callgrind,consume_raw dhat,consume_raw callgrind"
if [ "$second" = "$expected" ]; then
  pass "a_second_run_should_start_the_dearest_scenario_first ($second)"
else
  fail "a_second_run_should_start_the_dearest_scenario_first: $second, expected $expected"
  show "$tmp/second.err"
fi

printf '{"not": "results"' >"$tmp/results.json"
third=$(measure unreadable)
case $third in
*dhat,*dhat,*callgrind,*callgrind)
  if grep -q '"code"' "$tmp/results.json"; then
    pass "an_unreadable_results_file_should_order_nothing_and_be_replaced"
  else
    fail "an_unreadable_results_file_should_order_nothing_and_be_replaced: not rewritten"
  fi
  ;;
*) fail "an_unreadable_results_file_should_order_nothing_and_be_replaced: $third" && show "$tmp/unreadable.err" ;;
esac

finish
