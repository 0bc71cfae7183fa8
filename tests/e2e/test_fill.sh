#!/usr/bin/env bash
# Work outside the region, in the fill: tests/scenarios/body_work, whose body generator encodes
# each message with encode_block, built as the baseline (1 round) and as heads.
# - 40 rounds: the region is unchanged and the whole process fails outside it (exit 1); gate says
#   the fill before each drain costs X instructions per message against Y, each the callgrind
#   run's outside part before N..2N divided by N, to the digit, and names encode_block under it;
#   the verdict's JSON says the same;
# - against a baseline saved before the fill was measured, the head's fill alone, said so;
# - the harness's own functions (main, the queue, the region's entry, what is inlined into them)
#   are in results.json flagged "harness", never in the fill's functions, and never a row of the
#   project's functions, even when the harness itself is built otherwise (-O0) and costs more:
#   gate then says the harness accounts for the change.
# Usage: test_fill.sh GATE BUILD_DIR SOURCE_DIR
# shellcheck source=tests/lib.sh disable=SC2016 # the conditions given to eval expand when it runs them
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") source=$(realpath -- "$3")
tmp=$(temp_dir fill) || exit 2
messages=200

# variant DIR ROUNDS [HARNESS_FLAG]: body_work built with ROUNDS, linked with the harness
# compiled here from its sources (at -O2, or HARNESS_FLAG), listed in DIR's manifest.
variant() {
  local dir=$tmp/$1 level=${3:--O2}
  mkdir -p "$dir/harness"
  gcc "$level" -g -std=gnu11 -I"$source/include" -I"$source/scenarios" -c \
    "$source/scenarios/harness.c" -o "$dir/harness/harness.o" &&
    gcc "$level" -g -std=gnu11 -I"$source/include" -I"$source/scenarios" -c \
      "$source/scenarios/queue.c" -o "$dir/harness/queue.o" &&
    gcc -O2 -g -std=gnu11 -I"$source/include" -DBODY_ROUNDS="$2" \
      "$source/tests/scenarios/body_work.c" "$dir/harness/harness.o" "$dir/harness/queue.o" \
      -o "$dir/body_work" &&
    manifest "$dir" "body_work=$dir/body_work"
}

run_gate() { # run_gate DIR [options...]: exit code in $status
  local dir=$tmp/$1
  shift
  "$gate" --build-dir "$dir" --messages "$messages" --quiet --no-wall-check \
    --json "$dir/results.json" --markdown "$dir/summary.md" --raw-dir "$dir/raw" "$@" \
    >"$dir/stdout" 2>"$dir/stderr"
  status=$?
}

# fill_total DIR: the callgrind run's outside part before N..2N, its total, divided by N.
fill_per_message() {
  awk -v n="$messages" '/^totals:/ { printf "%.3f", $2 / n }' \
    "$tmp/$1/raw/callgrind.out.body_work.outside-$messages-$((2 * messages))"
}

if ! variant base 1 || ! variant heavy 40 || ! variant slow_harness 1 -O0; then
  setup_fail "cannot build body_work"
fi

run_gate base
check "the baseline measures (exit $status)" test "$status" = 0
[ "$status" = 0 ] || show "$tmp/base/stderr"

run_gate heavy --baseline-file "$tmp/base/results.json"
row="[r for r in d['costgate']['verdict']['rows'] if r['name'] == 'body_work'][0]"
check "work in the body generator fails outside the region only (exit $status)" \
  test "$status:$(json_value "$tmp/heavy/results.json" "${row}['breaches']")" = "1:['process_instructions']"
head_fill=$(fill_per_message heavy) base_fill=$(fill_per_message base)
line=$(grep "^body_work: the fill before each drain" "$tmp/heavy/stdout")
check "it says the fill costs $head_fill against $base_fill a message, callgrind's part / N" \
  eval '[[ $line == "body_work: the fill before each drain, outside the region (the scenario'"'"'s body generator making each message), costs $head_fill instructions per message against $base_fill in the baseline ("* ]]'
