# shellcheck shell=bash
# The preamble every shell test shares (sourced, not run):
#   # shellcheck source=tests/lib.sh
#   source "$(dirname "$0")/../lib.sh"
# It sets -u and LC_ALL=C, counts cases with pass and fail (one line each: "ok   NAME" or
# "FAIL NAME: why"), and ends with finish: the "P passed, F failed" line the suite's logs show
# and a status that fails when a case did.
set -u
export LC_ALL=C
failures=0 passed=0 skipped=0

fail() { echo "FAIL $*"; failures=$((failures + 1)); }
pass() { echo "ok   $*"; passed=$((passed + 1)); }
# skip NAME: WHY: a case that cannot run here. It is no pass: the test then ends as skipped
# (exit 77, ctest's SKIP_RETURN_CODE for every test of the suite) unless a case failed.
skip() { echo "skip $*"; skipped=$((skipped + 1)); }

# check NAME COMMAND...: passes NAME when COMMAND succeeds, else fails it.
check() {
  local name=$1
  shift
  if "$@"; then pass "$name"; else fail "$name"; fi
}

# check_grep NAME FILE [GREP_OPTION...] PATTERN: passes NAME when grep, with those options,
# finds PATTERN in FILE; else fails it and shows FILE.
check_grep() {
  local name=$1 file=$2
  shift 2
  if grep -q "$@" "$file"; then
    pass "$name"
  else
    fail "$name: '${*: -1}' is not in $file"
    show "$file"
  fi
}

# check_run NAME CODE [PATTERN...]: the last run (its exit status in $code, its output in the
# files $out and $err) exited CODE and matched every extended regular expression: on stdout, or
# on stderr for a pattern written "err:PATTERN"; "!PATTERN" must not match stdout.
# shellcheck disable=SC2154 # code, out and err are the calling test's run_gate's
check_run() {
  local name=$1 expected=$2 pattern
  shift 2
  if [ "$code" -ne "$expected" ]; then
    fail "$name: exit $code, expected $expected"
    echo "    stdout:" && show "$out"
    echo "    stderr:" && show "$err"
    return 1
  fi
  for pattern in "$@"; do
    case $pattern in
    err:*)
      grep -qE -- "${pattern#err:}" "$err" && continue
      fail "$name: stderr does not match '${pattern#err:}'"
      show "$err"
      return 1
      ;;
    '!'*)
      grep -qE -- "${pattern#!}" "$out" || continue
      fail "$name: stdout matches '${pattern#!}'"
      show "$out"
      return 1
      ;;
    *)
      grep -qE -- "$pattern" "$out" && continue
      fail "$name: stdout does not match '$pattern'"
      show "$out"
      echo "    stderr:" && show "$err"
      return 1
      ;;
    esac
  done
  pass "$name"
}

# first_row HEADING [FILE]: the first row of the table whose heading line starts with HEADING in
# FILE, $out unless given: the line two below the heading, under the column names.
first_row() {
  awk -v heading="$1" 'index($0, heading) == 1 { getline; getline; print; exit }' "${2:-$out}"
}

# table_rows HEADING [FILE]: every row of that table, the indented lines under its column names.
table_rows() {
  awk -v heading="$1" 'index($0, heading) == 1 { inside = 1; getline; next }
    inside && /^  / { print; next } { inside = 0 }' "${2:-$out}"
}

# check_first_row NAME HEADING REGEX: passes NAME when first_row HEADING matches the extended
# regular expression REGEX; else fails it, naming that row, and shows $out.
check_first_row() {
  local row
  row=$(first_row "$2")
  if [[ $row =~ $3 ]]; then
    pass "$1"
  else
    fail "$1: first row '$row'"
    show "$out"
  fi
}

# show FILE: the file indented under a failure.
show() { sed 's/^/    | /' "$1"; }

# finish: the summary line; the status is 1 when a case failed, else 77 when one was skipped,
# else 0.
finish() {
  if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failures failed, $skipped skipped"
  else
    echo "$passed passed, $failures failed"
  fi
  [ "$failures" -eq 0 ] || return 1
  [ "$skipped" -eq 0 ] || return 77
}

