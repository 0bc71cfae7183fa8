#!/usr/bin/env bash
# tools/bench-gate.sh on this repository: gate built from HEAD against this build's gate, one
# round on one cheap scenario. It prints both sides, checks the counts and gives a ratio;
# --max-ratio fails above it; bad usage and an unknown ref are exit 2.
# Usage: test_bench_gate.sh SOURCE_DIR BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
source_dir=$(realpath -- "$1") build=$(realpath -- "$2")
script="$source_dir/tools/bench-gate.sh"
tmp=$(temp_dir bench-gate) || exit 2
cd "$source_dir" || exit 1

status=0
"$script" --ref HEAD --rounds 1 --messages 10 --scenario consume_raw --build-dir "$build" \
  >"$tmp/out" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  fail "a_round_against_head_should_pass: exit $status: $(tail -5 "$tmp/out")"
else
  pass "a_round_against_head_should_pass"
fi
if grep -Eq '^ +1  ref +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +0 +2$' "$tmp/out" &&
  grep -Eq '^ +1  this +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +0 +2$' "$tmp/out"; then
  pass "both_sides_should_be_timed"
else
  fail "both_sides_should_be_timed: $(cat "$tmp/out")"
fi
# The valgrind processes of each gate: two for one scenario (callgrind and DHAT, rule 10).
if grep -q '^valgrind processes a run: ref 2, this 2$' "$tmp/out"; then
  pass "the_valgrind_processes_should_be_counted"
else
  fail "the_valgrind_processes_should_be_counted: $(cat "$tmp/out")"
fi
if grep -q '^counts: equal in all 1 scenarios' "$tmp/out"; then
  pass "the_counts_should_be_compared"
else
  fail "the_counts_should_be_compared: $(cat "$tmp/out")"
fi
if grep -Eq '^ratio \(this / ref, wall\): [0-9]+\.[0-9]{3}$' "$tmp/out"; then
  pass "a_ratio_should_be_printed"
else
  fail "a_ratio_should_be_printed: $(cat "$tmp/out")"
fi

status=0
"$script" --ref HEAD --rounds 1 --messages 10 --scenario consume_raw --build-dir "$build" \
  --max-ratio 0.001 >"$tmp/max" 2>&1 || status=$?
if [ "$status" -eq 1 ] && grep -q 'is above --max-ratio 0.001' "$tmp/max"; then
  pass "a_ratio_above_max_ratio_should_exit_1"
else
  fail "a_ratio_above_max_ratio_should_exit_1: exit $status: $(tail -3 "$tmp/max")"
fi

status=0
"$script" --rounds 0 >"$tmp/usage" 2>&1 || status=$?
if [ "$status" -eq 2 ] && grep -q "rounds must be 1 to 99, not '0'" "$tmp/usage"; then
  pass "bad_usage_should_exit_2"
else
  fail "bad_usage_should_exit_2: exit $status: $(cat "$tmp/usage")"
fi
status=0
"$script" --ref no-such-ref-here --build-dir "$build" >"$tmp/ref" 2>&1 || status=$?
if [ "$status" -eq 2 ] && grep -q "no commit 'no-such-ref-here'" "$tmp/ref"; then
  pass "an_unknown_ref_should_exit_2"
else
  fail "an_unknown_ref_should_exit_2: exit $status: $(cat "$tmp/ref")"
fi
if git -C "$source_dir" worktree list | grep -q "$tmp"; then
  fail "no_worktree_should_be_left"
else
  pass "no_worktree_should_be_left"
fi

finish
