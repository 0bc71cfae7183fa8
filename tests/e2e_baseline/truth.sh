#!/usr/bin/env bash
# Verdicts that are facts on a library gate was not written for, end to end with real valgrind
# and real git: the demo project gains varied_heap (blocks of varied sizes on a heap that never
# settles) and chain (a walk through an 8 MiB table).
# 1. varied_heap at N = 200, 1000 and 4000: the gated figure, the program's own instructions,
#    stays within 0.5 % while the allocator's moves with N; every count equals callgrind's own
#    totals by hand (callgrind_annotate).
# 2. A baseline saved at N = 200, an unchanged head with the default N: measured at 200, exit 0;
#    at N = 1000 the linear figures are compared across N.
# 3. Cheaper in instructions and over an allocation floor: exit 1, errors only for the floor, the
#    improvement a notice, the state naming what broke.
# 4. The table walk replaced by arithmetic (more instructions, no dependent loads): a regression
#    on instructions whose wall-clock line says the head is faster; --no-wall-check drops it.
# Usage: truth.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/e2e_baseline/common.sh
source "$(dirname "$0")/common.sh"
# The wall-clock line is part of what this test checks (the chain scenario below).
wall_check=on

repo=$work/repo

# json FILE EXPRESSION: a Python expression on the document `d`.
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"; }

# spread A B C: (max - min) / min in percent.
spread() {
  printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.4f", (hi - lo) * 100 / lo }'
}

# below VALUE LIMIT: VALUE < LIMIT, as numbers.
below() { awk -v v="$1" -v l="$2" 'BEGIN { exit !(v != "" && v + 0 < l + 0) }'; }

write_chain() {
  cat >"$1/scenarios/chain.c" <<'EOF'
/* chain: every message walks 64 steps. With CHAIN_TABLE 1 each step loads the next index from
 * an 8 MiB table (one long cycle, so every load waits for the one before and misses the cache);
 * with 0 it computes the next index with a few multiplies and shifts: more instructions, no
 * loads, and far less time. */
#include <stdint.h>
#include <stdlib.h>

#include <costgate/harness.h>

#include "test_only.h"

#define CHAIN_TABLE 1
#define CHAIN_SIZE (1u << 21)
#define CHAIN_STEPS 64

static size_t body(unsigned char *buffer, size_t capacity)
{
	return text_body(buffer, capacity, "step");
}

struct chain {
	uint32_t *next;
	uint32_t at;
};

static int start(struct costgate_service *service)
{
	struct chain *chain = calloc(1, sizeof(*chain));
	uint32_t i, j, swap, seed = 12345;

	if (chain == NULL || (chain->next = malloc(CHAIN_SIZE * sizeof(uint32_t))) == NULL) {
		free(chain);
		return -1;
	}
	for (i = 0; i < CHAIN_SIZE; i++)
		chain->next[i] = i;
	for (i = CHAIN_SIZE - 1; i > 0; i--) { /* Sattolo: one cycle through every entry */
		seed = seed * 1664525u + 1013904223u;
		j = seed % i;
		swap = chain->next[i];
		chain->next[i] = chain->next[j];
		chain->next[j] = swap;
	}
	service->state = chain;
	return 0;
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	struct chain *chain = service->state;
	uint32_t at = chain->at;
	unsigned step;

	(void)body;
	(void)length;
	for (step = 0; step < CHAIN_STEPS; step++) {
#if CHAIN_TABLE
		at = chain->next[at];
#else
		at ^= at >> 15;
		at *= 0x2c1b3c6du;
		at ^= at >> 12;
		at *= 0x297a2d39u;
		at ^= at >> 15;
		at &= CHAIN_SIZE - 1;
#endif
	}
	chain->at = at;
	COSTGATE_KEEP(at);
	return 0;
}

static void stop(struct costgate_service *service)
{
	struct chain *chain = service->state;

	free(chain->next);
	free(chain);
}

TEST_ONLY_DECLARATION("chain", "a walk of 64 steps through an 8 MiB table", .gated = true,
		      .steady_allocations = 0, .cold_allocations = 2, .body = body, .start = start,
		      .handle = handle, .stop = stop);
EOF
}

