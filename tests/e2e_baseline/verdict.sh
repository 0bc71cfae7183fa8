#!/usr/bin/env bash
# The baseline verdict end to end: a real git repository of a small CMake project built with
# costgate's scenario support, measured by the real gate under valgrind. One repository, a
# branch per change: unchanged, 3 % and 1 % dearer per message, a branch that rewrites its own
# baseline, an accepted regression, different message counts, one more allocation per message.
# Usage: verdict.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/common.sh"

repo=$work/repo

# in_range VALUE LOW HIGH: LOW <= VALUE <= HIGH, as numbers.
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'; }

# dearer_work NAME ITERATIONS LOW HIGH: `work` at ITERATIONS steps a message, built and gated
# against main's baseline; sets $head, its figure per message, and $change, the percentage gate
# prints. Returns 0 when the change is between LOW and HIGH %; else fails NAME, for the build or
# for a change that is not the one the case is about, and returns 1.
dearer_work() {
  local name=$1
  head=
  if ! set_iterations "$repo" "$2" || ! build "$repo"; then
    fail "$name: cannot build the change"
    return 1
  fi
  run_gate "$repo" --baseline=main
  head=$(per_message work)
  change=$(percent "$head" "$base")
  if ! in_range "$change" "$3" "$4"; then
    fail "$name: the change is '$change' %, not between $3 and $4 % (fix K)"
    return 1
  fi
}

built_repo "$repo"

# main: measure, write baselines/main.json, commit it.
run_gate "$repo" --save-baseline main
base=$(per_message work)
if check_run "save_baseline_should_write_baselines_main_json" 0 "^work +[0-9]+\.[0-9]{3} " \
  "err:wrote the baseline baselines/main\.json" && [ -s "$repo/baselines/main.json" ]; then
  commit "$repo" "baseline of main"
else
  setup_fail "no baseline on main"
fi
base_re=$(regex_escape "$base")

# 1. An unchanged tree passes, each figure equal to the baseline's.
run_gate "$repo" --baseline=main
check_run "unchanged_tree_should_pass" 0 \
  "^work +$base_re +$base_re +\+0\.00 % .* ok\$" \
  "^baseline: baselines/main\.json at refs/heads/main \([0-9a-f]{12}\)\$" \
  "^pass: 2 scenarios within their limits\$"

# Head at 2N = 400 against a baseline at N = 200: compared per message, and said so. The head's
# figure differs in the second decimal: a slope carries one entry into the region per N
# (docs/design.md rule 10).
messages=400
run_gate "$repo" --baseline=main --scenario work
messages=200
check_run "different_message_counts_should_compare_per_message_and_say_so" 0 \
  "^work +[0-9]+\.[0-9]{3} +$base_re +[-+]0\.00 % " \
  "^note: head and baseline were measured with different message counts \(baseline N = 200\), both linear within 0\.5 %; per message figures are compared\$"

# 2a. About 1 % dearer per message: within the 2 % limit.
git -C "$repo" checkout -q -b one-percent main
if dearer_work one_percent_dearer_should_pass 2020 0.5 1.5; then
  check_run "one_percent_dearer_should_pass" 0 \
    "^work +$(regex_escape "$head") +$base_re +$(regex_escape "$change") % .* ok\$" \
    "^pass: 2 scenarios"
fi

# 2b. About 3 % dearer per message: a regression naming the scenario, both figures, the change.
git -C "$repo" checkout -q -- . && git -C "$repo" checkout -q -b three-percent main
if dearer_work three_percent_dearer_should_regress 2060 2.5 3.5; then
  check_run "three_percent_dearer_should_regress" 1 \
    "^work: $(regex_escape "$head") instructions per message against $base_re in the baseline: $(regex_escape "$change") %, above the 2 % limit\$" \
    "^work +$(regex_escape "$head") +$base_re +$(regex_escape "$change") % .* regressed: instructions\$" \
    "^steady .* ok\$" \
    "^fail: 1 regressed \(work\)\$"
  # Why: the function the change made dearer is the first row of the attribution.
  check_first_row attribution_should_name_the_function_that_got_dearer_first \
    "work: project functions whose instructions per message" '[[:space:]]work_compute$'
fi
head3=$head head3_re=$(regex_escape "$head")

# 4. The change rewrites its own baselines/main.json and commits it: main's copy still rules.
run_gate "$repo" --save-baseline main
if [ "$code" -ne 0 ] || git -C "$repo" diff --quiet main -- baselines/main.json; then
  fail "own_baseline_rewrite_should_still_regress: the branch did not rewrite baselines/main.json (exit $code)"
  show "$err"
