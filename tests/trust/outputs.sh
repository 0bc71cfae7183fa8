#!/usr/bin/env bash
# What gate writes, when two gates or a full disk get in the way: a second gate that would write
# the same raw directory or results file exits 2 at once naming the first's pid, and the first
# finishes untouched (no false "scenario forked"); gates with their own outputs share a build;
# results.json on a full disk (/dev/full) is the error on the verdict line, never a "pass" above
# it, and the device is left a device; a scenario whose --describe fails is named in the progress
# lines, never "(null)".
# Usage: outputs.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

# A scenario whose program exits 1 when asked to describe itself: glibc hands a constructor argv.
# The rest of it is any test-only scenario's (tests/scenarios/test_only.h).
add_describe_failure() {
  cat >"$1/scenarios/no_describe.c" <<'C'
#include <stdlib.h>
#include <string.h>

#include "test_only.h"

__attribute__((constructor)) static void refuse(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--describe") == 0)
		exit(1);
}

TEST_ONLY_SCENARIO("no_describe", "exits when asked to describe itself", .handle = ignore_message);
C
  add_scenarios "$1" no_describe
}

{ new_repo "$repo" && add_describe_failure "$repo" && build "$repo"; } ||
  setup_fail "cannot make and build the demo repository"

# wait_for_lock FILE PID: until FILE holds PID (the first gate has its outputs), at most 60 s.
wait_for_lock() {
  local tries
  for ((tries = 0; tries < 600; tries++)); do
    [ "$(cat "$1" 2>/dev/null)" = "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

# The first gate measures; the others start while it does (5,000 messages, one run at a time:
# seconds under valgrind, as long as the three gates after it take together).
first_out=$work/first.stdout first_err=$work/first.stderr
(cd "$repo" && exec "$gate" --build-dir build -j 1 --messages 5000 -s work) \
  >"$first_out" 2>"$first_err" &
first=$!
if ! wait_for_lock "$repo/build/gate/raw/.gate.lock" "$first"; then
  fail "setup: the first gate never locked its raw directory"
  show "$first_err"
fi

run_gate "$repo" -s work
check_run "second_gate_on_the_same_raw_dir_should_exit_2_naming_the_first" 2 \
  "err:the raw directory '.*/build/gate/raw' is in use by another gate \(pid $first\)" "!."

run_gate "$repo" -s work --raw-dir "$work/own-raw"
check_run "second_gate_writing_the_same_results_should_exit_2_naming_the_first" 2 \
  "err:the results file 'build/gate/results.json' is in use by another gate \(pid $first\)" "!."

run_gate "$repo" -s work --raw-dir "$work/own-raw" --json "$work/own.json"
check_run "gates_with_their_own_outputs_should_share_a_build" 0 "^pass: 1 scenario within its limits"

wait "$first"
code=$?
out=$first_out err=$first_err
check_run "first_gate_should_finish_untouched" 0 "^pass: 1 scenario within its limits"
out=$work/stdout err=$work/stderr

# A full disk: /dev/full takes no byte. The verdict line says so, and nothing says pass. Through a
# link, so that a gate that renamed a file over its --json would replace the link, not the device.
full=$work/full.json
ln -s /dev/full "$full"
run_gate "$repo" -s work --json "$full"
full_error="cannot write '$(regex_escape "$full")': No space left on device"
check_run "results_on_a_full_disk_should_exit_2_on_the_verdict_line" 2 \
  "^fail: results not written: $full_error\$" "!^pass" "err:^gate: error: $full_error"
if [ ! -L "$full" ] || [ ! -c /dev/full ]; then
  fail "a_device_should_be_written_in_place"
fi
if ! tail -n 1 "$out" | grep -q '^fail: results not written'; then
  fail "the_verdict_line_should_be_last"
  show "$out"
fi

# --describe fails: exit 3, the progress lines name the scenario.
run_gate "$repo" -s no_describe -v
check_run "failed_describe_should_exit_3" 3 "scenario 'no_describe': --describe failed" \
  "err:^gate: no_describe callgrind [0-9]+: "
if grep -q '(null)' "$err"; then
  fail "progress_should_never_print_null"
  show "$err"
fi

finish
