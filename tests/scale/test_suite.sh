#!/usr/bin/env bash
# A synthetic suite of K scenarios (make_suite.sh: built in a temporary tree with costgate's
# cmake/costgate.cmake, as an adopting project builds), end to end under real valgrind: measured
# whole with --save-baseline, then as 8 shards compared with that baseline, merged to a pass
# whose results equal the whole run's. Prints gate's own figures (CPU share, peak memory, wall
# time against the runs' sum over the jobs).
# Usage: test_suite.sh GATE COSTGATE_SOURCE_DIR K
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") source=$(realpath -- "$2") count=$3
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
work=$(temp_dir suite) || exit 2
code_section() { sed -n '/^\t"code":/,/^\t"costgate":/p' "$1"; }

if ! "$source/tests/scale/make_suite.sh" "$source" "$count" "$work/suite"; then
  fail "the_synthetic_suite_of_${count}_should_build"
  echo "$passed passed, $failures failed"
  exit 1
fi
build="$work/suite/build"
# The baseline is written into the repository gate runs in: a repository of its own.
mkdir -p "$work/repo"
git -C "$work/repo" init -q -b main

start=$(date +%s.%N)
(cd "$work/repo" && /usr/bin/time -f '%M' -o "$work/whole.rss" "$gate" --build-dir "$build" \
  --messages 100 --save-baseline main --json "$work/whole.json" --raw-dir "$work/raw" \
  >"$work/whole.out" 2>"$work/whole.err")
code=$?
end=$(date +%s.%N)
rows=$(grep -cE '^s[0-9]+ +[0-9]' "$work/whole.out")
if [ "$code" -eq 0 ] && [ "$rows" -eq "$count" ] && [ -s "$work/repo/baselines/main.json" ]; then
  pass "${count}_scenarios_should_measure_and_save_a_baseline"
else
  fail "${count}_scenarios_should_measure_and_save_a_baseline: exit $code, $rows rows: $(tail -n 5 "$work/whole.err")"
fi
echo "     gate's own figures: $(grep '^gate: measured in' "$work/whole.err" | sed 's/^gate: //')"
echo "     peak memory of gate: $(cat "$work/whole.rss") KiB; wall $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"

# Each shard from the repository's top as the whole run was (its source lines are named there).
for k in 1 2 3 4 5 6 7 8; do
  (cd "$work/repo" && exec "$gate" -q --build-dir "$build" --messages 100 --shard "$k/8" \
    --json "$work/shard-$k.json" --raw-dir "$work/raw-shards" \
    --baseline-file "$work/repo/baselines/main.json") >"$work/shard-$k.out" 2>"$work/shard-$k.err"
  shard_code=$?
  [ "$shard_code" -eq 0 ] || fail "shard_${k}_of_8_should_pass_against_the_baseline: exit $shard_code: $(tail -n 3 "$work/shard-$k.err")"
done
"$gate" merge --baseline-file "$work/repo/baselines/main.json" --json "$work/merged.json" \
  --raw-dir "$work/raw-shards" "$work"/shard-*.json >"$work/merged.out" 2>"$work/merged.err"
code=$?
if [ "$code" -eq 0 ] && grep -q "^pass: $count scenarios within their limits" "$work/merged.out" &&
   [ "$(grep -cE '^s[0-9]+ +[0-9].* ok$' "$work/merged.out")" -eq "$count" ]; then
  pass "${count}_scenarios_in_8_shards_should_merge_to_a_pass_against_the_baseline"
else
  fail "${count}_scenarios_in_8_shards_should_merge_to_a_pass_against_the_baseline: exit $code: $(tail -n 3 "$work/merged.out" "$work/merged.err")"
fi
if cmp -s <(code_section "$work/whole.json") <(code_section "$work/merged.json"); then
  pass "${count}_scenarios_in_8_shards_should_merge_to_the_whole_run_s_results"
else
  fail "${count}_scenarios_in_8_shards_should_merge_to_the_whole_run_s_results"
  diff <(code_section "$work/whole.json") <(code_section "$work/merged.json") | head -n 10
fi

finish