else
  commit "$repo" "refresh the baseline with the change"
  run_gate "$repo" --baseline=main
  check_run "own_baseline_rewrite_should_still_regress" 1 \
    "^work: $head3_re instructions per message against $base_re in the baseline" \
    "^baseline: baselines/main\.json at refs/heads/main \($(git -C "$repo" rev-parse --short=12 main)\)\$" \
    "^fail: 1 regressed \(work\)\$"

  # The same with no local main, as in a clone: the baseline comes from origin/main.
  main_commit=$(git -C "$repo" rev-parse main)
  if git -C "$repo" update-ref refs/remotes/origin/main "$main_commit" &&
    git -C "$repo" branch -q -D main; then
    run_gate "$repo" --baseline=main --scenario work
    check_run "own_baseline_rewrite_should_still_regress_against_origin_main" 1 \
      "^work: $head3_re instructions per message against $base_re in the baseline" \
      "\(${main_commit:0:12}\)" \
      "^fail: 1 regressed \(work\)\$"
  else
    fail "own_baseline_rewrite_should_still_regress_against_origin_main: cannot move main to origin/main"
  fi
  git -C "$repo" branch -q main "$main_commit"
  git -C "$repo" update-ref -d refs/remotes/origin/main
fi

# 5. An acceptance entry for the scenario at the head's value: accepted, with its reason.
reason="the new checksum is worth 3 percent"
value=$(awk -v value="$head3" 'BEGIN { printf "%.15g", value }')
mkdir -p "$repo/baselines"
printf '{"accepted":[{"scenario":"work","metric":"instructions","value":%s,"reason":"%s"}]}\n' \
  "$value" "$reason" >"$repo/baselines/accepted.json"
run_gate "$repo" --baseline=main
check_run "accepted_regression_should_pass_and_show_its_reason" 0 \
  "^work: accepted up to $(regex_escape "$value") instructions per message: $reason \(.*baselines/accepted\.json\)\$" \
  "^work +$head3_re +$base_re +\+[0-9.]+ % .* accepted: instructions\$" \
  "^pass: "
state=$(verdict_state "$repo/build/gate/results.json" work)
if [ "$state" = accepted ]; then
  pass "accepted_regression_should_be_accepted_in_results_json"
else
  fail "accepted_regression_should_be_accepted_in_results_json: the verdict row's state is '$state'"
fi

# An acceptance below what the head costs accepts nothing.
below=$(awk -v b="$base" 'BEGIN { printf "%d", b * 1.01 }')
printf '{"accepted":[{"scenario":"work","metric":"instructions","value":%s,"reason":"%s"}]}\n' \
  "$below" "$reason" >"$repo/baselines/accepted.json"
run_gate "$repo" --baseline=main --scenario work
check_run "acceptance_below_the_head_value_should_not_accept" 1 \
  "^work +$head3_re +$base_re +\+[0-9.]+ % .* regressed: instructions\$" \
  "!accepted up to" \
  "^fail: 1 regressed \(work\)\$"
# It is short of the breach, not stale: "no breach needs it; remove it" would be wrong advice.
check_run "acceptance_below_the_head_value_should_not_be_called_stale" 1 "!stale: no breach needs it"
rm -f "$repo/baselines/accepted.json"

# 3. One more allocation per message fails on its floor, with no baseline at all.
git -C "$repo" checkout -q -b allocation main
if add_allocation "$repo" && build "$repo"; then
  run_gate "$repo"
  check_run "extra_allocation_should_fail_its_floor_without_a_baseline" 1 \
    "^steady: 1\.000 allocations per message, above the declared floor of 0\$" \
    "^steady +[0-9.]+ +1\.000 .* regressed: allocations(, cold allocations)?\$" \
    "^work .* ok\$" \
    "!^baseline:" \
    "^fail: 1 regressed \(steady\)\$"
  # Why: the new allocation's site, its chain of functions, with its file and line beside it (the
  # file as the compiler named it in the line table: steady.c from GCC, scenarios/steady.c, from
  # the project's root, from clang).
  line=$(grep -n 'void \*extra = malloc' "$repo/scenarios/steady.c" | cut -d: -f1)
  if grep -Eq "^ +1\.000 +0\.000 +\+1\.000 +\+[0-9.]+ +handle( < [a-z_]+)* +at head (scenarios/)?steady\.c:$line\$" "$out"; then
    pass "attribution_should_show_the_new_allocation_site_with_file_and_line"
  else
    fail "attribution_should_show_the_new_allocation_site_with_file_and_line (steady.c:$line)"
    show "$out"
  fi
else
  fail "extra_allocation_should_fail_its_floor_without_a_baseline: cannot build the change"
fi

finish
