#!/usr/bin/env bash
# Runs gate's own code under valgrind's memcheck: every unit-test executable of the normal build
# (build/), then one real measurement, `gate -s consume_raw --messages 10`, with gate itself under
# memcheck and its valgrind children left alone (--trace-children=no). Any memcheck error, or a
# definite or indirect leak, fails that run (exit 99 from memcheck). The runs go as many at once
# as there are processors; their lines are printed in a fixed order.
#
#   tools/memcheck.sh            prints a line per run and "N passed, M failed" last
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

build="build"
leak_kinds="definite,indirect"
memcheck=(valgrind --tool=memcheck --leak-check=full "--errors-for-leak-kinds=$leak_kinds"
  "--show-leak-kinds=$leak_kinds" --error-exitcode=99 --track-origins=yes --trace-children=no)
export LC_ALL=C
# Cases that cannot pass under valgrind, whatever gate does: valgrind emulates execve and, when
# the program does not exist, kills the child itself ("EXEC FAILED: I can't recover from execve()
# failing") before gate's child can report ENOENT, so the child is seen to exit 127 instead.
# Each is "EXECUTABLE:CASE"; any other failed case fails the run. A row of a table fails as
# itself and as the case that runs the table (RUN_ROWS), so both are named; another row failing
# still names itself.
valgrind_only_failures=("test_environment:collect_should_fail_naming_the_path_when_valgrind_does_not_exist"
  "test_environment:collect_should_ask_valgrind_its_version")

if ! command -v valgrind >/dev/null 2>&1; then
  echo "memcheck: error: valgrind not found (tools/install-deps.sh)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if ! { cmake -S . -B "$build" >/dev/null && cmake --build "$build" -j "$(nproc)" >/dev/null; }; then
  echo "memcheck: error: cannot build $build" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# only_valgrind_failures NAME: true when every case NAME printed as FAIL is on the list above.
only_valgrind_failures() {
  local name=$1 case_name known entry
  mapfile -t cases < <(sed -n 's/^FAIL \([a-z0-9_]*\)$/\1/p' "$work/$name.out")
  [ "${#cases[@]}" -gt 0 ] || return 1
  for case_name in "${cases[@]}"; do
    known=no
    for entry in "${valgrind_only_failures[@]}"; do
      [ "$entry" = "$name:$case_name" ] && known=yes
    done
    [ "$known" = yes ] || return 1
  done
  note=" (failed under valgrind only, as expected: ${cases[*]})"
}

# check NAME COMMAND...: runs COMMAND under memcheck from the current directory; passes when it
# exits 0 with no error, or 77 (a case it skipped here, check.h) with no error.
check() {
  local name=$1 log="$work/$1.log" status
  note=""
  shift
  "${memcheck[@]}" --log-file="$log" "$@" >"$work/$name.out" 2>&1
  status=$?
  if [ "$status" -eq 77 ] && grep -q 'ERROR SUMMARY: 0 errors' "$log"; then
    note=" (skipped here: $(sed -n 's/^skip //p' "$work/$name.out" | head -n 3 | tr '\n' ' '))"
    status=0
  fi
  if [ "$status" -eq 0 ] || { [ "$status" -eq 1 ] && grep -q 'ERROR SUMMARY: 0 errors' "$log" &&
    only_valgrind_failures "$name"; }; then
    echo "ok   $name ($(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' "$log" | head -n 1))$note"
    return 0
  fi
  if [ "$status" -eq 99 ]; then
    echo "FAIL $name: memcheck found errors or leaks:"
    grep -E '^==[0-9]+== ' "$log" | sed -n '/Invalid\|uninitialised\|definitely lost\|indirectly lost\|Mismatched\|overlap/,+12p' | head -n 40
    grep -E 'ERROR SUMMARY' "$log"
  else
    echo "FAIL $name: exit $status, memcheck clean; what failed:"
    grep -B 12 '^FAIL ' "$work/$name.out" | grep -v '^ok ' | head -n 30
    grep -q '^FAIL ' "$work/$name.out" || tail -n 15 "$work/$name.out"
  fi
  return 1
}

# start NAME COMMAND...: check in the background, its line into $work/NAME.result and its status
# into NAME.status, once fewer runs than processors are going.
slots=$(nproc 2>/dev/null || echo 1)
running=0 names=()
start() {
  local name=$1
  if [ "$running" -ge "$slots" ]; then
    wait -n
    running=$((running - 1))
  fi
  names+=("$name")
  { check "$@" >"$work/$name.result" 2>&1; echo $? >"$work/$name.status"; } &
  running=$((running + 1))
}

mapfile -t tests < <(find "$build/tests" -maxdepth 1 -type f -name 'test_*' -perm -u+x | sort)
passed=0 failed=0
if [ "${#tests[@]}" -eq 0 ]; then
  echo "FAIL no unit-test executables in $build/tests"
  failed=$((failed + 1))
fi
# From the tests' build directory, as ctest runs them (test_scenario runs ../scenarios/...).
cd "$build/tests" || exit 2
for test in "${tests[@]}"; do
  start "$(basename "$test")" "./$(basename "$test")"
done
cd ../.. || exit 2

start gate_consume_raw "$build/gate/gate" --build-dir "$build" -s consume_raw --messages 10 \
  --json "$work/results.json" --raw-dir "$work/raw"
start gate_manifest "$build/gate/gate" manifest --quiet --output-dir "$work/manifest" \
  --cflags '-O2 -g' "$build/scenarios/consume_raw"

wait
for name in "${names[@]}"; do
  cat "$work/$name.result"
  if [ "$(cat "$work/$name.status" 2>/dev/null)" = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
