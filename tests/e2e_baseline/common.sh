# Shared by the end-to-end baseline tests (sourced, not run): a temporary git repository holding
# a tiny CMake project that includes costgate's cmake/costgate.cmake, and helpers that run the
# real gate in it and check its exit code and output.
# The sourcing script is called as: SCRIPT GATE COSTGATE_SOURCE_DIR
# shellcheck shell=bash

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
if [ $# -ne 2 ]; then
  echo "usage: $0 GATE COSTGATE_SOURCE_DIR" >&2
  exit 2
fi
gate=$1
costgate_source=$2
project_template=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/project
messages=200
code=0
# The native wall-clock check beside an instruction regression builds the baseline in a worktree
# and times both sides: seconds per regression, asserted only where a test sets wall_check=on
# (truth.sh); elsewhere gate runs with --no-wall-check.
wall_check=off

# Git must not read the user's configuration (signing, hooks, templates) nor ask anything.
git_fixed

work_dir e2e-baseline
out=$work/stdout err=$work/stderr
# A killed gate leaves its valgrind runs behind; wait for them before removing their files.
before_cleanup() { wait_for_orphans; }

# new_repo DIR: a git repository on main holding the demo project, one commit, not yet built.
new_repo() {
  local repo=$1 escaped
  mkdir -p "$repo/scenarios" || return 1
  cp "$project_template"/scenarios/*.c "$repo/scenarios/" || return 1
  escaped=$(printf '%s' "$costgate_source" | sed 's/[|&\\]/\\&/g')
  sed "s|@COSTGATE_SOURCE@|$escaped|" "$project_template/CMakeLists.txt.in" >"$repo/CMakeLists.txt" ||
    return 1
  printf 'build/\n' >"$repo/.gitignore"
  git -C "$repo" init -q -b main &&
    git -C "$repo" config user.name "costgate e2e" &&
    git -C "$repo" config user.email "e2e@costgate.invalid" &&
    git -C "$repo" config commit.gpgsign false &&
    git -C "$repo" add -A && git -C "$repo" commit -q -m "demo project"
}

# built_repo DIR: the demo repository made and built; when it cannot be, the test ends as a
# failed set-up.
built_repo() {
  if ! new_repo "$1" || ! build "$1"; then
    setup_fail "cannot make and build the demo repository"
  fi
}

# baseline_of_main DIR [MESSAGE]: the baseline of main saved in DIR, built, and committed with
# MESSAGE ("baseline of main" unless given); when it cannot be, the test ends as a failed set-up
# showing what gate said.
baseline_of_main() {
  run_gate "$1" --save-baseline main
  if [ "$code" -ne 0 ] || [ ! -s "$1/baselines/main.json" ] ||
    ! commit "$1" "${2:-baseline of main}"; then
    setup_fail "no baseline on main (exit $code)" "$err"
  fi
}

# repo_with_baseline DIR: the demo repository made and built, its baseline of main saved and
# committed; a step that fails ends the test as a failed set-up.
repo_with_baseline() {
  built_repo "$1"
  baseline_of_main "$1"
}

# The demo builds, and gate's builds of their baselines (which inherit the environment and the
# configure's cache options): Ninja where there is one (about 40 % less CPU than Makefiles for
# these small builds), and no native variants unless the wall check times them.
command -v ninja >/dev/null 2>&1 && export CMAKE_GENERATOR=Ninja

# build DIR: configures and builds DIR/build; prints the log on failure.
build() {
  local repo=$1 native=OFF
  [ "$wall_check" = on ] && native=ON
  if ! { cmake -S "$repo" -B "$repo/build" -DCOSTGATE_NATIVE_VARIANTS=$native &&
    cmake --build "$repo/build" -j 2; } \
    >"$work/build.log" 2>&1; then
    echo "    build of $repo failed:"
    show "$work/build.log"
    return 1
  fi
}

# add_scenarios DIR NAME...: the demo project in DIR builds scenarios/NAME.c too (the caller
# writes them), beside tests/scenarios/test_only.h, with which a test's own scenarios declare
# themselves; the new sources go at the end of its list, however many it has already.
add_scenarios() {
  local repo=$1 name sources=
  shift
  for name in "$@"; do sources+=" scenarios/$name.c"; done
  cp "$costgate_source/tests/scenarios/test_only.h" "$repo/scenarios/" &&
    sed -i "s|\(SOURCES scenarios/work.c scenarios/steady.c[^)]*\))|\1$sources)|" \
      "$repo/CMakeLists.txt" &&
    grep -qF "$sources)" "$repo/CMakeLists.txt"
}

# commit DIR MESSAGE: commits everything in DIR's working tree.
commit() { git -C "$1" add -A && git -C "$1" commit -q -m "$2"; }

# set_iterations DIR K: the per message loop of the `work` scenario runs K steps.
set_iterations() {
  sed -i "s/^#define WORK_ITERATIONS .*/#define WORK_ITERATIONS $2/" "$1/scenarios/work.c" &&
    grep -q "^#define WORK_ITERATIONS $2\$" "$1/scenarios/work.c"
}

# add_allocation DIR: the `steady` scenario's handler allocates and frees one block per message.
add_allocation() {
  sed -i 's|/\* EXTRA-ALLOCATION \*/|{ void *extra = malloc(length); COSTGATE_KEEP(extra); free(extra); }|' \
    "$1/scenarios/steady.c" && grep -q 'void \*extra = malloc' "$1/scenarios/steady.c"
}

# gate_options: the options every run of gate in these tests starts with.
gate_options() {
  local options=(--build-dir build -j 2 --messages "$messages")
  [ "$wall_check" = on ] || options+=(--no-wall-check)
  printf '%s\n' "${options[@]}"
}

# run_gate DIR ARGS...: runs gate from inside DIR on DIR/build; sets $code, fills $out and $err.
run_gate() {
  local repo=$1 options
  shift
  mapfile -t options < <(gate_options)
  (cd "$repo" && exec "$gate" "${options[@]}" "$@") >"$out" 2>"$err"
  code=$?
}


# per_message SCENARIO: the instr/msg column of SCENARIO's row in the last run's table.
per_message() { awk -v name="$1" '$1 == name && $2 ~ /^[0-9]+\.[0-9]+$/ { print $2; exit }' "$out"; }

# percent HEAD BASE: the change as gate prints it ("+2.99").
percent() { awk -v h="$1" -v b="$2" 'BEGIN { printf "%+.2f", (h - b) * 100 / b }'; }

# regex_escape TEXT: TEXT as a literal in an extended regular expression.
regex_escape() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }

