#!/usr/bin/env bash
# A scenario's settings (gated, its instruction limit, its allocation floors) live in the pull
# request's own code, so they are compared with the baseline's: ungating a dearer scenario,
# raising its limit to 500 % or raising a floor to hide one more allocation per message is exit 1
# naming the setting, unless baselines/accepted.json accepts it with a reason; a regression of a
# scenario that is not gated is shown as "regressed: ... (not gated)" and the verdict line does not
# claim that every scenario is within its limits. Real gate, valgrind and git.
# Usage: settings.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"

# declare FILE FIELD VALUE: sets `.FIELD = VALUE,` in the scenario's description (adds it when
# the scenario does not declare it).
declare_setting() {
  local file=$repo/scenarios/$1
  if grep -q "^	\.$2 = " "$file"; then
    sed -i "s/^	\.$2 = .*,/	.$2 = $3,/" "$file"
  else
    sed -i "s/^	\.gated = \(.*\),/	.gated = \1,\n	.$2 = $3,/" "$file"
  fi
  grep -q "^	\.$2 = $3,\$" "$file"
}

# on_branch NAME: a fresh branch from main with a clean tree.
on_branch() { git -C "$repo" checkout -q -f -B "$1" main && rm -f "$repo/baselines/accepted.json"; }

# 1. About 3 % dearer and no longer gated.
on_branch ungated
if set_iterations "$repo" 2060 && declare_setting work.c gated false && build "$repo"; then
  run_gate "$repo" --baseline=main
  check_run "ungating_a_dearer_scenario_should_regress" 1 \
    "^work: not gated, but the baseline gates it: loosening a setting is a breach unless accepted \(metric 'gated', value 0\)\$" \
    "^work .* regressed: [a-z ,]*settings\$" "^fail: 1 regressed \(work\)\$" "!within"

  # Accepted: the regression is shown as not gated, and the verdict line says so.
  printf '{"accepted":[{"scenario":"work","metric":"gated","value":0,"reason":"%s"}]}\n' \
    "an experiment, not a product path" >"$repo/baselines/accepted.json"
  run_gate "$repo" --baseline=main
  check_run "accepted_ungating_should_pass_and_say_not_gated" 0 \
    "^work: accepted as not gated: an experiment, not a product path \(.*baselines/accepted\.json\)\$" \
    "^work .* regressed: [a-z ,]+ \(not gated\)\$" \
    "^pass: 1 of 2 scenarios within their limits, 1 regressed, not gated \(work\)\$" \
    "!^pass: 2 scenarios within their limits"
else
  fail "ungating_a_dearer_scenario_should_regress: cannot build the change"
fi

# 2. About 3 % dearer, with its own limit raised to 500 %.
on_branch limit
if set_iterations "$repo" 2060 && declare_setting work.c limit_percent 500 && build "$repo"; then
  run_gate "$repo" --baseline=main
  check_run "raising_the_limit_should_regress_against_the_baseline_s_limit" 1 \
    "^work: the instruction limit 500 % is above the baseline's 2 %: loosening a setting is a breach unless accepted \(metric 'limit_percent'\)\$" \
    "^work: [0-9.]+ instructions per message against [0-9.]+ in the baseline: \+[0-9.]+ %, above the 2 % limit\$" \
    "^fail: 1 regressed \(work\)\$"
else
  fail "raising_the_limit_should_regress_against_the_baseline_s_limit: cannot build the change"
fi

# 3. One more allocation per message, with the floor raised 0 -> 1 to match.
on_branch floor
if add_allocation "$repo" && declare_setting steady.c steady_allocations 1 && build "$repo"; then
  run_gate "$repo" --baseline=main
  check_run "raising_a_floor_should_regress" 1 \
    "^steady: the steady floor 1 is above the baseline's 0: loosening a setting is a breach unless accepted \(metric 'steady_allocations_floor'\)\$" \
    "^steady: 1\.000 allocations per message, above the baseline's floor of 0\$" \
    "^fail: 1 regressed \(steady\)\$"

  # Accepted, with the cold floor and the instructions the copy costs.
  declare_setting steady.c cold_allocations 1 && build "$repo"
  cat >"$repo/baselines/accepted.json" <<'JSON'
{ "accepted": [
  { "scenario": "steady", "metric": "steady_allocations_floor", "value": 1,
    "reason": "a copy of each body, on purpose" },
  { "scenario": "steady", "metric": "cold_allocations_floor", "value": 1, "reason": "the same copy" },
  { "scenario": "steady", "metric": "instructions", "value": 1000, "reason": "the copy's cost" },
  { "scenario": "steady", "metric": "cold_instructions", "value": 100000, "reason": "the same" }
] }
JSON
  run_gate "$repo" --baseline=main
  check_run "accepted_floor_should_pass" 0 \
    "^steady: accepted up to 1 as the steady floor: a copy of each body, on purpose \(.*\)\$" \
    "^steady: accepted up to 1 as the cold floor: the same copy \(.*\)\$" \
    "^steady .* accepted: [a-z ,]+\$" "^pass: 2 scenarios within their limits\$"
else
  fail "raising_a_floor_should_regress: cannot build the change"
fi

# 4. A stricter setting is a note, not a breach.
on_branch stricter
if declare_setting work.c limit_percent 1 && build "$repo"; then
  run_gate "$repo" --baseline=main
  check_run "a_stricter_limit_should_be_a_note" 0 \
    "^work: note: the instruction limit is now 1 % \(the baseline's: 2 %\)\$" \
    "^pass: 2 scenarios within their limits\$"
else
  fail "a_stricter_limit_should_be_a_note: cannot build the change"
fi

finish
