#!/usr/bin/env bash
# The whole suite under real valgrind at N = 1000, then exactness: for consume_json, gate's
# figures must equal what an independent reading of the raw files it kept gives
# (callgrind_annotate's PROGRAM TOTALS less the inclusive cost of malloc and free for the
# program's own instructions, and the two added up for the region's; an awk count of DHAT's
# blocks under the region frame for allocations), with the slope rule (docs/design.md rule 1)
# applied here in awk.
# Usage: test_suite.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2
# Absolute: the cases run from a temporary directory.
setup_gate
messages=1000
exact=consume_json

tmp=$(temp_dir suite) || exit 2
cd "$tmp" || exit 2
raw=$tmp/raw

# field NAME COLUMN: a cell of the table row of NAME (plain layout: scenario, instr/msg,
# alloc/msg, bytes/msg, cold instr, cold alloc, floors msg/cold, state); a COLUMN of -K counts
# from the end of the row (the state is -0; the metric columns between allocations and the cold
# figures vary).
field() {
  awk -v name="$1" -v column="$2" \
    '$1 == name { print (column < 0 || column == "-0") ? $(NF + column) : $column; exit }' "$tmp/stdout"
}

# check_figure NAME COLUMN EXPECTED HOW: passes NAME when the exact scenario's COLUMN of the table
# is EXPECTED, found here by HOW; else fails it, naming both.
check_figure() {
  local actual
  actual=$(field "$exact" "$2")
  if [ "$actual" = "$3" ]; then pass "$1 ($3)"; else fail "$1: gate $actual, $4"; fi
}

# slope AT_N AT_2N: a count per message by the slope rule, from its counts at N and 2N.
slope() { awk -v n="$1" -v twice="$2" -v m="$messages" 'BEGIN { printf "%.3f", (twice - n) / m }'; }

# results_counts KEY: the exact scenario's counts of KEY at 1, N and 2N in results.json ("A,B,C").
results_counts() {
  awk -v name="$exact" -v key="$1" '
    /^\t\t\t"name":/ { current = index($0, "\"" name "\"") > 0 }
    current && $0 ~ "^\t\t\t\t\"" key "\":[[:space:]]*\\[" { print; exit }' "$tmp/results.json" |
    sed 's/.*\[\(.*\)\].*/\1/; s/[[:space:]]//g'
}

# code_names FILE: the names of the entries of the "code" array of a results.json.
code_names() {
  awk '/^\t"code":/ { inside = 1 } /^\t"[a-z]/ && !/^\t"code":/ { inside = 0 }
    inside && /^\t\t\t"name":/ { print }' "$1" | sed 's/.*"name":[[:space:]]*"\([^"]*\)".*/\1/'
}


# region_blocks FILE REGION: blocks of every DHAT program point with a REGION frame on its stack.
# Two passes over the file: the frame table (after "ftbl") first, then the points' "tbk" and "fs".
region_blocks() {
  awk -v region="$2" '
    FNR == 1 { pass++ }
    pass == 1 && /^,"ftbl":/ { table = 1; index_ = 0; next }
    pass == 1 && table && /^ [\[,]"/ {
      if (index($0, ": " region " (") > 0) frames[index_] = 1
      index_++
    }
    pass == 2 && match($0, /"tbk":[0-9]+/) { blocks = substr($0, RSTART + 6, RLENGTH - 6) }
    pass == 2 && match($0, /"fs":\[[0-9,]*\]/) {
      count = split(substr($0, RSTART + 6, RLENGTH - 7), ids, ",")
      for (i = 1; i <= count; i++)
        if (ids[i] in frames) { total += blocks; break }
      points++
    }
    END {
      if (length(frames) == 0 || points == 0) { print "unreadable"; exit }
      print total + 0
    }' "$1" "$1"
}

# --- the whole suite
"$gate" --build-dir "$build" --messages "$messages" --json "$tmp/results.json" --raw-dir "$raw" \
  --quiet >"$tmp/stdout" 2>"$tmp/stderr"
code=$?
if [ "$code" -eq 0 ]; then
  pass "suite_should_pass_at_n_1000"
else
  fail "suite_should_pass_at_n_1000: exit $code: $(cat "$tmp/stderr" "$tmp/stdout")"
fi

expected=$(sed -n 's/^scenario \([^ ]*\) .*/\1/p' "$build/scenarios/manifest.txt" | sort | xargs)
rows=$(awk 'NR == 1 { next } NF < 8 || $1 ~ /:$/ { exit } { print $1 }' "$tmp/stdout" | xargs)
count=$(wc -w <<<"$rows")
if [ "$rows" = "$expected" ] && [ "$count" -eq 7 ]; then
  pass "suite_should_table_seven_sorted_rows ($rows)"
else
  fail "suite_should_table_seven_sorted_rows: $count rows '$rows', manifest has '$expected'"
fi

not_ok=$(awk 'NR == 1 { next } NF < 8 || $1 ~ /:$/ { exit } $NF != "ok" { print $1 "=" $NF }' \
  "$tmp/stdout" | xargs)