# setup_fail WHY [FILE]: a step the cases need failed: says so, with FILE shown under it, and ends
# the test with its summary, which counts the cases that ran before.
setup_fail() {
  fail "setup: $1"
  [ $# -lt 2 ] || show "$2"
  finish
  exit 1
}

# python3: Debian's interpreter where there is one (tools/install-deps.sh --tests installs it),
# else the one on PATH, resolved once. Through a version manager's shim on PATH (pyenv's is a
# shell script that works out the version on every call) each call costs 0.4 s instead of 0.05,
# and the suite calls python3 several hundred times.
if [ -x /usr/bin/python3 ]; then
  python3_interpreter=/usr/bin/python3
else
  python3_interpreter=$(command python3 -c 'import sys; print(sys.executable)' 2>/dev/null) ||
    python3_interpreter=python3
fi
python3() { "$python3_interpreter" "$@"; }

# python_with MODULE: prints the first python3 that imports MODULE, or nothing. Debian's comes
# first: its packages (tools/install-deps.sh --tests) are not those of another python3 on PATH.
python_with() {
  local candidate
  for candidate in /usr/bin/python3 "$python3_interpreter"; do
    if "$candidate" -c "import $1" 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
}

# json_edit IN OUT CODE: the JSON document IN changed by the Python statements CODE, which see it
# as `document` (a forged or older results.json, say), written to OUT indented as gate writes it.
json_edit() {
  python3 -c 'import json, sys
document = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(document, open(sys.argv[2], "w"), indent="\t")' "$@"
}

# json_value FILE EXPRESSION: the Python expression evaluated on the JSON document FILE (as `d`),
# printed: json_value results.json "d['code'][0]['messages']".
json_value() {
  python3 -c 'import json, sys
document = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"d": document}))' "$1" "$2"
}

# bare_scenario FILE NAME WHAT REGION [TOP]: writes FILE, the C source of a scenario without the
# harness (what gate must survive, not what it measures): it describes itself as NAME, "test only:
# WHAT", gated, with floors of 0, and its measured region runs the statements REGION; TOP, C put
# before the region (a variable it uses).
bare_scenario() {
  cat >"$1" <<SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

${5:-}
/* The region gate checks for in the executable before it runs it. */
__attribute__((noinline, used)) void costgate_measured_region(void)
{
	$4
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--describe") == 0) {
		puts("{\\"name\\":\\"$2\\",\\"title\\":\\"test only: $3\\",\\"gated\\":true,"
		     "\\"region\\":\\"costgate_measured_region\\",\\"snapshots\\":true,"
		     "\\"floors\\":{\\"steady_allocations\\":0,\\"cold_allocations\\":0}}");
		return 0;
	}
	costgate_measured_region();
	return 0;
}
SOURCE
}

# manifest DIR NAME=PATH...: a build directory of its own, DIR, whose manifest has the compiler
# and flags of $build's and lists just these executables.
manifest() {
  local directory=$1 entry
  shift
  mkdir -p "$directory/scenarios"
  grep -E '^(compiler|flags) ' "$build/scenarios/manifest.txt" >"$directory/scenarios/manifest.txt"
  for entry in "$@"; do
    echo "scenario ${entry%%=*} ${entry#*=}" >>"$directory/scenarios/manifest.txt"
  done
}

# fixture_project FIXTURE PROJECT SOURCE_DIR: a copy in PROJECT of a test project (FIXTURE's lib/,
# scenarios/ and CMakeLists.txt.in, whose @COSTGATE_SOURCE@ becomes SOURCE_DIR), with
# tests/scenarios/test_only.h beside its scenarios; then fixture_build (again after each change)
# configures and builds it in PROJECT/build, or ends the test as a failed set-up showing the end of
# the build's log.
fixture_project() {
  mkdir -p "$2"
  cp -r "$1/lib" "$1/scenarios" "$2/"
  cp "$3/tests/scenarios/test_only.h" "$2/scenarios/"
  sed "s|@COSTGATE_SOURCE@|$3|" "$1/CMakeLists.txt.in" >"$2/CMakeLists.txt"
}
fixture_build() {
  { cmake -S "$1" -B "$1/build" && cmake --build "$1/build" -j 2; } >"$1/build.log" 2>&1 ||
    setup_fail "cannot build the fixture project: $(tail -n 5 "$1/build.log")"
}

# fixture_gate DIR SIDE MESSAGES [OPTION...]: $gate on the fixture project built in $project, quiet,
# at MESSAGES messages, with the OPTIONs: its results in DIR/SIDE.json, its raw files in
# DIR/raw-SIDE, its stdout and stderr in DIR/SIDE.out and DIR/SIDE.err. Sets $code and returns it.
# shellcheck disable=SC2154 # gate and project are the calling test's
fixture_gate() {
  local dir=$1 side=$2 messages=$3
  shift 3
  "$gate" --build-dir "$project/build" --messages "$messages" --quiet --json "$dir/$side.json" \
    --raw-dir "$dir/raw-$side" "$@" >"$dir/$side.out" 2>"$dir/$side.err"
  code=$?
  return "$code"
}

