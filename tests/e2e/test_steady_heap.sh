#!/usr/bin/env bash
# A steady heap: roundtrip_json (cJSON parse, add a field, print unformatted) measured at N = 250,
# 1000 and 4000 must give per-message figures within 0.5 % of each other and linearity within
# 1 % (issue 13's acceptance), and within 0.01 % with the malloc pin (without it, glibc malloc's
# trim and dynamic mmap threshold moved this scenario by 0.32 % between N = 250 and 1000). At each
# N, gate's figures must equal the arithmetic on callgrind_annotate's totals of the kept files
# (the program's own: the total less the inclusive cost of malloc, realloc and free),
# and each sealed run must carry the malloc pin in GLIBC_TUNABLES.
# Usage: test_steady_heap.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2")
scenario=roundtrip_json

tmp=$(temp_dir steady-heap) || exit 2
cd "$tmp" || exit 2


# json_number FILE KEY: the first number after "KEY": in a results.json.
json_number() {
  sed -n "s/.*\"$2\":[[:space:]]*\\([-0-9.e+]*\\).*/\\1/p" "$1" | head -n 1
}

figures=()
for messages in 250 1000 4000; do
  out=$tmp/$messages
  mkdir -p "$out"
  "$gate" --build-dir "$build" --scenario "$scenario" --messages "$messages" -v \
    --json "$out/results.json" --raw-dir "$out/raw" >"$out/stdout" 2>"$out/stderr"
  code=$?
  if [ "$code" -ne 0 ]; then
    fail "gate_should_pass_at_n_$messages: exit $code: $(cat "$out/stderr" "$out/stdout")"
    continue
  fi
  runs=$(grep -c '^gate: run: ' "$out/stderr")
  pinned=$(grep '^gate: run: ' "$out/stderr" |
    grep -c "GLIBC_TUNABLES=glibc.cpu.hwcaps=[^']*:glibc.malloc.trim_threshold=[0-9]*:glibc.malloc.top_pad=[0-9]*:glibc.malloc.mmap_threshold=[0-9]*'")
  # Two valgrind processes per scenario: one under callgrind, one under DHAT (rule 10).
  if [ "$runs" -eq 2 ] && [ "$pinned" -eq 2 ]; then
    pass "every_run_at_n_${messages}_should_carry_the_malloc_pin"
  else
    fail "every_run_at_n_${messages}_should_carry_the_malloc_pin: $pinned of $runs runs"
  fi
  per_message=$(awk -v name="$scenario" '$1 == name { print $2; exit }' "$out/stdout")
  at_n=$(callgrind_sum program_own "$out/raw" "$scenario" "$messages" "$messages")
  at_2n=$(callgrind_sum program_own "$out/raw" "$scenario" "$((2 * messages))" "$messages")
  annotated=$(awk -v n="$at_n" -v twice="$at_2n" -v m="$messages" \
    'BEGIN { if (n == "" || twice == "") print "none"; else printf "%.3f", (twice - n) / m }')
  if [ -n "$per_message" ] && [ "$per_message" = "$annotated" ]; then
    pass "per_message_at_n_${messages}_should_equal_the_annotated_slope ($per_message)"
  else
    fail "per_message_at_n_${messages}_should_equal_the_annotated_slope: gate '$per_message', annotate ($at_2n - $at_n) / $messages = $annotated"
  fi
  linearity=$(json_number "$out/results.json" instructions_percent)
  if [ -n "$linearity" ] && awk -v l="$linearity" 'BEGIN { exit !(l <= 1) }'; then
    pass "linearity_at_n_${messages}_should_be_within_1_percent ($linearity %)"
  else
    fail "linearity_at_n_${messages}_should_be_within_1_percent: '$linearity'"
  fi
  if grep -q '"malloc_pin":[[:space:]]*"glibc.malloc.trim_threshold=' "$out/results.json"; then
    pass "results_at_n_${messages}_should_record_the_malloc_pin"
  else
    fail "results_at_n_${messages}_should_record_the_malloc_pin"
  fi
  figures+=("$per_message")
done

if [ "${#figures[@]}" -eq 3 ]; then
  spread=$(printf '%s\n' "${figures[@]}" |
    awk 'NR == 1 { low = high = $1 } { if ($1 < low) low = $1; if ($1 > high) high = $1 }
      END { printf "%.4f", (high - low) / low * 100 }')
  if awk -v s="$spread" 'BEGIN { exit !(s <= 0.5) }'; then
    pass "per_message_figures_should_be_within_half_a_percent (${figures[*]}: $spread %)"
  else
    fail "per_message_figures_should_be_within_half_a_percent: ${figures[*]}: $spread %"
  fi
  if awk -v s="$spread" 'BEGIN { exit !(s <= 0.01) }'; then
    pass "per_message_figures_should_be_within_a_hundredth_of_a_percent_with_the_pin ($spread %)"
  else
    fail "per_message_figures_should_be_within_a_hundredth_of_a_percent_with_the_pin: $spread %"
  fi
else
  fail "per_message_figures_should_be_measured_at_three_counts: ${figures[*]}"
fi

finish
