#!/usr/bin/env bash
# A scenario that forks under valgrind: every process writes files named by its pid, so the child
# can never overwrite the run's evidence, and more than one process for a run is exit 3
# "scenario forked". The child would outlive its run: gate ends it with the run, so no late file
# appears at all, and nothing the run left is touched.
# Usage: test_fork.sh GATE BUILD_DIR
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$1 build=$2

tmp=$(temp_dir fork) || exit 2
out=$tmp/stdout err=$tmp/stderr

"$gate" --build-dir "$build/tests/evasion/forks" --messages 100 -j 2 --json "$tmp/results.json" \
  --raw-dir "$tmp/raw" >"$out" 2>"$err"
code=$?
# What gate left, right after it ended: name and checksum of every file but the logs of
# processes that may still be running (valgrind appends its summary to those at their exit).
(cd "$tmp/raw" && find . -maxdepth 1 -type f ! -regex '.*\.log\..*\.[0-9]+\.[0-9]+' -printf '%f\n' |
  sort | xargs sha256sum --) >"$tmp/evidence" 2>/dev/null
check_run "a_forking_scenario_should_fail_as_forked" 3 \
  "^forks: failed to measure: (callgrind run at [0-9]+: scenario forked: [2-9] processes ran under valgrind where the harness makes 1 \(pids [0-9]+ and [0-9]+(, \.\.\.)?|dhat run at [0-9]+: scenario forked: [5-9] processes ran under valgrind where the harness makes 4 \(pids [0-9]+, [0-9]+, [0-9]+, [0-9]+ and [0-9]+(, \.\.\.)?); "

# The children sleep one second, then end and write their files.
sleep 3
if (cd "$tmp/raw" && sha256sum --quiet -c "$tmp/evidence") >/dev/null 2>&1; then
  pass "a_child_ending_after_gate_should_not_overwrite_any_file"
else
  fail "a_child_ending_after_gate_should_not_overwrite_any_file"
  show <(cd "$tmp/raw" && sha256sum -c "$tmp/evidence" 2>&1)
fi
late=$(comm -13 <(awk '{ print $2 }' "$tmp/evidence" | sort) <(find "$tmp/raw" -maxdepth 1 -type f -printf '%f\n' | sort) | grep -cE '\.out\.forks\.[0-9]+\.[0-9]+$')
if [ "$late" -eq 0 ]; then
  pass "a_forked_child_should_end_with_its_run_and_write_nothing_late"
else
  fail "a_forked_child_should_end_with_its_run_and_write_nothing_late: $late late output files in $(ls "$tmp/raw")"
fi

finish
