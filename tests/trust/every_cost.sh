#!/usr/bin/env bash
# Every cost a message adds is counted (docs/design.md rule 9). Each change below keeps the
# program's own instructions per message within the 2 % limit, or moves work where that figure
# does not look, and each must fail (exit 1) naming what it made dearer, with and without
# --vary-n: a system call per message, also with a floor declared for it; glibc malloc told to map every block (system calls, and
# the allocator's own instructions); work in a project function named like one of glibc's
# allocator internals; a check against every earlier message (a cost per message that grows with
# the messages handled); work moved to exit. The unchanged tree passes both ways, and so does a
# string function added inside the region within the limit (DHAT, which replaces glibc's string
# functions with its own, never counts the whole process). Real gate,
# valgrind and git on the demo project with a third scenario that allocates.
# Usage: every_cost.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

# nodes: eight 48-byte nodes a message, linked, walked and freed (8 blocks a message).
write_nodes() {
  cat >"$repo/scenarios/nodes.c" <<'SCENARIO'
/* nodes: eight 48-byte nodes a message, linked, walked and freed. */
#include <stdlib.h>
#include <string.h>

#include "test_only.h"

struct node {
	struct node *next;
	unsigned char bytes[40];
};

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memset(buffer, 'n', 32);
	return 32;
}

/* NODE-HELPER */

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	struct node *list = NULL, *next;
	unsigned long sum = 0;
	int i;

	(void)service;
	for (i = 0; i < 8; i++) {
		struct node *node = malloc(sizeof(*node));

		if (node == NULL)
			return -1;
		memcpy(node->bytes, body, length < sizeof(node->bytes) ? length : sizeof(node->bytes));
		/* NODE-EXTRA */
		node->next = list;
		list = node;
	}
	for (; list != NULL; list = next) {
		next = list->next;
		sum += list->bytes[0];
		free(list);
	}
	COSTGATE_KEEP(sum);
	return 0;
}

TEST_ONLY_DECLARATION("nodes", "eight nodes a message, linked, walked and freed", .gated = true,
		      .steady_allocations = 8, .cold_allocations = 8, .body = body, .handle = handle);
SCENARIO
}

if ! new_repo "$repo" || ! write_nodes || ! add_scenarios "$repo" nodes; then
  setup_fail "cannot make the demo repository"
fi
# 16,000 steps a message (about 144,000 instructions with GCC 12, 240,000 with clang 14): an O(n)
# check of a few instructions an earlier message then stays within the 2 % limit at N = 200, as a
# real one does at a real N.
set_iterations "$repo" 16000 || setup_fail "cannot set the iterations"
if ! commit "$repo" "nodes, and work at 8000 steps" || ! build "$repo"; then
  setup_fail "cannot build the demo repository"
fi
baseline_of_main "$repo"
base=$(git -C "$repo" rev-parse main)

# change BRANCH FILE SED_SCRIPT STRING...: FILE (under scenarios/) on a fresh branch BRANCH from
# main, edited by SED_SCRIPT, built; fails the setup of the case unless every fixed STRING is in
# the file after the edit. Returns 1 when the case cannot be made.
change() {
  local branch=$1 file=$repo/scenarios/$2 script=$3 string
  shift 3
  git -C "$repo" checkout -q -f -B "$branch" main || return 1
  sed -i "$script" "$file" || return 1
  for string in "$@"; do
    if ! grep -qF -- "$string" "$file"; then
      fail "$branch: the edit did not take ('$string')"
      return 1
    fi
  done
  build "$repo" || { fail "$branch: cannot build the change"; return 1; }
}

# gated NAME CODE [--vary-n] PATTERN...: gate on the working tree against main's baseline, at the
# baseline's N or with --vary-n, exits CODE, its stdout matching every PATTERN; the case is NAME,
# with _with_vary_n after it for --vary-n.
gated() {
  local name=$1 expected=$2 vary=()
  shift 2
  if [ "${1:-}" = --vary-n ]; then
    vary=(--vary-n) name+=_with_vary_n
    shift
  fi
  run_gate "$repo" --baseline=main --base-commit "$base" "${vary[@]}"
  check_run "$name" "$expected" "$@"
}

# both NAME CODE PATTERN...: gated both ways, each run matching every PATTERN.
both() {
  gated "$@"
  gated "$1" "$2" --vary-n "${@:3}"
}