# fixture_baseline FIXTURE DIR SOURCE_DIR MESSAGES: $project, FIXTURE's project copied into
# DIR/project and built, measured unchanged as the base (fixture_gate DIR base MESSAGES); when it
# does not build or does not pass, the test ends as a failed set-up.
fixture_baseline() {
  project=$2/project
  fixture_project "$1" "$project" "$3"
  fixture_build "$project"
  fixture_gate "$2" base "$4" ||
    setup_fail "the unchanged project does not pass: exit $code: $(cat "$2/base.out" "$2/base.err")"
}

# setup_gate: makes $gate and $build (set from the test's arguments) absolute, since the cases may
# run from another directory, or ends the test as a failed set-up when there is no gate or no
# manifest of scenarios in the build.
setup_gate() {
  gate=$(realpath -- "$gate") build=$(realpath -- "$build")
  if [ ! -x "$gate" ] || [ ! -f "$build/scenarios/manifest.txt" ]; then
    setup_fail "no gate at '$gate' or no manifest in '$build/scenarios' (build first)"
  fi
}

# temp_dir NAME: prints a new directory under $TMPDIR (costgate-PID-NAME.XXXXXX), removed with
# everything in it when the test exits: VAR=$(temp_dir NAME) || exit 2. A test that sets its own
# EXIT trap removes its directories itself.
lib_temp_root=${TMPDIR:-/tmp}
temp_dir() { mktemp -d "$lib_temp_root/costgate-$$-$1.XXXXXX"; }
trap 'rm -rf "$lib_temp_root/costgate-$$-"*' EXIT

# git_isolate: git that reads no system or user configuration and never prompts, so a test's
# repositories behave the same on every machine.
git_isolate() {
  export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
}

# git_fixed: git_isolate, and every commit made at one date, so that hashes repeat.
git_fixed() {
  git_isolate
  export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
}

# work_dir NAME: $work, a temporary directory removed at exit with what temp_dir made, or kept
# and named on stderr when COSTGATE_E2E_KEEP is set. A test that must do something first (wait
# for the processes it started) defines before_cleanup.
work_dir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/costgate-$1.XXXXXX") || exit 2
  trap lib_cleanup EXIT
  trap 'exit 130' INT TERM
}
lib_cleanup() {
  if declare -F before_cleanup >/dev/null; then before_cleanup; fi
  if [ -n "${COSTGATE_E2E_KEEP:-}" ]; then
    echo "kept $work" >&2
  else
    rm -rf "$work"
  fi
  rm -rf "$lib_temp_root/costgate-$$-"*
}

# program_total FILE: callgrind_annotate's PROGRAM TOTALS (Ir) of a callgrind file, digits only.
program_total() {
  callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }'
}

# allocator_total FILE: the inclusive Ir of glibc's allocator entry points (malloc, calloc,
# realloc, free, posix_memalign, aligned_alloc, memalign) in callgrind_annotate --inclusive=yes:
# the allocator's instructions, for a program none of whose entry points calls another.
allocator_total() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    awk '/:(malloc|calloc|realloc|free|posix_memalign|aligned_alloc|memalign) \[/ {
      gsub(/,/, "", $1); sum += $1 } END { print sum + 0 }'
}

# callgrind_parts RAW SCENARIO COUNT N: a line each, the callgrind parts of SCENARIO's run at N
# in RAW that add up to its counts at COUNT (1, N or 2N; docs/design.md rule 10): .start and .0-1,
# then .1-N, then .N-2N.
callgrind_parts() {
  local raw=$1 name=$2 count=$3 n=$4
  printf '%s\n' "$raw/callgrind.out.$name.start" "$raw/callgrind.out.$name.0-1"
  [ "$count" -lt "$n" ] || printf '%s\n' "$raw/callgrind.out.$name.1-$n"
  [ "$count" -lt $((2 * n)) ] || printf '%s\n' "$raw/callgrind.out.$name.$n-$((2 * n))"
}

# callgrind_sum FUNCTION RAW SCENARIO COUNT N: FUNCTION (program_total, allocator_total or
# program_own) of each of those parts, added up: the count at COUNT by hand. Prints nothing when
# a part is missing or unreadable.
callgrind_sum() {
  local function=$1 sum=0 file value
  shift
  while IFS= read -r file; do
    value=$("$function" "$file")
    [ -n "$value" ] || return 1
    sum=$((sum + value))
  done < <(callgrind_parts "$@")
  echo "$sum"
}

# program_own FILE: the program's own instructions by hand, the total less the allocator's.
program_own() {
  local total allocator
  total=$(program_total "$1") allocator=$(allocator_total "$1")
  [ -n "$total" ] && echo $((total - allocator))
}
