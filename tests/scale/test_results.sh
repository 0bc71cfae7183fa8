#!/usr/bin/env bash
# 1,000 and 10,000 scenarios' worth of results, baselines and shards (make_results writes them
# with gate's own writer): gate merge reads, compares and merges them, 8 shards to the same
# verdict, table and code section as the whole, a regression among them found either way, in a
# bounded time and memory.
# Usage: test_results.sh GATE MAKE_RESULTS
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 make_results=$2
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
work=$(temp_dir results) || exit 2
# A gate built with AddressSanitizer (tools/sanitize.sh sets ASAN_OPTIONS) keeps freed blocks in
# its quarantine (256 MiB) and pads each block with redzones: the same merge peaks near 540 MiB.
memory_bound=512
[ -n "${ASAN_OPTIONS:-}" ] && memory_bound=1024
code_section() { sed -n '/^\t"code":/,/^\t"costgate":/p' "$1"; }

# merge NAME FILE...: gate merge against the synthetic baseline; sets code, peak (KiB) and seconds.
merge() {
  local name=$1 start end
  shift
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/$name.rss" "$gate" merge -q --baseline-file "$dir/baseline.json" \
    --accepted "$work/none.json" --json "$work/$name.json" --raw-dir "$work/raw" "$@" \
    >"$work/$name.out" 2>"$work/$name.err"
  code=$?
  end=$(date +%s.%N)
  peak=$(tail -n 1 "$work/$name.rss")
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
}

# Under the sanitizers the memory handling is the point, not the scale: there the regression is
# looked for among 1,000 scenarios only (the normal build's run looks among 10,000 too).
for count in 1000 10000; do
  regressions="0 $((count / 2))"
  [ -n "${ASAN_OPTIONS:-}" ] && [ "$count" -gt 1000 ] && regressions=0
  for regress in $regressions; do
    dir="$work/$count-$regress"
    mkdir -p "$dir"
    if ! "$make_results" "$dir" "$count" 1000 8 "$regress"; then
      fail "make_results_should_write_${count}_scenarios"
      continue
    fi
    expected=0 what=pass
    [ "$regress" -gt 0 ] && expected=1 what=regression
    merge "whole-$count-$regress" "$dir/whole.json"
    whole_code=$code
    echo "     $count scenarios, whole: exit $code in $seconds s, peak $peak KiB"
    merge "eight-$count-$regress" "$dir"/shard-*-of-8.json
    echo "     $count scenarios, 8 shards: exit $code in $seconds s, peak $peak KiB"
    if [ "$whole_code" -eq "$expected" ] && [ "$code" -eq "$expected" ]; then
      pass "${count}_scenarios_should_be_a_${what}_whole_and_in_8_shards"
    else
      fail "${count}_scenarios_should_be_a_${what}_whole_and_in_8_shards (whole $whole_code, 8 shards $code)"
      head -n 3 "$work/whole-$count-$regress.err" "$work/eight-$count-$regress.err"
    fi
    if cmp -s "$work/whole-$count-$regress.out" "$work/eight-$count-$regress.out" &&
       cmp -s <(code_section "$work/whole-$count-$regress.json") <(code_section "$work/eight-$count-$regress.json") &&
       [ "$(grep -cE '^s[0-9]+ +[0-9]' "$work/eight-$count-$regress.out")" -eq "$count" ]; then
      pass "${count}_scenarios_in_8_shards_should_merge_to_the_table_and_results_of_the_whole"
    else
      fail "${count}_scenarios_in_8_shards_should_merge_to_the_table_and_results_of_the_whole"
      diff "$work/whole-$count-$regress.out" "$work/eight-$count-$regress.out" | head -n 5
    fi
    if [ "$regress" -gt 0 ]; then
      name=$(printf 's%05d' "$regress")
      if grep -E "^$name .*regress" "$work/eight-$count-$regress.out" >/dev/null; then
        pass "${count}_scenarios_should_name_the_one_that_regressed"
      else
        fail "${count}_scenarios_should_name_the_one_that_regressed ($name)"
        grep -E "^$name " "$work/eight-$count-$regress.out"
      fi
    fi
    # Bounds far above what this takes (a 10,000-scenario merge: about 2 s and 190 MiB).
    if [ "$peak" -lt $((memory_bound * 1024)) ] && awk -v s="$seconds" 'BEGIN { exit !(s < 120) }'; then
      pass "${count}_scenarios_should_merge_within_120_s_and_${memory_bound}_MiB"
    else
      fail "${count}_scenarios_should_merge_within_120_s_and_${memory_bound}_MiB ($seconds s, $peak KiB)"
    fi
  done
done

# A committed baseline far over the 1 MiB gate once read of git's output: read whole from the
# branch, compared, a pass. (10,000 synthetic scenarios make about 7 MB.)
repo="$work/repo"
mkdir -p "$repo/baselines"
cp "$work/10000-0/baseline.json" "$repo/baselines/main.json"
git -C "$repo" init -q -b main && git -C "$repo" add baselines &&
  git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m baseline
size=$(stat -c %s "$repo/baselines/main.json")
(cd "$repo" && "$gate" merge --baseline=main --json "$work/git.json" --raw-dir "$work/raw" \
  "$work/10000-0"/shard-*-of-8.json >"$work/git.out" 2>"$work/git.err")
code=$?
if [ "$size" -gt $((4 * 1024 * 1024)) ] && [ "$code" -eq 0 ] &&
   grep -q 'baseline: baselines/main.json at refs/heads/main' "$work/git.err" "$work/git.out"; then
  pass "a_committed_baseline_of_${size}_bytes_should_be_read_whole_from_git"
else
  fail "a_committed_baseline_of_${size}_bytes_should_be_read_whole_from_git: exit $code: $(head -n 3 "$work/git.err")"
fi

finish