# 0. The unchanged tree, both ways: every new figure is compared and nothing moved.
git -C "$repo" checkout -q -f -B unchanged main
gated an_unchanged_tree_should_pass 0 "^pass: 3 scenarios within their limits\$" \
  "^nodes +[0-9.]+ +[0-9.]+ +\+0\.00 % .* 8\.000 .* [0-9.]+ \(\+0\.00 %\) +0\.000 \(\+0\.00 %\) "
gated an_unchanged_tree_should_pass 0 --vary-n "^pass: 3 scenarios within their limits\$" \
  "!the whole process is not compared"

# 1. A system call per message: a log line written for each one (to /dev/null, opened once).
log_each_message='s|^#include <string.h>$|#include <fcntl.h>\n#include <string.h>\n#include <unistd.h>|; s|^	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));$|&\n	{ static int log = -1; if (log < 0) log = open("/dev/null", O_WRONLY); if (write(log, body, length) < 0) return -1; }|'
if change syscall_per_message work.c "$log_each_message" 'write(log, body, length)'; then
  both a_system_call_per_message_should_regress 1 \
    "^work: 1\.000 system calls per message against 0\.000 in the baseline: \+100\.00 %, a rise, where no floor is declared \('steady_syscalls'\)" \
    "^work: project functions whose system calls per message, own \+ system-library callees, changed:" \
    "^ +1\.000 +0\.000 +\+1\.000 +handle" "^fail: 1 regressed \(work\)\$"
fi

# 1b. The same with floors declared for the calls it adds: where the baseline declares none it
# allows no rise, so declaring one loosens a setting and is compared as without it.
if change syscall_with_its_floor work.c \
  "$log_each_message"'; s|^	.cold_allocations = 0,$|&\n	.steady_syscalls = 1,\n	.cold_syscalls = 100,|' \
  'write(log, body, length)' '.steady_syscalls = 1,'; then
  both a_floor_declared_for_added_system_calls_should_regress 1 \
    "^work: the floor 'steady_syscalls' is 1, where the baseline declares none and holds system calls to no rise over its 0: loosening a setting is a breach unless accepted \(metric 'steady_syscalls_floor'\)" \
    "^work: 1\.000 system calls per message against 0\.000 in the baseline: \+100\.00 %, a rise, its floor 'steady_syscalls' not accepted" \
    "^fail: 1 regressed \(work\)\$"
fi

# 2. glibc malloc told to give every block back at once: each malloc and free a system call.
if change mmap_every_block nodes.c \
  's|^/\* NODE-HELPER \*/$|#include <malloc.h>\n\n__attribute__((constructor)) static void give_back_at_once(void)\n{\n	mallopt(M_MMAP_THRESHOLD, 0);\n}|' \
  'mallopt(M_MMAP_THRESHOLD, 0)'; then
  both malloc_mapping_every_block_should_regress 1 \
    "^nodes: 16\.000 system calls per message against 0\.000 in the baseline" \
    "^nodes: [0-9.]+ allocator instructions per message against [0-9.]+ in the baseline: \+[0-9.]+ %, above the 10 % limit" \
    "^ +16\.000 +0\.000 +\+16\.000 +handle" "^fail: 1 regressed \(nodes\)\$" \
    "^nodes +[0-9.]+ +[0-9.]+ +[-+]0\.[0-9]{2} % "
fi

# 3. A project function with an allocator's name: its work is the program's own.
if change named_like_the_allocator nodes.c \
  's|^/\* NODE-HELPER \*/$|__attribute__((noinline)) void alloc_perturb(unsigned char *bytes, size_t size);\n\n__attribute__((noinline)) void alloc_perturb(unsigned char *bytes, size_t size)\n{\n	for (int round = 0; round < 2; round++)\n		for (size_t k = 0; k < size; k++) {\n			bytes[k] = (unsigned char)(bytes[k] * 31 + round);\n			COSTGATE_KEEP(bytes[k]);\n		}\n}|; s|^		/\* NODE-EXTRA \*/$|		alloc_perturb(node->bytes, sizeof(node->bytes));|' \
  'alloc_perturb(node->bytes, sizeof(node->bytes));'; then
  both work_in_a_function_named_like_the_allocator_should_regress 1 \
    "^nodes: [0-9.]+ instructions per message against [0-9.]+ in the baseline: \+[0-9.]+ %, above the 2 % limit" \
    "^ +[0-9.]+ +0\.000 +\+[0-9.]+ +\+[0-9.]+ +\+[0-9.]+ +[0-9.]+ % +alloc_perturb" \
    "^nodes +[0-9.]+ +[0-9.]+ +\+[0-9.]+ % .* [0-9.]+ \(\+0\.00 %\) " "^fail: 1 regressed \(nodes\)\$"
