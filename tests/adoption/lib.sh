# Shared by the adoption tests (sourced): a temporary work directory, a git repository on the
# branch the baseline is saved on, gate run as a user runs it, and checks that report ok/FAIL.
# shellcheck shell=bash

# pass, fail, finish, show, LC_ALL=C: the suite's own preamble.
# shellcheck source=tests/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# Git must not read the user's configuration (signing, hooks, templates) nor ask anything.
git_fixed
# Hosts are built with the flags each test gives them, not the caller's.
unset CFLAGS LDFLAGS CC CMAKE_PREFIX_PATH PKG_CONFIG_PATH MAKEFLAGS

# The branch the baselines are saved on and compared with: an adopter's default branch that is
# not main.
base_branch=master
messages=200
code=0

# adoption_setup NAME PREFIX: $work, removed at exit unless COSTGATE_E2E_KEEP is set, and
# $prefix, the shared install, with gate in it.
adoption_setup() {
  prefix=$(realpath -- "$2") || exit 2
  work_dir "$1"
  out=$work/stdout err=$work/stderr log=$work/build.log
  gate=$prefix/bin/gate
  if [ ! -x "$gate" ]; then
    fail "setup: no costgate install in $prefix (the adoption_install test makes it)"
    finish
    exit 1
  fi
}

# quietly NAME COMMAND...: runs COMMAND with its output in the log; shows the log on failure.
quietly() {
  local name=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "    $name failed: $*"
    show "$log"
    return 1
  fi
}

# new_repo DIR SOURCE...: a git repository in DIR on $base_branch holding copies of SOURCE... (or
# what is already in DIR), one commit.
new_repo() {
  local dir=$1
  shift
  mkdir -p "$dir" && { [ $# -eq 0 ] || cp -R "$@" "$dir"/; } &&
    printf 'build/\nbuilddir/\n' >"$dir/.gitignore" &&
    git -C "$dir" init -q -b "$base_branch" &&
    git -C "$dir" config user.name "costgate adoption" &&
    git -C "$dir" config user.email "adoption@costgate.invalid" &&
    git -C "$dir" config commit.gpgsign false &&
    commit "$dir" "the library"
}

commit() { git -C "$1" add -A && git -C "$1" commit -q -m "$2"; }

# run_gate DIR ARGS...: gate from the repository's root DIR, as a user runs it; sets $code.
# The native wall-clock check beside a regression (a worktree build of the baseline and timed
# drains: seconds a regression) is left out: no adoption test asserts it (tests/e2e_baseline
# truth.sh does).
run_gate() {
  local dir=$1
  shift
  (cd "$dir" && exec "$gate" -j 2 --messages "$messages" --no-wall-check "$@") >"$out" 2>"$err"
  code=$?
}


# gate_host HOST DIR BUILD_DIR REBUILD PLANT: the whole adoption of one host, built in DIR's
# BUILD_DIR by the command REBUILD (a function): the baseline saved and committed on
# $base_branch, a branch with PLANT (a function changing the library in DIR) failing with exit 1,
# and a branch changing nothing measured passing with exit 0.
gate_host() {
  local host=$1 dir=$2 build_dir=$3 rebuild=$4 plant=$5
  run_gate "$dir" --build-dir "$build_dir" --save-baseline "$base_branch"
  if ! check_run "${host}_should_save_a_baseline_on_${base_branch}" 0 "^pass: " ||
    [ ! -s "$dir/baselines/$base_branch.json" ]; then
    return 1
  fi
  commit "$dir" "baseline of $base_branch"
  git -C "$dir" checkout -q -b dearer "$base_branch"
  if "$plant" "$dir" && commit "$dir" "a dearer library" && "$rebuild"; then
    run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
    check_run "${host}_should_fail_a_planted_regression" 1 \
      "^baseline: baselines/$base_branch\.json at refs/heads/$base_branch \([0-9a-f]{12}\)\$" \
      "^fail: "
  else
    fail "${host}_should_fail_a_planted_regression: cannot plant or build it"
  fi
  git -C "$dir" checkout -q -b unchanged "$base_branch"
  printf '\nA line of documentation.\n' >>"$dir/README.md"
  if commit "$dir" "documentation only" && "$rebuild"; then
    run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
    check_run "${host}_should_pass_an_unchanged_head" 0 \
      "^baseline: baselines/$base_branch\.json at refs/heads/$base_branch \([0-9a-f]{12}\)\$" \
      "^pass: "
  else
    fail "${host}_should_pass_an_unchanged_head: cannot build it"
  fi
}
