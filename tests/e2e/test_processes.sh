#!/usr/bin/env bash
# No process outlives gate, and no output is unbounded, under real valgrind: a scenario that
# leaves a detached child running fails (exit 3, left 1 process running), the child is killed
# when its run ends and writes nothing afterwards; a scenario that writes 2 MB keeps only the
# first and last 64 KiB with a line saying how much was dropped; a gate killed with SIGKILL
# takes its valgrind runs with it.
# Usage: test_processes.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2")
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
tmp=$(temp_dir processes) || exit 2
cd "$tmp" || exit 2

# --- a detached child: killed at the end of its run, which fails. Under valgrind the fork itself
# is seen first (the child writes files of its own pid: "scenario forked"); a process that escaped
# that is what "left N processes running" reports. Either way the run fails and nothing survives.
manifest "$tmp/child" "leaves_a_child=$build/tests/scenarios/leaves_a_child"
"$gate" --build-dir "$tmp/child" --messages 10 --json "$tmp/child.json" --raw-dir "$tmp/child-raw" \
  -q >"$tmp/stdout" 2>"$tmp/stderr"
code=$?
if [ "$code" -eq 3 ] &&
   grep -qE '^leaves_a_child: failed to measure: .* at [0-9]+:? (left 1 process running \(killed\)|scenario forked: [0-9]+ processes ran under valgrind)' "$tmp/stdout"; then
  pass "a_run_that_leaves_a_process_running_should_fail_with_exit_3"
else
  fail "a_run_that_leaves_a_process_running_should_fail_with_exit_3: exit $code: $(cat "$tmp/stdout" "$tmp/stderr")"
fi
# The children slept 2 s before ending (and, under valgrind, writing their output files).
before=$(cd "$tmp/child-raw" && ls -l --time-style=+%s.%N . | md5sum)
sleep 3
after=$(cd "$tmp/child-raw" && ls -l --time-style=+%s.%N . | md5sum)
if [ "$before" = "$after" ] && ! pgrep -f "$build/tests/scenarios/leaves_a_child|\./leaves_a_child" >/dev/null; then
  pass "no_process_of_the_run_should_outlive_it_or_touch_its_files_later"
else
  fail "no_process_of_the_run_should_outlive_it_or_touch_its_files_later: $(pgrep -af leaves_a_child)"
fi

# --- 2 MB of output: the first and last 64 KiB kept, and what was dropped said
manifest "$tmp/loud" "prints_a_lot=$build/tests/scenarios/prints_a_lot"
"$gate" --build-dir "$tmp/loud" --messages 10 --json "$tmp/loud.json" --raw-dir "$tmp/loud-raw" \
  -q >"$tmp/stdout" 2>"$tmp/stderr"
code=$?
log="$tmp/loud-raw/callgrind.log.prints_a_lot.20" # the run at 2N: what the program printed
# valgrind's own log (its "==PID==" lines) follows the scenario's bounded output.
size=$(grep -av '^==[0-9]*==' "$log" 2>/dev/null | wc -c)
if [ "$code" -eq 0 ] && [ "$size" -le $((128 * 1024 + 200)) ] && [ "$size" -ge $((128 * 1024)) ]; then
  pass "a_run_log_should_keep_128_KiB_of_2_MB_and_still_measure ($size bytes)"
else
  fail "a_run_log_should_keep_128_KiB_of_2_MB_and_still_measure: exit $code, $size bytes: $(cat "$tmp/stdout" "$tmp/stderr")"
fi
if grep -q '^stdout line 00000 of 32768' "$log" && grep -q '^stderr line 32767 of 32768' "$log" &&
   grep -qE '^\[gate: [0-9]+ bytes of output dropped here, of [0-9]+; the log keeps the first and the last 64 KiB\]$' "$log"; then
  pass "a_run_log_should_keep_the_first_and_last_lines_and_say_how_much_was_dropped"
else
  fail "a_run_log_should_keep_the_first_and_last_lines_and_say_how_much_was_dropped: $(head -c 300 "$log")"
fi

# --- SIGKILL: gate's valgrind runs die with it
"$gate" --build-dir "$build" --scenario consume_json --messages 20000 --jobs 2 \
  --json "$tmp/killed.json" --raw-dir "$tmp/killed-raw" -q >/dev/null 2>&1 &
gate_pid=$!
runs=""
for _ in $(seq 1 100); do
  runs=$(pgrep -P "$gate_pid" | xargs)
  [ "$(wc -w <<<"$runs")" -ge 2 ] && break
  sleep 0.1
done
kill -KILL "$gate_pid"
wait "$gate_pid" 2>/dev/null
sleep 1
alive=""
for pid in $runs; do # a zombie is dead (a container's init may never reap it)
  state=$(ps -o stat= -p "$pid" 2>/dev/null)
  [ -n "$state" ] && [ "${state#Z}" = "$state" ] && alive="$alive $pid"
done
if [ -n "$runs" ] && [ -z "$alive" ]; then
  pass "valgrind_runs_should_die_with_a_gate_killed_by_sigkill ($(wc -w <<<"$runs") runs)"
else
  fail "valgrind_runs_should_die_with_a_gate_killed_by_sigkill: runs '$runs', still alive '$alive'"
  for pid in $alive; do kill -KILL "$pid"; done
fi

finish