# verdict_state FILE SCENARIO: the state of SCENARIO's row in results.json's verdict.
verdict_state() {
  tr -d ' \t\n' <"$1" | grep -oE "\"name\":\"$2\",\"state\":\"[a-z]+\"" | sed 's/.*"state":"//; s/"$//'
}

# descendants PID: every live process below PID, from /proc (no pgrep on a minimal machine).
descendants() {
  local parent=$1 stat line pid fields
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$stat" || continue
    read -ra fields <<<"${line##*) }"
    [ "${fields[1]:-}" = "$parent" ] || continue
    pid=${stat#/proc/}
    pid=${pid%/stat}
    echo "$pid"
    descendants "$pid"
  done
}

# Processes a SIGKILLed gate left running (its valgrind runs lead their own process groups).
orphans=()
# wait_for_orphans: waits (up to a minute) for them to end; ends the rest by id.
wait_for_orphans() {
  local pid tries
  for pid in "${orphans[@]}"; do
    for ((tries = 0; tries < 600; tries++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
  done
  orphans=()
}

# kill_gate_after SECONDS DIR ARGS...: starts gate like run_gate and SIGKILLs it after SECONDS.
# Sets $code (137 when it was killed, its own code when it ended first).
kill_gate_after() {
  local seconds=$1 repo=$2 pid options
  shift 2
  mapfile -t options < <(gate_options)
  (cd "$repo" && exec "$gate" "${options[@]}" "$@") >"$out" 2>"$err" &
  pid=$!
  sleep "$seconds"
  kill -STOP "$pid" 2>/dev/null # no new run starts while its children are listed
  mapfile -t -O "${#orphans[@]}" orphans < <(descendants "$pid")
  # The braces keep bash's "Killed" notice out of the test's output.
  { kill -KILL "$pid"; wait "$pid"; code=$?; } 2>/dev/null
  wait_for_orphans
}
