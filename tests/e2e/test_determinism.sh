#!/usr/bin/env bash
# Counts repeat to the digit (docs/design.md rules 5 and 6): two runs of gate give byte-identical
# "code" sections of results.json, and a third run with a 10 KB variable in gate's environment,
# started from another working directory with other output paths, gives the same section too.
# Usage: test_determinism.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
# Absolute: the cases run from a temporary directory.
setup_gate
selection=(--scenario consume_json --scenario consume_raw --messages 1000 --quiet)

tmp=$(temp_dir determinism) || exit 2
mkdir -p "$tmp/first" "$tmp/second" "$tmp/elsewhere/with a space/deeper"

# code_section FILE: the "code" array of a results.json, from its key to the next top-level key.
code_section() {
  awk '/^\t"code":/ { inside = 1 } /^\t"[a-z]/ && !/^\t"code":/ { inside = 0 } inside' "$1"
}

# measure DIR: runs gate from DIR (the current directory) with outputs in DIR.
measure() {
  "$gate" --build-dir "$build" "${selection[@]}" --json "$1/results.json" --raw-dir "$1/raw" \
    >"$1/stdout" 2>"$1/stderr"
}

status=0
(cd "$tmp/first" && measure "$tmp/first") || status=$?
(cd "$tmp/second" && measure "$tmp/second") || status=$?
if [ "$status" -eq 0 ]; then
  pass "two_runs_should_pass"
else
  fail "two_runs_should_pass: exit $status: $(cat "$tmp/first/stderr" "$tmp/second/stderr")"
fi

code_section "$tmp/first/results.json" >"$tmp/first/code"
code_section "$tmp/second/results.json" >"$tmp/second/code"
names=$(awk '/^\t\t\t"name":[ \t]*"(consume_json|consume_raw)",/ { n++ } END { print n + 0 }' \
  "$tmp/first/code")
counts=$(awk '/^\t\t\t\t"instructions":[ \t]*\[[0-9]/ { n++ } END { print n + 0 }' "$tmp/first/code")
if [ "$names" -ne 2 ] || [ "$counts" -ne 2 ]; then
  fail "code_section_should_hold_both_scenarios: $names names in $(wc -l <"$tmp/first/code") lines"
else
  pass "code_section_should_hold_both_scenarios"
fi
if difference=$(diff -u "$tmp/first/code" "$tmp/second/code"); then
  pass "two_runs_should_write_byte_identical_code_sections"
else
  fail "two_runs_should_write_byte_identical_code_sections: $difference"
fi
if diff -q "$tmp/first/stdout" "$tmp/second/stdout" >/dev/null; then
  pass "two_runs_should_print_the_same_table"
else
  fail "two_runs_should_print_the_same_table: $(diff -u "$tmp/first/stdout" "$tmp/second/stdout")"
fi

# A 10 KB variable and another directory must not reach the measured program.
third="$tmp/elsewhere/with a space/deeper"
padding=$(head -c 10240 /dev/zero | tr '\0' x)
status=0
(cd "$third" && COSTGATE_TEST_PADDING=$padding measure "$third") || status=$?
if [ "$status" -eq 0 ]; then
  code_section "$third/results.json" >"$third/code"
  if difference=$(diff -u "$tmp/first/code" "$third/code"); then
    pass "environment_and_working_directory_should_not_change_the_counts"
  else
    fail "environment_and_working_directory_should_not_change_the_counts: $difference"
  fi
else
  fail "environment_and_working_directory_should_not_change_the_counts: exit $status: $(cat "$third/stderr")"
fi

finish
