#!/usr/bin/env bash
# Deadlines that scale (no --timeout): a scenario that hangs before its first snapshot (start
# and the first delivery) is killed at 60 s; one that hangs only in its last phase, from N to 2N,
# is killed at the floor of what its phase to N predicts (60 s after its second snapshot), not
# after 600 s. Both in about a minute.
# Usage: test_timeouts.sh GATE BUILD_DIR C_COMPILER
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh"
gate=$(realpath -- "$1") build=$(realpath -- "$2") compiler=$3
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY
tmp=$(temp_dir timeouts) || exit 2
cd "$tmp" || exit 2

# hangs_at_COUNT: describes itself and drains in phases as the harness does (a snapshot between
# two phases: a child that exits at once, and the line the harness prints); a phase returns at
# once below COUNT deliveries and blocks from COUNT on (pause: a hang that holds no CPU, so that the
# minute it waits costs the tests running beside it nothing).
mkdir -p "$tmp/bin" "$tmp/build/scenarios"
cat >"$tmp/hangs.c" <<'SOURCE'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The one region function gate's executable check looks for; the hang happens inside it. */
__attribute__((noinline, used)) void costgate_measured_region(unsigned long count);
__attribute__((noinline, used)) void costgate_measured_region(unsigned long count)
{
	if (count >= THRESHOLD)
		for (;;)
			pause();
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--describe") == 0) {
		printf("{\"name\":\"%s\",\"title\":\"test only: hangs\",\"gated\":true,"
		       "\"region\":\"costgate_measured_region\",\"snapshots\":true,"
		       "\"floors\":{\"steady_allocations\":0,\"cold_allocations\":0}}\n", NAME);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "--snapshots") == 0) {
		char *next = argv[2];

		do {
			unsigned long upto = strtoul(next, &next, 10);

			costgate_measured_region(upto);
			if (fork() == 0)
				_exit(0);
			wait(NULL);
			fprintf(stderr, "costgate: snapshot at %lu deliveries\n", upto);
		} while (*next++ == ',');
		costgate_measured_region(strtoul(argv[3], NULL, 10));
	}
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
if grep -qE '^hangs_at_1: failed to measure: (callgrind|dhat) run at 400 timed out after 60 s and was killed' "$tmp/stdout"; then
  pass "a_scenario_that_hangs_at_once_should_be_killed_at_60_s"
else
  fail "a_scenario_that_hangs_at_once_should_be_killed_at_60_s: $(cat "$tmp/stdout") $(ls "$tmp/raw")"
fi
if grep -qE '^hangs_at_400: failed to measure: (callgrind|dhat) run at 400 timed out after 6[0-9] s and was killed' "$tmp/stdout"; then
  pass "a_scenario_that_hangs_in_its_2n_run_should_be_killed_at_the_floor_not_the_ceiling"
else
  fail "a_scenario_that_hangs_in_its_2n_run_should_be_killed_at_the_floor_not_the_ceiling: $(cat "$tmp/stdout")"
fi

finish
