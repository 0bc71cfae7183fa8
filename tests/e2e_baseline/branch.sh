#!/usr/bin/env bash
# Any default branch, end to end: a real git repository whose branch is `master` (and a release
# branch `release/2.x`), measured by the real gate under valgrind. The baseline is saved as
# baselines/master.json and read back as committed on master by the same fully qualified rules
# as main's; a dearer head fails and is told to refresh master's baseline; a branch name that is
# not one (revision syntax, a tag, a path) is a usage error before anything runs.
# Usage: branch.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/common.sh"

repo=$work/repo

if ! new_repo "$repo" || ! git -C "$repo" branch -m main master || ! build "$repo"; then
  setup_fail "cannot make and build the demo repository on master"
fi

# Names that are not a branch: refused (exit 2) before any run, naming the option and the name.
for name in 'master..HEAD' 'master@{1}' '-master' '.hidden' 'a/.b' 'a//b' 'x.lock' 'HEAD' \
  'refs/tags/master' 'refs/notes/master' 'master~1' 'a b'; do
  run_gate "$repo" --baseline="$name"
  check_run "baseline_should_refuse_the_name '$name'" 2 \
    "err:gate: error: --baseline needs a (branch name|branch, not the tag)" "!."
done
for name in '../outside' 'refs/heads/master' 'a/../b' '/abs'; do
  run_gate "$repo" --save-baseline "$name"
  check_run "save_baseline_should_refuse_the_name '$name'" 2 \
    "err:gate: error: --save-baseline needs a branch name" "!."
done
if [ -e "$work/outside.json" ] || [ -e "$repo/baselines" ]; then
  fail "refused_names_should_write_nothing: $(find "$repo/baselines" "$work/outside.json" 2>/dev/null | tr '\n' ' ')"
else
  pass "refused_names_should_write_nothing"
fi

# master: measure, write baselines/master.json, commit it on master.
run_gate "$repo" --save-baseline master
if check_run "save_baseline_master_should_write_baselines_master_json" 0 \
  "err:wrote the baseline baselines/master\.json" && [ -s "$repo/baselines/master.json" ]; then
  commit "$repo" "baseline of master"
else
  setup_fail "no baseline on master"
fi

# A tag `master` on another commit is never read: the branch is.
git -C "$repo" tag master HEAD~1
run_gate "$repo" --baseline=master
check_run "baseline_master_should_read_refs_heads_master_and_pass" 0 \
  "^baseline: baselines/master\.json at refs/heads/master \([0-9a-f]{12}\)\$" \
  "^pass: 2 scenarios within their limits\$"
run_gate "$repo" --baseline=refs/heads/master
check_run "baseline_refs_heads_master_should_read_the_same_file" 0 \
  "^baseline: baselines/master\.json at refs/heads/master \([0-9a-f]{12}\)\$"
git -C "$repo" tag -d master >/dev/null

# A repository without main: --baseline=main says what it looked at (exit 4).
run_gate "$repo" --baseline=main
check_run "baseline_main_without_main_should_exit_4" 4 \
  "err:no branch 'main' here: looked at refs/remotes/origin/main, refs/remotes/\*/main and refs/heads/main"

# origin's master wins over the local branch: a clone's refs/remotes/origin/master.
git -C "$repo" update-ref refs/remotes/origin/master master
run_gate "$repo" --baseline=master
check_run "baseline_master_should_prefer_origin_master" 0 \
  "^baseline: baselines/master\.json at refs/remotes/origin/master \([0-9a-f]{12}\)\$"
git -C "$repo" update-ref -d refs/remotes/origin/master

# A dearer head on a topic branch fails against master; a cheaper one is told to refresh
# master's baseline, on master.
git -C "$repo" checkout -q -b dearer master
if set_iterations "$repo" 2200 && build "$repo"; then
  run_gate "$repo" --baseline=master --scenario work
  check_run "dearer_head_should_fail_against_master" 1 "^work .* regressed: instructions(, cold instructions)?\$" \
    "^baseline: baselines/master\.json at refs/heads/master "
else
  fail "dearer_head_should_fail_against_master: cannot build the change"
fi
if set_iterations "$repo" 1800 && build "$repo"; then
  run_gate "$repo" --baseline=master --scenario work
  check_run "cheaper_head_should_name_the_refresh_of_master" 0 \
    "^work: improved: instructions per message -[0-9.]+ % against the baseline, beyond the 2 % limit: refresh the baseline \(gate --messages 200 --save-baseline master on master, and commit baselines/master\.json\)\$"
else
  fail "cheaper_head_should_name_the_refresh_of_master: cannot build the change"
fi

# A release branch with a slash keeps its baseline in baselines/release/2.x.json.
git -C "$repo" checkout -q -- . && git -C "$repo" checkout -q -b release/2.x master
if build "$repo"; then
  run_gate "$repo" --save-baseline release/2.x --scenario work
  if check_run "save_baseline_release_should_write_a_nested_file" 0 \
    "err:wrote the baseline baselines/release/2\.x\.json" &&
    [ -s "$repo/baselines/release/2.x.json" ]; then
    commit "$repo" "baseline of release/2.x"
    git -C "$repo" checkout -q -b fix release/2.x
    run_gate "$repo" --baseline=release/2.x --scenario work
    check_run "baseline_release_should_read_it_from_its_branch" 0 \
      "^baseline: baselines/release/2\.x\.json at refs/heads/release/2\.x \([0-9a-f]{12}\)\$"
  fi
else
  fail "save_baseline_release: cannot build"
fi

finish
