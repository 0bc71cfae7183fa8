#!/usr/bin/env bash
# Shards and their merge: the union of two shards is the single run, byte for byte in the code
# section, with the same verdict and Markdown; overlapping, missing and mismatched shards are
# refused with exit 2.
# Usage: test_shards.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
work=$(temp_dir shards) || exit 2

# The code section of a results document: from "code" to the costgate block.
code_section() { sed -n '/^\t"code":/,/^\t"costgate":/p' "$1"; }

# Three scenarios keep this quick; the split is by name, so 2 shards get 2 and 1 of them.
selection=(-s consume_raw -s reply -s decode_only)
run() { "$gate" -q --build-dir "$build" --messages 200 "${selection[@]}" "$@"; }

run --json "$work/single.json" --raw-dir "$work/raw" --markdown "$work/single.md" >"$work/single.out"
single_code=$?
run --shard 1/2 --json "$work/s1.json" --raw-dir "$work/raw" >/dev/null
run --shard 2/2 --json "$work/s2.json" --raw-dir "$work/raw" >/dev/null

# Reversed order on the command line: a merge does not depend on it.
"$gate" merge --json "$work/merged.json" --markdown "$work/merged.md" --raw-dir "$work/raw" \
  "$work/s2.json" "$work/s1.json" >"$work/merged.out"
merged_code=$?

# A comparison of two empty sections proves nothing: each must hold the three scenarios.
shard_names() { grep -cP '^\t\t\t"name":' <(code_section "$1"); }
if [ "$(shard_names "$work/single.json")" -eq 3 ] &&
  cmp -s <(code_section "$work/single.json") <(code_section "$work/merged.json"); then
  pass "merge_should_equal_a_single_run_in_the_code_section"
else
  fail "merge_should_equal_a_single_run_in_the_code_section"
  diff <(code_section "$work/single.json") <(code_section "$work/merged.json") | head -n 20
fi
if [ "$single_code" -eq "$merged_code" ] && cmp -s "$work/single.out" "$work/merged.out"; then
  pass "merge_should_print_the_same_table_and_exit_code ($merged_code)"
else
  fail "merge_should_print_the_same_table_and_exit_code (single $single_code, merged $merged_code)"
fi
# The reproduce line names the options of the run, so compare everything above it.
if cmp -s <(sed '/^Reproduce locally/d' "$work/single.md") <(sed '/^Reproduce locally/d' "$work/merged.md"); then
  pass "merge_should_write_the_same_markdown"
else
  fail "merge_should_write_the_same_markdown"
fi

one=$(shard_names "$work/s1.json") two=$(shard_names "$work/s2.json")
if [ "$one" -ge 1 ] && [ "$two" -ge 1 ] && [ $((one + two)) -eq 3 ]; then
  pass "shards_should_split_the_selection_without_overlap ($one + $two)"
else
  fail "shards_should_split_the_selection_without_overlap ($one + $two)"
fi

# Same K/M, another order of the manifest: the same scenarios.
mkdir -p "$work/shuffled/scenarios"
{ grep -v '^scenario ' "$build/scenarios/manifest.txt"; grep '^scenario ' "$build/scenarios/manifest.txt" | sort -r; } \
  >"$work/shuffled/scenarios/manifest.txt"
"$gate" -q --build-dir "$work/shuffled" --messages 200 "${selection[@]}" --shard 1/2 \
  --json "$work/s1-shuffled.json" --raw-dir "$work/raw-shuffled" >/dev/null
if [ "$(shard_names "$work/s1.json")" -ge 1 ] &&
  cmp -s <(code_section "$work/s1.json") <(code_section "$work/s1-shuffled.json"); then
  pass "a_shard_should_not_depend_on_the_manifest_order"
else
  fail "a_shard_should_not_depend_on_the_manifest_order"
fi

# refused CASE PATTERN FILE...: gate merge exits 2 with a message matching PATTERN.
refused() {
  local name=$1 pattern=$2 stderr code
  shift 2
  stderr=$("$gate" merge --json "$work/refused.json" --raw-dir "$work/raw" "$@" 2>&1 >/dev/null)
  code=$?
  if [ "$code" -eq 2 ] && grep -qE -- "$pattern" <<<"$stderr"; then
    pass "$name"
  else
    fail "$name: exit $code, stderr: $stderr"
  fi
}
refused "merge_should_refuse_a_shard_given_twice" "shard 1/2 is given twice" "$work/s1.json" "$work/s1.json"
refused "merge_should_refuse_a_missing_shard" "shard 2/2 is missing" "$work/s1.json"
refused "merge_should_refuse_a_result_that_is_not_a_shard" "not a shard" "$work/single.json" "$work/s2.json"
sed 's/"valgrind":\t"[^"]*"/"valgrind":\t"0.0.1"/' "$work/s2.json" >"$work/s2-other-valgrind.json"
refused "merge_should_refuse_mismatched_fingerprints" "mismatched fingerprints.*valgrind" \
  "$work/s1.json" "$work/s2-other-valgrind.json"
# A shard that claims another's scenario: rename one of s1's into one of s2's.
first_of_two=$(code_section "$work/s2.json" | sed -n "s/^\t\t\t\"name\":\t\"\(.*\)\",$/\1/p" | head -n 1)
first_of_one=$(code_section "$work/s1.json" | sed -n "s/^\t\t\t\"name\":\t\"\(.*\)\",$/\1/p" | head -n 1)
sed -e "s/\"name\":\t\"$first_of_one\"/\"name\":\t\"$first_of_two\"/" \
  -e "s/^\t\t\t\"$first_of_one\":\t\[/\t\t\t\"$first_of_two\":\t[/" \
  -e "s/^\t\t\t\"$first_of_one\":\t{/\t\t\t\"$first_of_two\":\t{/" "$work/s1.json" >"$work/s1-overlap.json"
refused "merge_should_refuse_overlapping_shards" "'$first_of_two' is in both|no shard has" \
  "$work/s1-overlap.json" "$work/s2.json"
if "$gate" -q --shard 3/2 >/dev/null 2>"$work/err"; then
  fail "shard_should_refuse_3_of_2"
elif [ $? -eq 2 ] && grep -q "K/M" "$work/err"; then
  pass "shard_should_refuse_3_of_2"
else
  fail "shard_should_refuse_3_of_2: $(cat "$work/err")"
fi

finish
