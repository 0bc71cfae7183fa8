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

# bench NAME ARGS...: tools/bench-gate.sh ARGS, its exit status in $code, what it printed in
# $tmp/NAME (as $out and $err, for check_run).
bench() {
  local name=$1
  shift
  out=$tmp/$name err=$tmp/$name code=0
  "$script" "$@" >"$out" 2>&1 || code=$?
}

bench head --ref HEAD --rounds 1 --messages 10 --scenario consume_raw --build-dir "$build"
check_run a_round_against_head_should_pass 0
check_run both_sides_should_be_timed 0 '^ +1  ref +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +0 +2$' \
  '^ +1  this +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +0 +2$'
# The valgrind processes of each gate: two for one scenario (callgrind and DHAT, rule 10).
check_run the_valgrind_processes_should_be_counted 0 '^valgrind processes a run: ref 2, this 2$'
check_run the_counts_should_be_compared 0 '^counts: equal in all 1 scenarios'
check_run a_ratio_should_be_printed 0 '^ratio \(this / ref, wall\): [0-9]+\.[0-9]{3}$'

bench max --ref HEAD --rounds 1 --messages 10 --scenario consume_raw --build-dir "$build" \
  --max-ratio 0.001
check_run a_ratio_above_max_ratio_should_exit_1 1 'is above --max-ratio 0\.001'
bench usage --rounds 0
check_run bad_usage_should_exit_2 2 "rounds must be 1 to 99, not '0'"
bench ref --ref no-such-ref-here --build-dir "$build"
check_run an_unknown_ref_should_exit_2 2 "no commit 'no-such-ref-here'"
if git -C "$source_dir" worktree list | grep -q "$tmp"; then
  fail "no_worktree_should_be_left"
else
  pass "no_worktree_should_be_left"
fi

finish
