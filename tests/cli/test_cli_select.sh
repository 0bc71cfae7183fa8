#!/usr/bin/env bash
# gate --scenario with a glob, under real valgrind at N = 2 (the smallest N gate takes): exactly
# the matching scenarios are measured, tabled, written to results.json and to the raw dir.
# Usage: test_cli_select.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
# Absolute: the cases run from a temporary directory.
setup_gate

tmp=$(temp_dir cli-select) || exit 2
cd "$tmp" || exit 2

# The scenarios the build has that the glob matches, sorted as gate sorts its rows.
pattern='consume_*'
expected=""
while read -r name; do
  # shellcheck disable=SC2053 # the pattern is meant as a glob
  [[ $name == $pattern ]] && expected="$expected $name"
done < <(sed -n 's/^scenario \([^ ]*\) .*/\1/p' "$build/scenarios/manifest.txt" | sort)
expected=${expected# }

out=$tmp/stdout err=$tmp/stderr
"$gate" --build-dir "$build" --scenario "$pattern" --messages 10 --json "$tmp/results.json" \
  --raw-dir "$tmp/raw" --quiet >"$out" 2>"$err"
code=$?
check_run glob_should_measure_and_pass 0

# Table rows: the lines after the header up to the first that is not a row of the table.
rows=$(awk 'NR == 1 { next } NF < 8 || $1 ~ /:$/ { exit } { print $1 }' "$out" | xargs)
if [ -z "$expected" ]; then
  fail "glob_should_table_only_the_matching_scenarios: no scenario of the build matches '$pattern'"
elif [ "$rows" = "$expected" ]; then
  pass "glob_should_table_only_the_matching_scenarios ($rows)"
else
  fail "glob_should_table_only_the_matching_scenarios: rows '$rows', expected '$expected'"
fi

# results.json: the code entries are the objects whose "name" is three tabs in.
code_names=$(awk '/^\t"code":/ { inside = 1 } /^\t"[a-z]/ && !/^\t"code":/ { inside = 0 }
  inside && /^\t\t\t"name":/ { print }' "$tmp/results.json" | sed 's/.*"name":[[:space:]]*"\([^"]*\)".*/\1/' | xargs)
if [ "$code_names" = "$expected" ]; then
  pass "glob_should_write_only_the_matching_scenarios_to_results_json"
else
  fail "glob_should_write_only_the_matching_scenarios_to_results_json: '$code_names', expected '$expected'"
fi

# The raw dir: of each, callgrind's parts (the start, to 1, 10 and 20 deliveries, and the parts
# outside the region before each) and a DHAT
# file at 1, 10 and 20, and each run's end, nothing else.
want=""
for name in $expected; do
  for part in start 0-1 1-10 10-20 20.end outside-start outside-0-1 outside-1-10 outside-10-20; do
    want="$want callgrind.out.$name.$part"
  done
  for count in 1 10 20 20.end; do want="$want dhat.out.$name.$count"; done
done
have=$(cd "$tmp/raw" 2>/dev/null && find . -name '*.out.*' | sed 's|^\./||' | sort | xargs)
want=$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort | xargs)
if [ "$have" = "$want" ]; then
  pass "glob_should_keep_raw_files_of_only_the_matching_scenarios"
else
  fail "glob_should_keep_raw_files_of_only_the_matching_scenarios: have '$have', expected '$want'"
fi

finish
