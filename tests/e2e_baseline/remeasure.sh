#!/usr/bin/env bash
# A committed baseline whose fingerprint differs from the head's: gate measures main itself in
# a temporary git worktree, compares with that and says so, and removes the worktree afterwards
# (git's list and the temporary directory). TMPDIR is a directory this test owns.
# Usage: remeasure.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/common.sh"

repo=$work/repo
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

built_repo "$repo"

run_gate "$repo" --save-baseline main
base=$(per_message work)
if [ "$code" -ne 0 ] || [ -z "$base" ] || [ ! -s "$repo/baselines/main.json" ]; then
  setup_fail "--save-baseline main exited $code" "$err"
fi
base_re=$(regex_escape "$base")

# The committed baseline claims another valgrind.
version=$(sed -nE '/"fingerprint":/,/}/ s/.*"valgrind":[[:space:]]*"([^"]*)".*/\1/p' \
  "$repo/baselines/main.json")
other=1.0.0
[ "$version" = "$other" ] && other=2.0.0
sed -i -E "s/(\"valgrind\":[[:space:]]*)\"$(regex_escape "$version")\"/\\1\"$other\"/" \
  "$repo/baselines/main.json"
if [ -z "$version" ] || ! grep -qE "\"valgrind\":[[:space:]]*\"$other\"" "$repo/baselines/main.json"; then
  setup_fail "cannot change the baseline's valgrind version '$version'"
fi
commit "$repo" "baseline of main, from another valgrind"
main_commit=$(git -C "$repo" rev-parse --short=12 main)
remeasured="^baseline: refs/heads/main \($main_commit\) measured here in a temporary worktree \(measured here: the stored baseline's fingerprint differs\)\$"
not_comparable="err:not comparable \(valgrind: $(regex_escape "$version") here, $other in the baseline\)"

# no_worktree_left NAME: git knows only the main worktree, nothing is left in TMPDIR, and the
# repository's working tree and branch are as they were.
no_worktree_left() {
  local name=$1 branch=$2 worktrees leftovers status
  worktrees=$(git -C "$repo" worktree list --porcelain | grep -c '^worktree ')
  leftovers=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'costgate-worktree-*' -printf '%f ')
  status=$(git -C "$repo" status --porcelain --untracked-files=all)
  if [ "$worktrees" -ne 1 ]; then
    fail "$name: git worktree list shows $worktrees worktrees"
    git -C "$repo" worktree list | show /dev/stdin
  elif [ -n "$leftovers" ]; then
    fail "$name: left in TMPDIR: $leftovers"
  elif [ -d "$repo/.git/worktrees" ] && [ -n "$(ls -A "$repo/.git/worktrees")" ]; then
    fail "$name: .git/worktrees still holds: $(ls -A "$repo/.git/worktrees")"
  elif [ -n "$status" ] || [ "$(git -C "$repo" branch --show-current)" != "$branch" ]; then
    fail "$name: the working tree or branch changed: $status"
  else
    pass "$name"
  fi
  # A failure must not spoil the next case.
  git -C "$repo" worktree prune
  find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'costgate-worktree-*' -exec rm -rf {} +
}

# 7a. An unchanged tree against main measured here: passes, and says where the baseline came from.
git -C "$repo" checkout -q -b unchanged main
run_gate "$repo" --baseline=main
check_run "other_fingerprint_unchanged_tree_should_remeasure_main_and_pass" 0 \
  "$remeasured" "$not_comparable" \
  "^work +$base_re +$base_re +\+0\.00 % .* ok\$" \
  "^pass: 2 scenarios"
no_worktree_left "other_fingerprint_should_remove_the_worktree_after_a_pass" unchanged

# 7b. 3 % dearer per message against main measured here: a regression against main's figure.
git -C "$repo" checkout -q -b three-percent main
if set_iterations "$repo" 2060 && build "$repo"; then
  run_gate "$repo" --baseline=main
  check_run "other_fingerprint_three_percent_dearer_should_remeasure_main_and_regress" 1 \
    "$remeasured" "$not_comparable" \
    "^work: [0-9]+\.[0-9]{3} instructions per message against $base_re in the baseline: \+[0-9.]+ %, above the 2 % limit\$" \
    "^fail: 1 regressed \(work\)\$"
  git -C "$repo" checkout -q -- scenarios/work.c
  no_worktree_left "other_fingerprint_should_remove_the_worktree_after_a_regression" three-percent
  build "$repo" || fail "setup: cannot build the demo again as it was"
else
  fail "other_fingerprint_three_percent_dearer_should_remeasure_main_and_regress: cannot build"
fi

# A baseline file is not a ref gate could measure: another fingerprint there is exit 4.
git -C "$repo" show main:baselines/main.json >"$work/other.json"
run_gate "$repo" --baseline-file "$work/other.json"
check_run "other_fingerprint_in_a_baseline_file_should_exit_4" 4 \
  "err:no comparable baseline: '$(regex_escape "$work/other.json")' was measured with another toolchain \(valgrind: $(regex_escape "$version") here, $other in the baseline\)"

