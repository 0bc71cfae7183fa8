#!/usr/bin/env bash
# N the program cannot guess: a change whose scenario does the cheap old work only when the
# delivery count is one gate uses by default (1, N and 2N of the usual --messages) passes at those
# counts and fails (exit 1) with --vary-n, which draws each scenario's N above --messages with the
# head commit as the seed. An honest tree's region figures do not move (they are slopes), and a
# rerun of the same commit draws the same N, recorded in results.json.
# Usage: vary_n.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"
base=$(git -C "$repo" rev-parse main)

# drawn FILE: "name=N" for each scenario of results FILE.
drawn() { tr -d ' \t\n' <"$1" | grep -oE '"name":"[a-z_]+","messages":[0-9]+' | sed 's/"name":"//; s/","messages":/=/'; }

# The region's figures of an honest tree do not move with N, but for the one entry into the region
# each N carries (docs/design.md rule 10): E instructions over N (E = 34 with GCC 12, 37 with clang
# 14). A message's own instructions are a whole number, so the baseline's figure at N = 200 is
# that number and E / 200, and the head's at its drawn N that number and E / N.
# at_drawn_n SCENARIO: the head's figure the baseline's row and the drawn N predict.
at_drawn_n() {
  local n
  n=$(drawn "$work/honest.json" | sed -n "s/^$1=//p")
  awk -v name="$1" -v n="${n:-0}" -v base_n="$messages" '$1 == name && n > base_n {
    whole = int($3); entry = ($3 - whole) * base_n
    printf "%.3f", whole + int(entry + 0.5) / n; exit }' "$out"
}
run_gate "$repo" --baseline=main --base-commit "$base" --vary-n --json "$work/honest.json" -v
# The whole process is compared across two N too: its drains' slope is linear, and its exit is
# held to the baseline's grown with N (a teardown that frees every message grows with them).
check_run "an_honest_tree_should_pass_with_vary_n" 0 \
  "!regressed" "!not compared" "^pass: 2 scenarios within their limits\$"
if [ "$(tr -d ' \t\n' <"$work/honest.json" | grep -oE '"process_instructions":\{"head":[0-9.]+,"baseline":[0-9.]+' | wc -l)" -eq 2 ]; then
  pass "an_honest_tree_s_whole_process_should_be_compared_with_vary_n"
else
  fail "an_honest_tree_s_whole_process_should_be_compared_with_vary_n"
fi
work_figure=$(at_drawn_n work) steady_figure=$(at_drawn_n steady)
if [ -n "$work_figure" ] && grep -qE "^work +$(regex_escape "$work_figure") " "$out" &&
  [ -n "$steady_figure" ] && grep -qE "^steady +$(regex_escape "$steady_figure") " "$out" &&
  grep -qE "each its own N from $((messages + 1)) to $((2 * messages)) \(seed ${base:0:12}\)" "$err"; then
  pass "an_honest_tree_s_region_figures_should_not_notice_vary_n ($work_figure, $steady_figure)"
else
  fail "an_honest_tree_s_region_figures_should_not_notice_vary_n (exit $code):" \
    "work '$work_figure', steady '$steady_figure' expected"
  show "$out"
fi
first=$(drawn "$work/honest.json")
run_gate "$repo" --baseline=main --base-commit "$base" --vary-n --json "$work/again.json"
if [ -n "$first" ] && [ "$first" = "$(drawn "$work/again.json")" ] &&
  tr -d ' \t\n' <"$work/again.json" | grep -q "\"vary_n\":{\"seed\":\"$base\"" &&
  ! drawn "$work/again.json" | grep -q "=$messages\$"; then
  pass "a_rerun_should_draw_the_same_n_and_record_it"
else
  fail "a_rerun_should_draw_the_same_n_and_record_it: '$first' then '$(drawn "$work/again.json")'"
fi

# The change: 3 % dearer per message, except at the delivery counts gate is known to use.
dearer known_counts
cat >>"$repo/scenarios/work.c" <<'C'

#include <stdlib.h>

static int known_count;

__attribute__((constructor)) static void read_count(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[argc - 1]) : 0;

	known_count = count == 1 || count == 200 || count == 400 || count == 1000 || count == 2000;
}
C
sed -i 's|COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));|COSTGATE_KEEP(work_compute(body, length, known_count ? 2000 : WORK_ITERATIONS));|' \
  "$repo/scenarios/work.c"
sed -i 's|^static int handle(|static int known_count;\n\nstatic int handle(|' "$repo/scenarios/work.c"
sed -i '0,/^static int known_count;$/!{/^static int known_count;$/d}' "$repo/scenarios/work.c"
{ grep -q 'known_count ? 2000' "$repo/scenarios/work.c" && commit "$repo" "cheap at known counts" &&
  build "$repo"; } || setup_fail "cannot build the change"

run_gate "$repo" --baseline=main --base-commit "$base" -s work
check_run "work_skipped_at_the_known_counts_passes_at_those_counts" 0 \
  "^pass: 1 scenario within its limits"
run_gate "$repo" --baseline=main --base-commit "$base" -s work --vary-n
check_run "vary_n_should_catch_work_skipped_at_the_known_counts" 1 "^fail: 1 regressed \(work\)\$"

finish