share=$(sed -n 's/.*: \([0-9.]*\) % of the change outside the region$/\1/p' <<<"$line")
check "and that the fill is the change outside the region ($share %)" \
  awk -v s="$share" 'BEGIN { exit !(s >= 95 && s <= 105) }'
first=$(grep -A2 "^body_work: project functions in the fill whose" "$tmp/heavy/stdout" | sed -n 3p)
check "its first function is encode_block, under the body generator: '$first'" \
  eval '[[ $first =~ ^\ +[0-9.]+\ +[0-9.]+\ +\+[0-9.]+\ \ encode_block$ ]]'
check "no project function of the region is blamed" \
  eval '! grep -q "^body_work: project functions whose instructions" "$tmp/heavy/stdout"'
check "the verdict's JSON holds the fill and its functions" \
  test "$(json_value "$tmp/heavy/results.json" \
    "('%.3f' % ${row}['attribution']['fill']['head'], ${row}['attribution']['fill']['functions'][0]['name'])")" = \
  "('$head_fill', 'encode_block')"
check "so does the Markdown" grep -q "^| \`encode_block\` | " "$tmp/heavy/summary.md"

# A baseline written before the fill was measured: the head's fill alone, said so.
json_edit "$tmp/base/results.json" "$tmp/older.json" '
for entry in document["code"]:
    entry.pop("fill_per_message", None)
    entry.pop("fill_functions", None)'
run_gate heavy --baseline-file "$tmp/older.json"
check "against an older baseline the head's fill is given alone (exit $status)" \
  grep -q "^body_work: the fill before each drain, outside the region (the scenario's body generator making each message), costs $head_fill instructions per message; the baseline was saved before gate measured it$" \
  "$tmp/heavy/stdout"

# The harness's own code is never the project's.
harness="[f['name'] for f in d['code'][0]['functions'] if f.get('harness')]"
check "results.json flags the harness's functions" \
  test "$(json_value "$tmp/base/results.json" "'costgate_measured_region' in $harness and all(f.get('harness') for f in d['code'][0]['functions'] if f['name'].startswith('costgate_'))")" = True
# The fill runs the body generator and the harness's own queueing (its fill, grow, publish):
# only the former's functions are the project's.
own_fill="sorted(set(f['name'] for f in d['code'][0]['fill_functions']) - {'encode_block', 'body_make'})"
check "and keeps them out of the fill's functions" \
  test "$(json_value "$tmp/heavy/results.json" "$own_fill")" = "[]"
run_gate slow_harness --baseline-file "$tmp/base/results.json"
check "also where the harness is built at -O0, its queueing out of line" \
  test "$(json_value "$tmp/slow_harness/results.json" "$own_fill")" = "[]"
check "a harness built at -O0 costs more in the region (exit $status)" \
  test "$(json_value "$tmp/slow_harness/results.json" "${row}['instructions']['change_percent'] > 2")" = True
# The harness's functions on either side: those of the baseline (inlined into the region's
# entry at -O2) and those of the head (out of line at -O0).
both=$(json_value "$tmp/base/results.json" "$harness")
both="($both + $harness)"
check "and none of its functions is a row of the project's" \
  test "$(json_value "$tmp/slow_harness/results.json" "len($both) > 6 and [f['name'] for f in ${row}['attribution']['functions'] if f['name'] in $both or f['name'].startswith('costgate_')]")" = "[]"
total=$(json_value "$tmp/slow_harness/results.json" "'%+.3f' % (${row}['instructions']['head'] - ${row}['instructions']['baseline'])")
check "the harness's own change is said as such: $total of $total" \
  grep -q "^body_work: costgate's harness compiled into the program (its queue and the region's entry) accounts for $total instructions per message of the change: not the project's code$" \
  "$tmp/slow_harness/stdout"
check "nor of the lines" \
  test "$(json_value "$tmp/slow_harness/results.json" "[l['function'] for l in ${row}['attribution']['lines'] if l['function'] in $both]")" = "[]"
grep -q "^  .*costgate_\|drain_single" "$tmp/slow_harness/stdout" && show "$tmp/slow_harness/stdout"

finish