if [ -z "$not_ok" ] && [ -n "$rows" ]; then
  pass "suite_should_be_ok_in_every_row"
else
  fail "suite_should_be_ok_in_every_row: $not_ok"
fi

names=$(code_names "$tmp/results.json" | xargs)
if [ -n "$names" ] && [ "$names" = "$expected" ]; then
  pass "suite_should_write_a_code_array_with_every_scenario"
else
  fail "suite_should_write_a_code_array_with_every_scenario: '$names', expected '$expected'"
fi

if [ "$(tail -n 1 "$tmp/stdout")" = "pass: $count scenarios within their limits" ]; then
  pass "suite_should_end_with_a_pass_summary"
else
  fail "suite_should_end_with_a_pass_summary: $(tail -1 "$tmp/stdout")"
fi

# --- exactness on the kept raw files of one scenario
twice=$((2 * messages))
for run in 1 "$messages" "$twice"; do
  if [ ! -s "$raw/dhat.out.$exact.$run" ]; then
    fail "raw_files_should_be_kept: no dhat file of $exact at $run in $raw"
  fi
done
for part in start 0-1 "1-$messages" "$messages-$twice" "$twice.end"; do
  if [ ! -s "$raw/callgrind.out.$exact.$part" ]; then
    fail "raw_files_should_be_kept: no callgrind part $part of $exact in $raw"
  fi
done
# callgrind's parts added up by hand give the counts at 1, N and 2N.
cold=$(callgrind_sum program_own "$raw" "$exact" 1 "$messages")
at_n=$(callgrind_sum program_own "$raw" "$exact" "$messages" "$messages")
at_2n=$(callgrind_sum program_own "$raw" "$exact" "$twice" "$messages")
if [ -z "$cold" ] || [ -z "$at_n" ] || [ -z "$at_2n" ]; then
  fail "callgrind_annotate_should_read_the_raw_files: '$cold' '$at_n' '$at_2n'"
else
  per_message=$(slope "$at_n" "$at_2n")
  check_figure cold_instructions_should_equal_callgrind_annotate -3 "$cold" "annotate $cold"
  check_figure instructions_per_message_should_equal_the_annotated_slope 2 "$per_message" \
    "annotate ($at_2n - $at_n) / $messages = $per_message"
  counts=$(results_counts instructions)
  if [ "$counts" = "$cold,$at_n,$at_2n" ]; then
    pass "results_json_counts_should_equal_the_annotated_totals"
  else
    fail "results_json_counts_should_equal_the_annotated_totals: '$counts', annotate '$cold,$at_n,$at_2n'"
  fi
  # The program's and the allocator's add up to the region's, to the digit.
  allocator=$(results_counts allocator_instructions)
  totals=$(for run in 1 "$messages" "$twice"; do
      callgrind_sum program_total "$raw" "$exact" "$run" "$messages"
    done | paste -sd,)
  summed=$(paste -d' ' <(tr ',' '\n' <<<"$counts") <(tr ',' '\n' <<<"$allocator") |
    awk '{ print $1 + $2 }' | paste -sd,)
  if [ -n "$allocator" ] && [ "$summed" = "$totals" ]; then
    pass "program_and_allocator_should_add_up_to_the_region ($totals)"
  else
    fail "program_and_allocator_should_add_up_to_the_region: '$counts' + '$allocator', annotate '$totals'"
  fi
fi

region=$("$build/scenarios/$exact" --describe | sed -n 's/.*"region":[[:space:]]*"\([^"]*\)".*/\1/p')
floor=$("$build/scenarios/$exact" --describe |
  sed -n 's/.*"steady_allocations":[[:space:]]*\([0-9.]*\).*/\1/p')
cold_blocks=$(region_blocks "$raw/dhat.out.$exact.1" "${region:-costgate_measured_region}")
n_blocks=$(region_blocks "$raw/dhat.out.$exact.$messages" "${region:-costgate_measured_region}")
twice_blocks=$(region_blocks "$raw/dhat.out.$exact.$twice" "${region:-costgate_measured_region}")
if ! [[ $cold_blocks =~ ^[0-9]+$ && $n_blocks =~ ^[0-9]+$ && $twice_blocks =~ ^[0-9]+$ ]]; then
  fail "dhat_files_should_be_countable: '$cold_blocks' '$n_blocks' '$twice_blocks'"
else
  allocations=$(slope "$n_blocks" "$twice_blocks")
  check_figure cold_allocations_should_equal_the_blocks_under_the_region -2 "$cold_blocks" \
    "counted $cold_blocks"
  check_figure allocations_per_message_should_equal_the_counted_slope 3 "$allocations" \
    "counted ($twice_blocks - $n_blocks) / $messages = $allocations"
  # The count must not be vacuous: the scenario declares a non-zero floor that it meets exactly.
  if [ -n "$floor" ] && awk -v a="$allocations" -v f="$floor" 'BEGIN { exit !(f > 0 && a == f) }'; then
    pass "allocations_per_message_should_meet_the_declared_floor ($floor)"
  else
    fail "allocations_per_message_should_meet_the_declared_floor: counted $allocations, floor '$floor'"
  fi
fi

finish
