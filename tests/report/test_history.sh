#!/usr/bin/env bash
# gate history end to end: a real git repository whose main branch has ten commits, each changing
# a fixture scenario's cost or the toolchain fingerprint (plus a version that does not parse and a
# merged side branch), then gate history's figures, markers and drift checked exactly, its exit
# codes, its JSON, and the history charts of gate report in headless Chromium, against the figures.
# Usage: test_history.sh GATE SOURCE_DIR ARTIFACT_DIR
# shellcheck source=tests/report/common.sh
source "$(dirname "$0")/common.sh"
gate=$(realpath -- "$1") source_dir=$(realpath -- "$2") artifacts=$3
here=$source_dir/tests/report
git_isolate
mkdir -p "$artifacts"
artifacts=$(realpath -- "$artifacts")
work=$(temp_dir history) || exit 2

repo=$work/repo
git init -q -b main "$repo" && git -C "$repo" config user.name "costgate test" &&
  git -C "$repo" config user.email "test@costgate.invalid" || exit 2
mkdir -p "$repo/baselines"
day=0
# commit SUBJECT [make_baseline.py arguments...]: writes baselines/main.json (unless no
# arguments) and commits everything, one day after the commit before.
commit() {
  local subject=$1
  shift
  day=$((day + 1))
  if [ $# -gt 0 ]; then
    python3 "$here/make_baseline.py" "$repo/baselines/main.json" "$@" || exit 2
  fi
  git -C "$repo" add -A &&
    GIT_AUTHOR_DATE="2024-01-$(printf %02d "$day")T12:00:00Z" \
      GIT_COMMITTER_DATE="2024-01-$(printf %02d "$day")T12:00:00Z" \
      git -C "$repo" commit -q -m "$subject" || exit 2
}
reply=reply=20000/2/50000/7
commit "Add the baseline" consume_json=10000/19/23632/19 "$reply"
cat >"$repo/baselines/accepted.json" <<'EOF'
{ "accepted": [
  { "scenario": "consume_json", "metric": "instructions", "value": 10200,
    "reason": "validate the symbol field" }
] }
EOF
commit "Validate the symbol field" consume_json=10200/19/23632/19 "$reply"
commit "Build with gcc 13" consume_json=10404/19/23632/19 "$reply" --compiler "GNU 13.2.0"
commit "Parse numbers once" consume_json=10000/19/23632/19 "$reply" --compiler "GNU 13.2.0"
commit "Copy the symbol" consume_json=10000/20/23632/19/120 "$reply" --compiler "GNU 13.2.0"
printf '{"schema": 3, "code": [' >"$repo/baselines/main.json"
commit "Edit the baseline by hand"
commit "Move to valgrind 3.22" consume_json=10000/20/23632/19/120 "$reply" --compiler "GNU 13.2.0" --valgrind 3.22.0
# From here on consume_json's estimated cycles are measured too (a gate that has them).
commit "Log every message" consume_json=11000/20/23632/19/120/30000/40000 "$reply" --compiler "GNU 13.2.0" --valgrind 3.22.0
commit "Warm the cache at start" consume_json=11000/20/24000/19/120/30000/40000 "$reply" --compiler "GNU 13.2.0" --valgrind 3.22.0
# A side branch, merged: only the merge is on main's first-parent line.
git -C "$repo" checkout -q -b side
commit "Try a slower decoder" consume_json=99999/20/24000/19/120/30000/40000 "$reply" --compiler "GNU 13.2.0" --valgrind 3.22.0
commit "Settle on the table decoder" consume_json=12000/20/24000/19/120/30000/40000 "$reply" --compiler "GNU 13.2.0" --valgrind 3.22.0
git -C "$repo" checkout -q main
day=$((day + 1))
GIT_AUTHOR_DATE="2024-01-$(printf %02d "$day")T12:00:00Z" GIT_COMMITTER_DATE="2024-01-$(printf %02d "$day")T12:00:00Z" \
  git -C "$repo" merge -q --no-ff -m "Merge the table decoder" side || exit 2
cat >"$repo/baselines/accepted.json" <<'EOF2'
{ "accepted": [
  { "scenario": "consume_json", "metric": "instructions", "value": 10200,
    "reason": "validate the symbol field" },
  { "scenario": "consume_json", "metric": "cycles", "value": 30600,
    "reason": "check every field" }
] }
EOF2
commit "Check every field" consume_json=12500/20/24000/19/120/30600/40000 "$reply" --compiler "GNU 13.2.0" --valgrind 3.22.0
# A tag named like the branch, on the first commit: the branch must win, never the tag.
git -C "$repo" tag main "$(git -C "$repo" rev-list --max-parents=0 HEAD)"

# label FILE: each commit's short hash replaced by its subject's first word in brackets, so the
# expected text does not depend on hashes.
label() {
  local hash word
  while read -r hash word; do
    sed -i "s/\b$hash\b/<$word>/g" "$1"
  done < <(git -C "$repo" log --all --format='%h %s' | awk '{print $1, $2 $3}')
}

# run NAME ARGS...: gate history in the repository (or in $dir when set), stdout and stderr to
# $out and $err, $work/NAME.{out,err}.
run() {
  local name=$1
  shift
  out=$work/$name.out err=$work/$name.err
  (cd "${dir:-$repo}" && "$gate" history "$@") >"$out" 2>"$err"
  code=$?
  label "$out"
  label "$err"
}

run full -s consume_json
cat >"$work/expected" <<'EOF'
baselines/main.json on refs/heads/main (TIP): 10 versions from 2024-01-01 to 2024-01-13, 2 toolchain changes, 1 skipped

consume_json: instructions per message
  2024-01-01  <Addthe>            10000             Add the baseline
  2024-01-02  <Validatethe>            10200    +2.00 %  Validate the symbol field  [accepted: validate the symbol field]
  2024-01-03  <Buildwith>            10404    +2.00 %  Build with gcc 13  [toolchain: compiler: GNU 12.2.0 -> GNU 13.2.0]
  2024-01-04  <Parsenumbers>            10000    -3.88 %  Parse numbers once
  2024-01-08  <Logevery>            11000   +10.00 %  Log every message
  2024-01-12  <Mergethe>            12000    +9.09 %  Merge the table decoder
  2024-01-13  <Checkevery>            12500    +4.17 %  Check every field
  drift +25.00 %: 10000 (<Addthe>) -> 12500 (<Checkevery>), 6 changes

consume_json: heap allocations per message
  2024-01-01  <Addthe>               19             Add the baseline
  2024-01-05  <Copythe>               20    +5.26 %  Copy the symbol
  drift +5.26 %: 19 (<Addthe>) -> 20 (<Copythe>), 1 change

consume_json: heap bytes allocated per message
  2024-01-01  <Addthe>              100             Add the baseline
  2024-01-05  <Copythe>              120   +20.00 %  Copy the symbol
  drift +20.00 %: 100 (<Addthe>) -> 120 (<Copythe>), 1 change

consume_json: estimated cycles per message
  2024-01-08  <Logevery>            30000             Log every message
  2024-01-13  <Checkevery>            30600    +2.00 %  Check every field  [accepted: check every field]
  drift +2.00 %: 30000 (<Logevery>) -> 30600 (<Checkevery>), 1 change

consume_json: cold-start instructions
  2024-01-01  <Addthe>            23632             Add the baseline
  2024-01-09  <Warmthe>            24000    +1.56 %  Warm the cache at start
  drift +1.56 %: 23632 (<Addthe>) -> 24000 (<Warmthe>), 1 change

consume_json: cold-start heap allocations
  2024-01-01  <Addthe>               19             Add the baseline
  drift 0.00 %: 19 (<Addthe>) -> 19 (<Addthe>), 0 changes

consume_json: cold-start heap bytes allocated
  2024-01-01  <Addthe>             1000             Add the baseline
  drift 0.00 %: 1000 (<Addthe>) -> 1000 (<Addthe>), 0 changes

consume_json: cold-start estimated cycles
  2024-01-08  <Logevery>            40000             Log every message
  drift 0.00 %: 40000 (<Logevery>) -> 40000 (<Logevery>), 0 changes
EOF
tip=$(git -C "$repo" rev-parse --short=12 refs/heads/main)
sed -i "s/($tip)/(TIP)/" "$work/full.out"
if [ "$code" -eq 0 ] && diff -u "$work/expected" "$work/full.out" >"$work/diff"; then
  pass "history_should_print_every_change_its_percent_markers_and_drift"
else
  fail "history_should_print_every_change_its_percent_markers_and_drift: exit $code"
  show "$work/diff"
  show "$work/full.err"
fi
if grep -q "^gate: warning: skipped baselines/main.json at <Editthe> (2024-01-06, \"Edit the baseline by hand\"): cannot read results 'baselines/main.json at <Editthe>': not JSON" "$work/full.err"; then
  pass "history_should_report_an_unreadable_version_by_commit_and_go_on"
else
  fail "history_should_report_an_unreadable_version_by_commit_and_go_on"
  show "$work/full.err"
fi
if ! grep -q "Try a slower decoder\|99999" "$work/full.out"; then
  pass "history_should_follow_the_first_parent_only"
else
  fail "history_should_follow_the_first_parent_only"
fi

run reply -s 'rep*'
if [ "$code" -eq 0 ] && [ "$(grep -c '^reply: ' "$work/reply.out")" -eq 6 ] && ! grep -q consume_json "$work/reply.out" &&
  grep -q '^  drift 0.00 %: 20000 (<Addthe>) -> 20000 (<Addthe>), 0 changes$' "$work/reply.out"; then
  pass "history_should_keep_to_the_scenarios_the_glob_matches"
else
  fail "history_should_keep_to_the_scenarios_the_glob_matches: exit $code"
  show "$work/reply.out"
fi

run since -s consume_json --since 2024-01-08
if [ "$code" -eq 0 ] && grep -q '^baselines/main.json on refs/heads/main (.*): 4 versions from 2024-01-08 to 2024-01-13$' "$work/since.out" &&
  grep -q '^  drift +13.64 %: 11000 (<Logevery>) -> 12500 (<Checkevery>), 2 changes$' "$work/since.out"; then
  pass "history_since_a_date_should_measure_the_drift_from_the_oldest_version_shown"
else
  fail "history_since_a_date_should_measure_the_drift_from_the_oldest_version_shown: exit $code"
  show "$work/since.out"
fi

# A clone whose local main is behind: the remote's branch is the history.
git clone -q "$repo" "$work/clone" && git -C "$work/clone" reset -q --hard HEAD~3 || exit 2
dir=$work/clone run clone -s consume_json
check_run history_should_prefer_origin_s_branch_to_a_local_one 0 \
  '^baselines/main\.json on refs/remotes/origin/main \(.*\): 10 versions'

# Exit codes.
expect() { # expect NAME CODE PATTERN ARGS...: PATTERN an extended regular expression on stderr
  local name=$1 want=$2 pattern=$3
  shift 3
  run "$name" "$@"
  check_run "$name" "$want" "err:$pattern"
}
expect history_should_reject_an_unknown_option_with_exit_2 2 "unknown option '--bogus'" --bogus
expect history_should_reject_a_date_that_is_not_a_day_with_exit_2 2 "'2024-02-30' is not a date" --since 2024-02-30
expect history_should_reject_a_glob_that_matches_nothing_with_exit_2 2 "no scenario" -s 'nothing*'
expect history_should_reject_a_full_ref_with_exit_2 2 "is not a branch name" --ref refs/tags/main
expect history_without_the_branch_should_exit_4 4 "neither refs/remotes/origin/release nor refs/heads/release" --ref release
expect history_with_no_commit_since_the_date_should_exit_4 4 "no commit on refs/heads/main since 2030-01-01" --since 2030-01-01
dir=$work run nogit
check_run history_outside_a_git_repository_should_exit_4 4 "err:not in a git repository"

# The JSON and the page: figures, markers and drift in the rendered DOM.
(cd "$repo" && "$gate" history --json "$work/history.json" --svg "$work/svg") >/dev/null 2>&1
code=$?
if [ "$code" -eq 0 ] && python3 "$here/check_history.py" json "$work/history.json" &&
  [ -s "$work/svg/consume_json.instructions.svg" ] && [ -s "$work/svg/reply.allocations.svg" ] &&
  [ -s "$work/svg/consume_json.cycles.svg" ] && [ ! -e "$work/svg/consume_json.cold_cycles.svg" ] &&
  [ "$(find "$work/svg" -name '*.svg' | wc -l)" -eq 7 ] &&
  xmllint --noout "$work/svg/consume_json.instructions.svg" "$work/svg/consume_json.cycles.svg"; then
  pass "history_json_should_hold_the_figures_and_the_charts_should_be_well_formed_svg"
else
  fail "history_json_should_hold_the_figures_and_the_charts_should_be_well_formed_svg: exit $code"
fi
page=$artifacts/history.html
"$gate" report -q "$source_dir/tests/report/results.json" --history "$work/history.json" -o "$page"
code=$?
if [ "$code" -eq 0 ] && grep -q "estimated cycles per message +2.00 % since 2024-01-08" "$page" &&
  grep -q "instructions per message +25.00 % since 2024-01-01" "$page"; then
  pass "page_should_give_each_drift_from_its_own_first_figure"
else
  fail "page_should_give_each_drift_from_its_own_first_figure"
fi
if [ "$code" -ne 0 ] || [ -z "$browser" ]; then
  fail "page_should_draw_the_history_charts: report exit $code, browser '${browser:-none}'"
else
  chrome --enable-logging=stderr --v=0 --dump-dom "file://$page" >"$work/dom.html" 2>"$work/dom.err"
  if python3 "$here/check_history.py" dom "$work/history.json" "$work/dom.html" >"$work/check.out" 2>&1 &&
    ! console "$work/dom.err" >/dev/null; then
    pass "page_should_draw_the_history_charts_with_the_figures_markers_and_drift ($(tail -n 1 "$work/check.out"))"
  else
    fail "page_should_draw_the_history_charts_with_the_figures_markers_and_drift"
    show "$work/check.out"
    console "$work/dom.err" | head -n 5
  fi
  rm -f "$artifacts/history.png"
  chrome --screenshot="$artifacts/history.png" --window-size=1000,2600 --hide-scrollbars \
    "file://$page" >/dev/null 2>&1
fi
printf 'not json' >"$work/bad-history.json"
report_refuses report_should_refuse_a_history_that_does_not_read_and_write_no_page "$work/bad.html" \
  "bad-history.json" -q "$source_dir/tests/report/results.json" --history "$work/bad-history.json" \
  -o "$work/bad.html"

finish