# The demo project with the two scenarios of this test.
setup() {
  new_repo "$repo" &&
    cp "$costgate_source/tests/scenarios/varied_heap.c" "$repo/scenarios/" &&
    write_chain "$repo" && add_scenarios "$repo" varied_heap chain &&
    commit "$repo" "varied_heap and chain" && build "$repo"
}

if ! setup; then
  setup_fail "cannot make and build the demo repository"
fi

# 1. The same figure at any N.
programs=() allocators=()
exact=true
for n in 200 1000 4000; do
  messages=$n
  run_gate "$repo" --scenario varied_heap --json "$work/heap$n.json" --raw-dir "$work/raw$n"
  if [ "$code" -ne 0 ]; then
    fail "varied_heap_should_pass_at_n_$n: exit $code"
    show "$out"
    show "$err"
    continue
  fi
  programs+=("$(json "$work/heap$n.json" "d['code'][0]['metrics']['instructions']['per_message']")")
  allocators+=("$(json "$work/heap$n.json" "d['code'][0]['metrics']['allocator_instructions']['per_message']")")
  for run in 1 "$n" $((2 * n)); do
    index=$(case $run in 1) echo 0 ;; "$n") echo 1 ;; *) echo 2 ;; esac)
    own=$(json "$work/heap$n.json" "d['code'][0]['counts']['instructions'][$index]")
    allocator=$(json "$work/heap$n.json" "d['code'][0]['counts']['allocator_instructions'][$index]")
    # callgrind's parts added up to the count at $run (docs/design.md rule 10).
    total=$(callgrind_sum program_total "$work/raw$n" varied_heap "$run" "$n")
    by_hand=$(callgrind_sum allocator_total "$work/raw$n" varied_heap "$run" "$n") # varied_heap calls no entry from another
    if [ "$((own + allocator))" != "$total" ] || [ "$allocator" != "$by_hand" ]; then
      exact=false
      echo "    at $run of N = $n: gate $own + $allocator, callgrind_annotate $total in all, $by_hand in the allocator"
    fi
  done
  # N messages' profile, a file of its own that callgrind_annotate reads: its total is N times
  # the instructions and the allocator's instructions per message gate prints.
  part=$(program_total "$work/raw$n/callgrind.out.varied_heap.$n-$((2 * n))")
  printed=$(awk -v p="${programs[-1]}" -v a="${allocators[-1]}" -v n="$n" 'BEGIN { printf "%.0f", (p + a) * n }')
  if [ -z "$part" ] || [ "$part" != "$printed" ]; then
    exact=false
    echo "    N = $n: callgrind_annotate of .$n-$((2 * n)) says $part, gate's figures times N $printed"
  fi
done
messages=200
if [ "${#programs[@]}" -eq 3 ]; then
  program_spread=$(spread "${programs[@]}")
  allocator_spread=$(spread "${allocators[@]}")
  if below "$program_spread" 0.5; then
    pass "program_figure_should_stay_within_half_a_percent_across_n (${programs[*]}: $program_spread %)"
  else
    fail "program_figure_should_stay_within_half_a_percent_across_n: ${programs[*]} ($program_spread %)"
  fi
  # The reproduction: the allocator's own figure, which the region's used to include, moves.
  if below 0.5 "$allocator_spread"; then
    pass "allocator_figure_should_move_with_n (${allocators[*]}: $allocator_spread %)"
  else
    fail "allocator_figure_should_move_with_n: ${allocators[*]} ($allocator_spread %): not a heap that never settles"
  fi
  if $exact; then
    pass "every_count_should_equal_callgrind_annotate_by_hand"
  else
    fail "every_count_should_equal_callgrind_annotate_by_hand"
  fi
fi

