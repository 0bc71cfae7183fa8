#!/usr/bin/env bash
# git cannot be turned against the baseline: a build that plants `git replace BASE HEAD` at
# configure time (so that the base commit's objects read as the pull request's, its own
# rewritten baselines/main.json included) is still judged against the base commit; a committed
# baseline above gate's 256 MiB limit is an input error
# (exit 2, as the README says), not "no baseline" (exit 4).
# Usage: git_redirect.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"
base=$(git -C "$repo" rev-parse main)

# The change: about 3 % dearer per message, with its own baselines/main.json measured so, and a
# CMakeLists.txt that, at configure time, makes git read the base commit as the change's own.
dearer change && build "$repo" && run_gate "$repo" --save-baseline main
cat >>"$repo/CMakeLists.txt" <<'CMAKE'
execute_process(COMMAND git rev-parse HEAD~1 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE base OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git replace -f ${base} HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_QUIET ERROR_QUIET)
CMAKE
{ commit "$repo" "dearer, with its own baseline and a replace ref" && build "$repo" &&
  [ "$(git -C "$repo" show "$base:scenarios/work.c" | grep -c 'WORK_ITERATIONS 2060')" -eq 1 ]; } ||
  setup_fail "the build did not make the base commit read as the change"

run_gate "$repo" --baseline=main --base-commit "$base"
check_run "planted_replace_ref_should_not_redirect_the_base_commit" 1 \
  "^baseline: baselines/main\.json at the base commit \(${base:0:12}\)\$" \
  "^fail: 1 regressed \(work\)\$"

# 260 MiB of baseline, committed (zeros compress to a few hundred KiB in git).
blob=$(head -c $((260 << 20)) /dev/zero | git -C "$repo" hash-object -w --stdin)
export GIT_INDEX_FILE=$work/big.index
git -C "$repo" read-tree "$base" &&
  git -C "$repo" update-index --add --cacheinfo "100644,$blob,baselines/main.json"
tree=$(git -C "$repo" write-tree)
unset GIT_INDEX_FILE
big=$(git -C "$repo" commit-tree "$tree" -p "$base" -m "a 260 MiB baseline")
run_gate "$repo" --baseline=main --base-commit "$big"
check_run "oversized_baseline_should_exit_2" 2 \
  "err:baselines/main\.json at the base commit \(${big:0:12}\) is 272629760 bytes, more than 256 MiB" \
  "!."

finish