fi

# 4. Each message checked against every earlier one: a few instructions an earlier message,
# within the 2 % limit at this N, growing without bound. One comparison at a time, its result
# kept at each: left to itself, clang 14 unrolled the loop to under 5 instructions an earlier
# message, against its 240,000 a message a growth of 0.40 points, within the margin. Kept, it is
# 8 with GCC 12 (+1.67 % at N = 200, growth 1.09 points) and 10 with clang 14 (+1.25 %, 0.82).
if change checks_every_earlier_message work.c \
  's|^static int handle(|static unsigned long seen_ids[1u << 20];\nstatic size_t seen_count;\n\n__attribute__((noinline)) static int seen_before(unsigned long id)\n{\n	size_t k;\n	int found = 0;\n\n	for (k = 0; k < seen_count; k++) {\n		found \|= seen_ids[k] == id;\n		COSTGATE_KEEP(found);\n	}\n	if (seen_count < sizeof(seen_ids) / sizeof(seen_ids[0]))\n		seen_ids[seen_count++] = id;\n	return found;\n}\n\nstatic int handle(|; s|^	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));$|&\n	COSTGATE_KEEP(seen_before((unsigned long)seen_count * 7919u));|' \
  'seen_before((unsigned long)seen_count * 7919u)'; then
  grows=("^work: cost per message grows with the messages handled: [0-9.]+ instructions per message from 1 to N, [0-9.]+ from N to 2N \(N = [0-9]+\), \+[0-9.]+ % against the baseline's \+0\.00 %, above the 0\.5 point margin"
    "^work: project functions whose instructions per message, own \+ system-library callees, are higher from N to 2N than from 1 to N:"
    "^ +[0-9.]+ +[0-9.]+ +\+[0-9.]+ +seen_before" "^fail: 1 regressed \(work\)\$")
  # At the baseline's N the figure per message is within its limit: only the growth fails.
  gated a_cost_growing_with_the_messages_should_regress 1 "${grows[@]}" \
    "^work +[0-9.]+ +[0-9.]+ +\+[01]\.[0-9]{2} % .* regressed: growth with the messages handled\$"
  # A drawn N shows more of it, on its own and beside the per message figure.
  gated a_cost_growing_with_the_messages_should_regress 1 --vary-n "${grows[@]}" \
    "^work .* regressed: (instructions, )?growth with the messages handled\$"
fi

# 5. Work moved to exit: a count kept per message, and the work done for it by a destructor.
if change work_left_for_exit work.c \
  's|^static int handle(|static unsigned long pending;\n\n__attribute__((destructor)) static void settle(void)\n{\n	for (unsigned long m = 0; m < pending; m++)\n		COSTGATE_KEEP(work_compute((const unsigned char *)"settle", 6, 800));\n}\n\nstatic int handle(|; s|^	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));$|&\n	pending++;|' \
  'pending++;'; then
  both work_moved_to_exit_should_regress 1 \
    "^work: [0-9.]+ instructions per message in the whole process against [0-9.]+ in the baseline: \+[0-9.]+ %, \+[0-9.]+ % outside the region, above the 2 % limit \(work done at fill time, on another thread or at exit; at exit [0-9.]+ a message handled beyond the baseline's exit\)" \
    "^work +[0-9.]+ +[0-9.]+ +[-+]0\.00 % " "^fail: 1 regressed \(work\)\$"
fi

# 6. A strlen of 4,000 bytes added inside the region: some 1,300 instructions a message against
# some 144,000 (under 1 %), within the limit, and nothing outside the region. It passes, both
# ways. (Under DHAT, whose strlen goes a byte at a time, the same call is some ten times dearer.)
if change strlen_in_the_region work.c \
  's|^	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));$|&\n	{ static char text[4001]; if (text[0] == 0) memset(text, 0x78, 4000); COSTGATE_KEEP(strlen(text)); }|' \
  'COSTGATE_KEEP(strlen(text));'; then
  both a_string_function_added_in_the_region_within_the_limit_should_pass 0 \
    "^pass: 3 scenarios within their limits\$" "!outside the region"
fi

finish
