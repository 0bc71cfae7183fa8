#!/usr/bin/env bash
# Which baseline a pull request is judged against, end to end in a real git repository: a change
# whose build plants a tag `main` on its own commit (holding its own rewritten baseline) is still
# judged against the branch main, as in CI where only origin/main exists; the base commit given
# as a hash is used as it is; a name that is only a tag, a short or unknown hash and a name two
# remotes disagree on are exit 4, listing the refs looked at.
# Usage: baseline_ref.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"
main_commit=$(git -C "$repo" rev-parse main)

# The change: about 3 % dearer per message, its own baselines/main.json measured with that, and a
# build that tags its own commit `main` (git tag -f at configure time, as a CMakeLists.txt can).
dearer change && build "$repo" && run_gate "$repo" --save-baseline main
cat >>"$repo/CMakeLists.txt" <<'CMAKE'
execute_process(COMMAND git tag -f main HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_QUIET ERROR_QUIET)
CMAKE
{ commit "$repo" "dearer, with its own baseline and a tag" && build "$repo" &&
  [ "$(git -C "$repo" rev-parse 'refs/tags/main^{commit}')" = "$(git -C "$repo" rev-parse HEAD)" ]; } ||
  setup_fail "the build did not plant the tag main on the change's commit"

# CI: a clone of the pull request has origin/main and no local main. git's own rules would read
# `main` as the tag (the change's baseline) and pass.
git -C "$repo" update-ref refs/remotes/origin/main "$main_commit"
git -C "$repo" branch -q -D main
run_gate "$repo" --baseline=main
check_run "planted_main_tag_should_not_replace_origin_main" 1 \
  "^baseline: baselines/main\.json at refs/remotes/origin/main \(${main_commit:0:12}\)\$" \
  "^fail: 1 regressed \(work\)\$"

run_gate "$repo" --baseline=main --base-commit "$main_commit"
check_run "base_commit_should_be_read_as_it_is" 1 \
  "^baseline: baselines/main\.json at the base commit \(${main_commit:0:12}\)\$" \
  "^fail: 1 regressed \(work\)\$"

run_gate "$repo" --baseline=main --base-commit "${main_commit:0:12}"
check_run "short_base_commit_should_exit_4" 4 "err:--base-commit needs a full commit hash" "!."

run_gate "$repo" --baseline=main --base-commit "$(printf '%040d' 0 | tr 0 e)"
check_run "unknown_base_commit_should_exit_4" 4 "err:commit e{40} is not in this repository" "!."

# Only the tag is left: no branch main anywhere.
git -C "$repo" update-ref -d refs/remotes/origin/main
run_gate "$repo" --baseline=main
check_run "only_a_main_tag_should_exit_4_listing_the_refs" 4 \
  "err:no branch 'main' here: looked at refs/remotes/origin/main, refs/remotes/\*/main and refs/heads/main; refs/tags/main exists but a tag is never a baseline" \
  "!."

# Two remotes other than origin that both have main: which one is meant is not gate's guess.
git -C "$repo" update-ref refs/remotes/upstream/main "$main_commit"
git -C "$repo" update-ref refs/remotes/fork/main HEAD
run_gate "$repo" --baseline=main
check_run "main_on_two_remotes_should_exit_4_as_ambiguous" 4 \
  "err:'main' is ambiguous: refs/remotes/origin/main does not exist and refs/remotes/(fork|upstream)/main and refs/remotes/(fork|upstream)/main both do" \
  "!."

# One such remote: that is the branch.
git -C "$repo" update-ref -d refs/remotes/fork/main
run_gate "$repo" --baseline=main
check_run "main_on_one_remote_should_be_used" 1 \
  "^baseline: baselines/main\.json at refs/remotes/upstream/main \(${main_commit:0:12}\)\$"

# Fully qualified names are taken exactly, and revision syntax is not a name.
run_gate "$repo" --baseline=refs/remotes/upstream/main
check_run "fully_qualified_ref_should_be_taken_exactly" 1 \
  "^baseline: baselines/main\.json at refs/remotes/upstream/main \(${main_commit:0:12}\)\$"
run_gate "$repo" --baseline='main~1'
check_run "revision_syntax_should_exit_2" 2 "err:--baseline needs a branch name .*not 'main~1'" "!."

finish