# SIGTERM (a cancelled CI job) while main is being measured in the worktree: the worktree must
# still go away.
git -C "$repo" checkout -q unchanged
(cd "$repo" && exec "$gate" --build-dir build -j 2 --messages "$messages" --baseline=main) \
  >"$out" 2>"$err" &
pid=$!
for ((tries = 0; tries < 1200; tries++)); do
  compgen -G "$TMPDIR/costgate-worktree-*/tree/build" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
sleep 0.5
kill -STOP "$pid" 2>/dev/null
mapfile -t orphans < <(descendants "$pid")
{
  kill -TERM "$pid"
  kill -CONT "$pid"
  wait "$pid"
  code=$?
} 2>/dev/null
wait_for_orphans
if [ "$tries" -ge 1200 ] || ! grep -q "measuring refs/heads/main here" "$err"; then
  fail "sigterm_during_the_remeasure_should_remove_the_worktree: the worktree never appeared"
  show "$err"
else
  no_worktree_left "sigterm_during_the_remeasure_should_remove_the_worktree (exit $code)" unchanged
fi

# 7c. The head configured with a generator the environment does not name (`cmake -G Ninja` in a
# shell whose CMAKE_GENERATOR is unset or says Makefiles, and the reverse): main's worktree is
# built with the head's generator, whose make program the head's cache options name. Ninja is a
# test dependency (tools/install-deps.sh --tests): without it the case fails, never passes unseen.
if ! command -v ninja >/dev/null 2>&1; then
  fail "head_built_with_another_generator_should_remeasure_main_with_it: ninja not found (tools/install-deps.sh --tests)"
else
  if [ "${CMAKE_GENERATOR:-}" = Ninja ]; then
    generator="Unix Makefiles"
  else
    generator=Ninja
  fi
  git -C "$repo" checkout -q unchanged
  rm -rf "$repo/build"
  if cmake -G "$generator" -S "$repo" -B "$repo/build" -DCOSTGATE_NATIVE_VARIANTS=OFF \
    >"$work/build.log" 2>&1 && cmake --build "$repo/build" -j 2 >>"$work/build.log" 2>&1; then
    run_gate "$repo" --baseline=main
    check_run "head_built_with_another_generator_should_remeasure_main_with_it ($generator)" 0 \
      "$remeasured" "^work +$base_re +$base_re +\+0\.00 % .* ok\$" "^pass: 2 scenarios"
    no_worktree_left "head_built_with_another_generator_should_remove_the_worktree" unchanged
  else
    fail "head_built_with_another_generator_should_remeasure_main_with_it: cannot build"
    show "$work/build.log"
  fi
  rm -rf "$repo/build"
  build "$repo" || fail "setup: cannot rebuild the demo with the default generator"
fi

# 7d. The head built with other flags (a runner with CFLAGS set): the stored baseline's toolchain
# matches, but the scenarios were not built alike, so main is measured here, configured with the
# head's cache options, and the same code compares equal instead of regressing.
git -C "$repo" checkout -q main
rm -f "$repo/baselines/main.json"
git -C "$repo" checkout -q -- baselines/main.json
sed -i -E "s/(\"valgrind\":[[:space:]]*)\"$other\"/\\1\"$(regex_escape "$version")\"/" \
  "$repo/baselines/main.json"
commit "$repo" "baseline of main, from this valgrind"
git -C "$repo" checkout -q -b other-flags main
if cmake -S "$repo" -B "$repo/build" -DCMAKE_C_FLAGS="-fno-inline -fstack-protector-all" \
  >"$work/build.log" 2>&1 && build "$repo"; then
  run_gate "$repo"
  flagged=$(per_message work)
  run_gate "$repo" --baseline=main
  if [ -z "$flagged" ] || [ "$flagged" = "$base" ]; then
    fail "other_flags_should_remeasure_main_with_the_same_flags: the flags did not change the count ($flagged)"
  else
    check_run "other_flags_should_remeasure_main_with_the_same_flags" 0 \
      "err:the stored baseline is not comparable \(flags: [^(]*-fno-inline -fstack-protector-all[^(]* here, " \
      "err:measuring refs/heads/main here in a temporary worktree" \
      "^work +$(regex_escape "$flagged") +$(regex_escape "$flagged") +\+0\.00 % .* ok\$" \
      "^pass: 2 scenarios"
  fi
  no_worktree_left "other_flags_should_remove_the_worktree" other-flags
  cmake -S "$repo" -B "$repo/build" -DCMAKE_C_FLAGS= >"$work/build.log" 2>&1
else
  fail "other_flags_should_remeasure_main_with_the_same_flags: cannot build"
  show "$work/build.log"
fi

finish
