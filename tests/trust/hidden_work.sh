#!/usr/bin/env bash
# Work a change moves out of the measured region is still counted: gate gates the whole process's
# instructions per message (every thread, start to exit) with the same limit. Per message work done
# while the queue is filled, left for a destructor at exit, handed to a worker thread in stop(), or
# done by a thread running beside the drain leaves the region's figure about as it was and is
# exit 1 naming the whole process's figure. Real gate,
# valgrind and git.
# Usage: hidden_work.sh GATE COSTGATE_SOURCE_DIR
# shellcheck source=tests/trust/common.sh
source "$(dirname "$0")/common.sh"

repo_with_baseline "$repo"
base=$(per_message work) # the table of the run that saved the baseline
base_re=$(regex_escape "$base")
work_c=$repo/scenarios/work.c
loop='{ unsigned long hidden = 0; for (int k = 0; k < 4000; k++) { hidden = hidden * 31 + (unsigned long)k; COSTGATE_KEEP(hidden); } }'
# What every case must print: the whole process's figure above the limit.
whole_process='^work: [0-9.]+ instructions per message in the whole process against [0-9.]+ in the baseline: \+[0-9.]+ %, \+[0-9.]+ % outside the region, above the 2 % limit'

# change BRANCH [SED_SCRIPT STRING...]: work.c on a fresh branch BRANCH from main, edited by
# SED_SCRIPT; $changed is yes when the edit took (every fixed STRING is in the file after it).
change() {
  local branch=$1 string
  changed=no
  git -C "$repo" checkout -q -f -B "$branch" main || return
  if [ $# -gt 1 ]; then
    sed -i "$2" "$work_c" || return
    shift 2
    for string in "$@"; do grep -qF -- "$string" "$work_c" || return; done
  fi
  changed=yes
}

# regresses NAME [PATTERN...]: the change made and built, gate fails `work` on its whole process's
# figure (exit 1), its stdout matching every PATTERN too.
regresses() {
  local name=$1
  shift
  if [ "$changed" != yes ] || ! build "$repo"; then
    fail "$name: cannot make or build the change"
    return 1
  fi
  run_gate "$repo" --baseline=main
  check_run "$name" 1 "$@" "$whole_process" "^fail: 1 regressed \(work\)\$"
}

# 1. Per message work in the body generator, which runs while the queue is filled.
change fill "s|^	(void)capacity;\$|	(void)capacity;\n	$loop|" 'unsigned long hidden'
regresses work_at_fill_time_should_regress_in_the_whole_process \
  "^work +$base_re +$base_re +\+0\.00 % " \
  "$whole_process \(work done at fill time, on another thread or at exit\)\$"

# 2. A count kept per message, and the work done for it by a destructor at exit.
change at_exit "s|^static int handle(|static unsigned long pending;\n\n__attribute__((destructor)) static void settle(void)\n{\n	for (unsigned long m = 0; m < pending; m++)\n		$loop\n}\n\nstatic int handle(|; s|^	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));\$|&\n	pending++;|" \
  'pending++' 'destructor'
if regresses work_left_for_exit_should_regress_in_the_whole_process \
  "^work +[0-9.]+ +$base_re +\+0\.[0-9]{2} % "; then
  # results.json has both figures of the row.
  if tr -d ' \t\n' <"$repo/build/gate/results.json" | grep -qE '"breaches":\["process_instructions"\]'; then
    pass "results_json_should_name_the_process_breach"
  else
    fail "results_json_should_name_the_process_breach"
  fi
fi

# 3. The same count handed to a worker thread that stop() starts and joins.
change worker_thread "s|^#include <string.h>\$|#include <pthread.h>\n#include <string.h>|; s|^static int handle(|static unsigned long pending;\n\nstatic void *settle(void *unused)\n{\n	(void)unused;\n	for (unsigned long m = 0; m < pending; m++)\n		$loop\n	return NULL;\n}\n\nstatic void stop(struct service *service)\n{\n	pthread_t worker;\n\n	(void)service;\n	if (pthread_create(\&worker, NULL, settle, NULL) == 0)\n		pthread_join(worker, NULL);\n}\n\nstatic int handle(|; s|^	COSTGATE_KEEP(work_compute(body, length, WORK_ITERATIONS));\$|&\n	pending++;|; s|^	\.handle = handle,\$|&\n	.stop = stop,|" \
  'pthread_create' '.stop = stop,'
regresses work_on_a_worker_thread_in_stop_should_regress_in_the_whole_process \
  "^work +[0-9.]+ +$base_re +\+0\.[0-9]{2} % "

# 4. A worker thread the service starts, working for each message while the drain runs: it waits
# on a semaphore the handler posts, so its work is per message and done concurrently.
change concurrent_worker
cat >"$work_c" <<'SCENARIO'
/* work, with a worker thread that does extra per message work while the drain runs. */
#include <pthread.h>
#include <semaphore.h>
#include <string.h>

#include "harness.h"

static sem_t posted;
static pthread_t worker;
static unsigned long sent, settled; /* messages posted by the handler, and worked by the thread */
static int done;

static size_t body(unsigned char *buffer, size_t capacity)
{
	static const char text[] = "{\"order\":42,\"qty\":7}";

	(void)capacity;
	memcpy(buffer, text, sizeof(text) - 1);
	return sizeof(text) - 1;
}

static void *settle(void *unused)
{
	(void)unused;
	for (;;) {
		unsigned long hidden = 0;
		int k;

		sem_wait(&posted);
		/* Every message is worked once, whenever the thread gets to run; stop()'s post ends it
		 * only after the last one, so the work per message does not depend on scheduling. */
		if (__atomic_load_n(&done, __ATOMIC_ACQUIRE) &&
		    settled == __atomic_load_n(&sent, __ATOMIC_ACQUIRE))
			return NULL;
		for (k = 0; k < 4000; k++) {
			hidden = hidden * 31 + (unsigned long)k;
			COSTGATE_KEEP(hidden);
		}
		settled++;
	}
}

static int start(struct service *service)
{
	service->state = NULL;
	if (sem_init(&posted, 0, 0) != 0 || pthread_create(&worker, NULL, settle, NULL) != 0)
		return -1;
	return 0;
}

static int handle(struct service *service, const unsigned char *body, size_t length)
{
	unsigned long value = length;
	int i;

	(void)service;
	for (i = 0; i < 2000; i++) {
		value = value * 2654435761u + body[(size_t)i % length];
		COSTGATE_KEEP(value);
	}
	__atomic_add_fetch(&sent, 1, __ATOMIC_RELEASE);
	sem_post(&posted);
	return 0;
}

static void stop(struct service *service)
{
	(void)service;
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	sem_post(&posted);
	pthread_join(worker, NULL);
}

const struct scenario costgate_scenario = {
	.name = "work",
	.title = "a fixed loop of arithmetic per message, and a worker thread",
	.gated = true,
	.body = body,
	.start = start,
	.handle = handle,
	.stop = stop,
};
SCENARIO
regresses work_on_a_thread_running_beside_the_drain_should_regress_in_the_whole_process

finish