# 2. A baseline saved at N = 200; the head with the default N, as the action runs it.
baseline_of_main "$repo" "baseline of main at N = 200"
(cd "$repo" && exec "$gate" --build-dir build -j 2 --baseline=main) >"$out" 2>"$err"
code=$?
check_run "unchanged_head_with_the_default_n_should_pass_against_a_baseline_at_200" 0 \
  "err:at 1, 200 and 400 deliveries, 2 at once \(the baseline's N\)" \
  "^pass: 4 scenarios within their limits\$"
messages=1000
run_gate "$repo" --baseline=main --scenario varied_heap --scenario work
messages=200
check_run "unchanged_head_at_another_n_should_compare_when_linear" 0 \
  "^note: head and baseline were measured with different message counts \(baseline N = 200\), both linear within 0\.5 %" \
  "^pass: 2 scenarios within their limits\$"

# 3. Cheaper in instructions, and one more allocation per message.
git -C "$repo" checkout -q -b cheaper-but-allocates main
if set_iterations "$repo" 1600 &&
  sed -i 's|^#include <string.h>|#include <stdlib.h>\n#include <string.h>|; s|COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));|{ void *extra = malloc(length); COSTGATE_KEEP(extra); free(extra); } &|' \
    "$repo/scenarios/work.c" && grep -q 'void \*extra = malloc' "$repo/scenarios/work.c" &&
  build "$repo"; then
  (cd "$repo" && export GITHUB_ACTIONS=true && exec "$gate" --build-dir build -j 2 \
    --baseline=main --scenario work) >"$out" 2>"$err"
  code=$?
  check_run "cheaper_and_over_a_floor_should_fail_on_the_floor" 1 \
    "^work +[0-9.]+ +[0-9.]+ +-[0-9.]+ % .* regressed: allocations, cold allocations\$" \
    "^::error title=costgate%3A work regressed%3A allocations%2C cold allocations::work: 1\.000 allocations per message, above the declared floor of 0\$" \
    "^::notice title=costgate%3A work improved::work: improved: instructions per message -[0-9.]+ %25 against the baseline, beyond the 2 %25 limit: refresh the baseline \(gate --messages 200 --save-baseline main on main, and commit baselines/main\.json\)\$" \
    "!^::error.*(improved|cheaper)" "!^::error.*instructions per message" \
    "^fail: 1 regressed \(work\)\$"
else
  fail "cheaper_and_over_a_floor_should_fail_on_the_floor: cannot build the change"
fi

# 4. More instructions, less time.
git -C "$repo" checkout -q -f -b arithmetic main
if sed -i 's/^#define CHAIN_TABLE 1$/#define CHAIN_TABLE 0/' "$repo/scenarios/chain.c" &&
  grep -q '^#define CHAIN_TABLE 0$' "$repo/scenarios/chain.c" && commit "$repo" "arithmetic" &&
  build "$repo"; then
  run_gate "$repo" --baseline=main --scenario chain --json "$work/chain.json"
  check_run "more_instructions_and_less_time_should_say_so" 1 \
    "^chain +[0-9.]+ +[0-9.]+ +\+[0-9.]+ % .* regressed: instructions\$" \
    "^chain: wall clock head [0-9]+\.[0-9]{2} s, baseline [0-9]+\.[0-9]{2} s over 5 rounds \(-[0-9]+ %\): instructions up, time down\$"
  if [ "$(json "$work/chain.json" "[r['wall_clock']['conclusion'] for r in d['costgate']['verdict']['rows']]")" = "['time down']" ]; then
    pass "results_json_should_carry_the_wall_clock"
  else
    fail "results_json_should_carry_the_wall_clock"
  fi
  run_gate "$repo" --baseline=main --scenario chain --no-wall-check
  check_run "no_wall_check_should_leave_the_wall_clock_out" 1 "regressed: instructions\$" "!wall clock"
else
  fail "more_instructions_and_less_time_should_say_so: cannot build the change"
fi

finish
