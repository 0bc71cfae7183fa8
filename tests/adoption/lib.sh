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
    setup_fail "no costgate install in $prefix (the adoption_install test makes it)"
  fi
}

# adoption_host NAME EXAMPLE COSTGATE_SOURCE_DIR PREFIX: a host's test set up from its two
# arguments (a usage error without them): $example, examples/EXAMPLE of that source; $work and
# $prefix (adoption_setup); the installed pkg-config modules on PKG_CONFIG_PATH.
adoption_host() {
  local name=$1 project=$2
  shift 2
  if [ $# -ne 2 ]; then
    echo "usage: $0 COSTGATE_SOURCE_DIR PREFIX" >&2
    exit 2
  fi
  # shellcheck disable=SC2034 # the host tests read it
  example=$(realpath -- "$1")/examples/$project
  adoption_setup "$name" "$2"
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
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
    printf 'build*/\nbuilddir*/\nout/\ndebug/\n' >"$dir/.gitignore" &&
    git -C "$dir" init -q -b "$base_branch" &&
    git -C "$dir" config user.name "costgate adoption" &&
    git -C "$dir" config user.email "adoption@costgate.invalid" &&
    git -C "$dir" config commit.gpgsign false &&
    commit "$dir" "the library"
}

commit() { git -C "$1" add -A && git -C "$1" commit -q -m "$2"; }

# check_lines NAME FILE LINE...: passes NAME when every LINE is a whole line of FILE; else fails
# it, naming the first that is not, and shows FILE.
check_lines() {
  local name=$1 file=$2 line
  shift 2
  for line in "$@"; do
    if ! grep -qxF -- "$line" "$file"; then
      fail "$name: no line '$line'"
      show "$file"
      return 1
    fi
  done
  pass "$name"
}

# run_gate DIR ARGS...: gate from the repository's top DIR, as a user runs it; sets $code. What
# it writes for people and tools (stdout, stderr, results.json, the Markdown report) is kept in
# $work/outputs.txt, which no_machine_paths reads.
# The native wall-clock check beside a regression (a worktree build of the baseline and timed
# drains: seconds a regression) is left out (no_wall) but where wall_clock asks for it.
no_wall=(--no-wall-check)
run_gate() {
  local dir=$1
  shift
  rm -f "$work/results.json" "$work/report.md"
  (cd "$dir" && exec "$gate" -j 2 --messages "$messages" "${no_wall[@]}" \
    --json "$work/results.json" --markdown "$work/report.md" "$@") >"$out" 2>"$err"
  code=$?
  cat "$out" "$err" >>"$work/outputs.txt"
  cat "$work/results.json" "$work/report.md" >>"$work/outputs.txt" 2>/dev/null
}

# no_machine_paths HOST DIR: nothing gate wrote in this test (outputs.txt) nor the baselines
# committed in DIR names the test's temporary directory: outputs hold no path of the machine.
no_machine_paths() {
  local host=$1 dir=$2 found
  found=$(cat "$work/outputs.txt" "$dir"/baselines/*.json 2>/dev/null | grep -F -- "$work" | head -5)
  if [ -s "$work/outputs.txt" ] && [ -z "$found" ]; then
    pass "${host}_outputs_should_hold_no_path_of_the_machine"
  else
    fail "${host}_outputs_should_hold_no_path_of_the_machine: ${found:-no outputs}"
  fi
}

# local_baseline HOST DIR BUILD_DIR: with a remote whose $base_branch predates the committed
# baseline (committed here, not pushed), gate reads the local branch and says so.
local_baseline() {
  local host=$1 dir=$2 build_dir=$3 remote=$work/$1-origin.git
  if ! git clone -q --bare "$dir" "$remote" ||
    ! git -C "$remote" update-ref "refs/heads/$base_branch" "$(git -C "$dir" rev-parse "$base_branch~1")" ||
    ! git -C "$dir" remote add origin "$remote" || ! git -C "$dir" fetch -q origin; then
    fail "${host}_should_find_a_baseline_committed_locally: cannot make the remote"
    return
  fi
  run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
  check_run "${host}_should_find_a_baseline_committed_locally" 0 "^pass: " \
    "^baseline: baselines/$base_branch\.json at refs/heads/$base_branch \([0-9a-f]{12}\)\$" \
    "err:^gate: baseline: read refs/heads/$base_branch, which has 1 commit refs/remotes/origin/$base_branch has not"
  git -C "$dir" remote remove origin
}

# wall_clock HOST DIR BUILD_DIR REBUILD: on the branch with the planted regression, built: the
# host's native builds (pkg-config's costgate-native, where the install has it) give the wall
# clock of head and baseline beside the regression, the baseline's built by the host's command
# in a worktree, and the second opinion; without them, one informational sentence, a notice on
# GitHub and never an error; the regression's annotations name the library's source as the
# repository does (never through the build directory, as "builddir/../lib.c"). The build is
# made whole again after.
wall_clock() {
  local host=$1 dir=$2 build_dir=$3 rebuild=$4
  no_wall=()
  if [ ! -f "$prefix/lib/pkgconfig/costgate-native.pc" ]; then
    skip "${host}_should_time_its_native_builds_beside_a_regression: costgate was installed without gperftools"
  elif [ ! -f "$dir/$build_dir/scenarios/native/manifest.txt" ]; then
    fail "${host}_should_build_the_native_scenarios_where_costgate_native_is_installed"
  else
    run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
    check_run "${host}_should_time_its_native_builds_beside_a_regression" 1 \
      "^[a-z0-9_]+: wall clock head [0-9]+\.[0-9]{2} s, baseline [0-9]+\.[0-9]{2} s over [0-9]+ rounds \([-+][0-9]+ %\): instructions up, " \
      "err:^gate: second opinion: [0-9]+ of [0-9]+ scenarios behave alike natively\$"
  fi
  rm -rf "${dir:?}/$build_dir/scenarios/native"
  GITHUB_ACTIONS=true run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
  check_run "${host}_without_native_builds_should_say_so_in_one_sentence_as_a_notice" 1 \
    "^[a-z0-9_]+: wall clock not compared: the build has no native scenarios \(docs/wall-clock\.md\)\$" \
    "^::notice title=costgate%3A [a-z0-9_]+ wall clock::[a-z0-9_]+: wall clock not compared: the build has no native scenarios" \
    "!^::(error|warning) .*wall clock" \
    "^::error file=[a-z0-9_]+\.c,line=[0-9]+,title=" "!^::[a-z]+ file=([^,]*/)?\.\.(/|,)"
  no_wall=(--no-wall-check)
  "$rebuild" || fail "${host}: cannot build it again after the native scenarios were removed"
}

# gate_host HOST DIR BUILD_DIR REBUILD PLANT [FLAGS REFUSE FIX]: the whole adoption of one host,
# built in DIR's BUILD_DIR by the command REBUILD (a function): the baseline saved and committed
# on $base_branch, a branch with PLANT (a function changing the library in DIR) failing with exit
# 1, and a branch changing nothing measured passing with exit 0. With FLAGS (a function that
# changes the flags the host builds with in DIR's build files, leaving the build to REBUILD):
# on a branch committing that,
# the stored baseline is another toolchain's and the base is built by the host's own command in
# a worktree and judged (exit 0 unchanged, exit 1 with PLANT). With REFUSE (a function that
# builds DIR without optimisation and echoes that build's directory): gate refuses it (exit 2)
# naming the fix for the host (FIX, an extended regular expression).
gate_host() {
  local host=$1 dir=$2 build_dir=$3 rebuild=$4 plant=$5 flags=${6:-} refuse=${7:-} fix=${8:-}
  local baseline_line="^baseline: baselines/$base_branch\.json at refs/heads/$base_branch \([0-9a-f]{12}\)\$"
  run_gate "$dir" --build-dir "$build_dir" --save-baseline "$base_branch"
  if ! check_run "${host}_should_save_a_baseline_on_${base_branch}" 0 "^pass: " ||
    [ ! -s "$dir/baselines/$base_branch.json" ]; then
    return 1
  fi
  commit "$dir" "baseline of $base_branch"
  git -C "$dir" checkout -q -b dearer "$base_branch"
  if "$plant" "$dir" && commit "$dir" "a dearer library" && "$rebuild"; then
    run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
    check_run "${host}_should_fail_a_planted_regression" 1 "$baseline_line" "^fail: "
    wall_clock "$host" "$dir" "$build_dir" "$rebuild"
  else
    fail "${host}_should_fail_a_planted_regression: cannot plant or build it"
  fi
  git -C "$dir" checkout -q -b unchanged "$base_branch"
  printf '\nA line of documentation.\n' >>"$dir/README.md"
  if commit "$dir" "documentation only" && "$rebuild"; then
    run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
    check_run "${host}_should_pass_an_unchanged_head" 0 "$baseline_line" "^pass: "
    local_baseline "$host" "$dir" "$build_dir"
  else
    fail "${host}_should_pass_an_unchanged_head: cannot build it"
  fi
  if [ -n "$flags" ]; then
    local worktree="err:^gate: the stored baseline is not comparable \(.*\): measuring refs/heads/$base_branch here in a temporary worktree\$"
    git -C "$dir" checkout -q -b flags-changed unchanged
    if "$flags" "$dir" && commit "$dir" "other flags" && "$rebuild"; then
      run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
      check_run "${host}_should_build_the_base_with_its_command_when_the_flags_change" 0 \
        "$worktree" "^pass: " "^baseline: refs/heads/$base_branch \([0-9a-f]{12}\) measured here in a temporary worktree "
    else
      fail "${host}_should_build_the_base_with_its_command_when_the_flags_change: cannot change the flags"
    fi
    git -C "$dir" checkout -q -b flags-changed-dearer dearer
    if "$flags" "$dir" && commit "$dir" "other flags" && "$rebuild"; then
      run_gate "$dir" --build-dir "$build_dir" --baseline="$base_branch"
      check_run "${host}_should_fail_a_planted_regression_with_the_flags_changed" 1 "$worktree" "^fail: "
    else
      fail "${host}_should_fail_a_planted_regression_with_the_flags_changed: cannot build it"
    fi
  fi
  if [ -n "$refuse" ]; then
    local debug_dir
    git -C "$dir" checkout -q unchanged
    if debug_dir=$("$refuse" "$dir"); then
      run_gate "$dir" --build-dir "$debug_dir" --baseline="$base_branch"
      check_run "${host}_should_refuse_a_build_without_optimisation" 2 \
        "err:^gate: error: scenario '[a-z0-9_]+': its project code was compiled without optimisation: [^ ]+\.c \(.*\); $fix, or declare it intended"
    else
      fail "${host}_should_refuse_a_build_without_optimisation: cannot build it"
    fi
  fi
  no_machine_paths "$host" "$dir"
}
