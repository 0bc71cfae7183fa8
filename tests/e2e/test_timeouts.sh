#!/usr/bin/env bash
# Deadlines that scale (no --timeout): a scenario that hangs in its 1-delivery run is killed at
# 60 s and its N and 2N runs are never started; one that hangs only in its 2N run is killed at
# the floor of what its 1 and N runs predict (60 s), not after 600 s. Both in about a minute.
# Usage: test_timeouts.sh GATE BUILD_DIR C_COMPILER
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") compiler=$3
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
tmp=$(temp_dir timeouts) || exit 2
cd "$tmp" || exit 2

# hangs_at_COUNT: describes itself, returns at once below COUNT deliveries, spins from COUNT on.
mkdir -p "$tmp/bin" "$tmp/build/scenarios"
cat >"$tmp/hangs.c" <<'SOURCE'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long spin;

/* The one region function gate's executable check looks for; the hang happens inside it. */
__attribute__((noinline, used)) void costgate_measured_region(unsigned long count);
__attribute__((noinline, used)) void costgate_measured_region(unsigned long count)
{
	if (count >= THRESHOLD)
		for (;;)
			spin++;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--describe") == 0) {
		printf("{\"name\":\"%s\",\"title\":\"test only: hangs\",\"gated\":true,"
		       "\"region\":\"costgate_measured_region\","
		       "\"floors\":{\"steady_allocations\":0,\"cold_allocations\":0}}\n", NAME);
		return 0;
	}
	if (argc == 2)
		costgate_measured_region(strtoul(argv[1], NULL, 10));
	return 0;
}
SOURCE
grep -E '^(compiler|flags) ' "$build/scenarios/manifest.txt" >"$tmp/build/scenarios/manifest.txt"
for threshold in 1 400; do
  name=hangs_at_$threshold
  if ! "$compiler" -O1 -DNAME="\"$name\"" -DTHRESHOLD="$threshold" -o "$tmp/bin/$name" "$tmp/hangs.c"; then
    fail "cannot compile $name"
  fi
  echo "scenario $name $tmp/bin/$name" >>"$tmp/build/scenarios/manifest.txt"
done

start=$SECONDS
"$gate" --build-dir "$tmp/build" --messages 200 --jobs 4 --json "$tmp/results.json" \
  --raw-dir "$tmp/raw" -q >"$tmp/stdout" 2>"$tmp/stderr"
code=$?
elapsed=$((SECONDS - start))
if [ "$code" -eq 3 ] && [ "$elapsed" -lt 150 ]; then
  pass "hanging_scenarios_should_fail_with_exit_3_in_about_a_minute ($elapsed s)"
else
  fail "hanging_scenarios_should_fail_with_exit_3_in_about_a_minute: exit $code in $elapsed s"
fi
if grep -qE '^hangs_at_1: failed to measure: (callgrind|dhat) run at 1 timed out after 60 s and was killed' "$tmp/stdout" &&
   [ ! -e "$tmp/raw/callgrind.log.hangs_at_1.200" ] && [ ! -e "$tmp/raw/dhat.log.hangs_at_1.400" ]; then
  pass "a_scenario_that_hangs_at_once_should_be_killed_at_60_s_and_its_other_runs_never_started"
else
  fail "a_scenario_that_hangs_at_once_should_be_killed_at_60_s_and_its_other_runs_never_started: $(cat "$tmp/stdout") $(ls "$tmp/raw")"
fi
if grep -qE '^hangs_at_400: failed to measure: (callgrind|dhat) run at 400 timed out after 60 s and was killed' "$tmp/stdout"; then
  pass "a_scenario_that_hangs_in_its_2n_run_should_be_killed_at_the_floor_not_the_ceiling"
else
  fail "a_scenario_that_hangs_in_its_2n_run_should_be_killed_at_the_floor_not_the_ceiling: $(cat "$tmp/stdout")"
fi

finish
