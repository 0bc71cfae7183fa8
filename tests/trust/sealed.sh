#!/usr/bin/env bash
# The program measured is the program built from the pull request's sources. A scenario whose
# --describe renames a cheaper build of itself over its own executable either cannot (the runs
# see the build read-only: the dearer program is measured, exit 1) or is caught by the hashes
# checked before each run (exit 3, also forced here by refusing the runs their own namespaces).
# A build file that compiles the base commit's copy of a source passes its own check job, and is
# caught where trusted code builds the same sources: gate merge --check-build (exit 3), which an
# honest rebuild passes.
# Usage: sealed.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"
base=$(git -C "$repo" rev-parse main)

# An honest rebuild at the same path makes the same programs: --check-build passes.
run_gate "$repo" --json "$work/main.json"
rm -rf "$repo/build"
build "$repo"
(cd "$repo" && exec "$gate" merge --build-dir build --check-build build --json "$work/merged.json" \
  --raw-dir "$work/merge-raw" "$work/main.json") >"$out" 2>"$err"
code=$?
check_run "check_build_should_pass_an_honest_rebuild" 0 "^pass: 2 scenarios within their limits"

# The change: 3 % dearer per message; its --describe swaps in the base commit's cheaper build.
dearer swap
cat >>"$repo/scenarios/work.c" <<'C'

#include <stdio.h>

__attribute__((constructor)) static void swap_in(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--describe") == 0)
		rename("../cheap/work", "work");
}
C
cat >>"$repo/CMakeLists.txt" <<'CMAKE'
execute_process(COMMAND git show HEAD~1:scenarios/work.c WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_FILE ${CMAKE_BINARY_DIR}/cheap_work.c)
add_executable(cheap_work ${CMAKE_BINARY_DIR}/cheap_work.c)
target_compile_options(cheap_work PRIVATE -O2 -g)
target_link_libraries(cheap_work PRIVATE costgate::harness)
set_target_properties(cheap_work PROPERTIES OUTPUT_NAME work
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/cheap)
CMAKE
{ commit "$repo" "dearer, swapping in a cheaper build at --describe" && build "$repo" &&
  [ -x "$repo/build/cheap/work" ]; } || setup_fail "no cheaper copy built beside the scenario"
built=$(sha256sum <"$repo/build/scenarios/work")

run_gate "$repo" --baseline=main --base-commit "$base" -v
if grep -q "read-only to the runs" "$err"; then
  check_run "describe_swapping_its_executable_should_measure_the_built_one" 1 \
    "^fail: 1 regressed \(work\)\$"
  if [ "$(sha256sum <"$repo/build/scenarios/work")" != "$built" ]; then
    fail "the_read_only_build_should_keep_the_executable"
  fi
else
  check_run "describe_swapping_its_executable_should_exit_3" 3 \
    "scenario 'work': '.*/build/scenarios/work' changed after it was built, before its (callgrind|dhat) run at [0-9]+"
fi

# Where a run cannot have namespaces of its own (user namespaces refused), the build stays
# writable: the swap happens, and the hashes catch it before the first run.
build "$repo"
if unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_user_namespaces' 2>/dev/null; then
  (cd "$repo" && exec unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' \
    sh "$gate" --build-dir build -j 2 --messages "$messages" -v --baseline=main \
    --base-commit "$base") >"$out" 2>"$err"
  code=$?
  check_run "describe_swapping_its_executable_without_namespaces_should_exit_3" 3 \
    "err:the build: writable to the runs" \
    "scenario 'work': '.*/build/scenarios/work' changed after it was built, before its (callgrind|dhat) run at [0-9]+"
else
  echo "note: no user namespaces here; the case above was the writable one"
fi

# A build file that compiles the base commit's copy of the scenario instead of the change's:
# the change's own check passes, a trusted build of its sources (with the base's build files)
# makes another program.
dearer other_source
cat >>"$repo/CMakeLists.txt" <<'CMAKE'
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/src)
execute_process(COMMAND git show HEAD~1:scenarios/work.c WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_FILE ${CMAKE_BINARY_DIR}/src/work.c)
CMAKE
# shellcheck disable=SC2016 # for CMake to expand
sed -i 's|SOURCES scenarios/work.c|SOURCES ${CMAKE_BINARY_DIR}/src/work.c|' "$repo/CMakeLists.txt"
commit "$repo" "dearer, building the base's copy" && rm -rf "$repo/build" && build "$repo"
run_gate "$repo" --baseline=main --base-commit "$base" --json "$work/change.json"
check_run "other_source_fools_its_own_check_job" 0 "^pass: 2 scenarios within their limits"
git -C "$repo" show "$base:CMakeLists.txt" >"$repo/CMakeLists.txt"
rm -rf "$repo/build"
build "$repo"
(cd "$repo" && exec "$gate" merge --build-dir build --check-build build --json "$work/merged.json" \
  --raw-dir "$work/merge-raw" --baseline=main --base-commit "$base" "$work/change.json") \
  >"$out" 2>"$err"
code=$?
check_run "check_build_should_catch_a_build_of_another_source" 3 \
  "err:--check-build: scenario 'work': 'build/scenarios/work' built here \(sha256 [0-9a-f]{16}\.\.\.\) is not the program measured" \
  "!."

finish
