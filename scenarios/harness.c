/* The harness: main for every scenario executable. The queue is filled between the two entries
 * into the measured region, so callgrind (toggled on the region) and DHAT (filtered on its frame)
 * count the service start and the drain and nothing of the fill. */
#include <costgate/harness.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef COSTGATE_NATIVE
#include "native.h"
#endif

/* Largest COUNT accepted: far beyond any useful run, and small enough that the fill's memory
 * stays sane. */
#define COUNT_MAX 100000000ULL

/* Most snapshots one run takes (--snapshots): gate takes two, at 1 and N deliveries. */
#define SNAPSHOT_MAX 8

enum region_phase { PHASE_START, PHASE_DRAIN };

struct run {
	const struct costgate_scenario *scenario;
	struct costgate_service service;
	struct costgate_queue requests;
	struct costgate_queue replies;
	unsigned char *raw_bodies;           /* raw scenarios: the phase's bodies back to back */
	uint64_t raw_count;                  /* bodies in raw_bodies */
	unsigned char *raw_phases[SNAPSHOT_MAX + 1]; /* every phase's raw_bodies, kept to the end
						      * as a queue keeps its slots' buffers */
	size_t raw_phase_count;
	size_t body_length;                  /* every body has this length (one generator) */
	const struct costgate_delivery **batch;    /* batch scenarios: the batch being assembled */
	uint64_t count;                      /* deliveries requested on the command line */
	uint64_t filled;                     /* messages published (raw: bodies written) so far */
	uint64_t handled;                    /* bodies the handler returned from successfully */
	uint64_t replies_handled;            /* replies the reply handler took */
	bool fork_snapshots;                 /* --snapshots: a forked child at each phase's end;
					      * --phases: the tool takes its own (callgrind's
					      * --dump-after the region) */
	uint64_t backlog;                    /* 0: a phase's messages all wait before its drain;
					      * else at most this many wait at once (the native
					      * second opinion's other queue) */
	const char *failure;                 /* the internal check that failed, or NULL */
};

static int fail(struct run *run, const char *what)
{
	if (run->failure == NULL)
		run->failure = what;
	return -1;
}

static int start_service(struct run *run)
{
	const struct costgate_scenario *scenario = run->scenario;

	run->service.requests = &run->requests;
	run->service.replies = &run->replies;
	if (scenario->batch_size > 1) {
		run->batch = malloc(scenario->batch_size * sizeof(*run->batch));
		if (run->batch == NULL)
			return fail(run, "out of memory for the batch");
	}
	if (scenario->start != NULL && scenario->start(&run->service) != 0)
		return fail(run, "the service did not start");
	return 0;
}

static int drain_replies(struct run *run)
{
	const struct costgate_delivery *reply;

	while ((reply = costgate_queue_next(&run->replies)) != NULL) {
		if (run->scenario->handle_reply(&run->service, reply->body, reply->length) != 0)
			return fail(run, "the reply handler failed");
		costgate_queue_settle(&run->replies, reply->tag);
		run->replies_handled++;
	}
	return 0;
}

static int handle_one(struct run *run, const unsigned char *body, size_t length)
{
	if (run->scenario->handle(&run->service, body, length) != 0)
		return fail(run, "the handler failed");
	run->handled++;
	if (run->scenario->handle_reply != NULL)
		return drain_replies(run);
	return 0;
}

/* One delivery at a time, settled after the handler returns. The loop every message of most
 * scenarios takes, so it is kept short: consume_raw measures it. */
static int drain_single(struct run *run)
{
	const struct costgate_scenario *scenario = run->scenario;
	const struct costgate_delivery *delivery;
	uint64_t handled = 0;
	int status = 0;

	while ((delivery = costgate_queue_next(&run->requests)) != NULL) {
		if (scenario->handle(&run->service, delivery->body, delivery->length) != 0) {
			status = fail(run, "the handler failed");
			break;
		}
		handled++;
		costgate_queue_settle(&run->requests, delivery->tag);
		if (scenario->handle_reply != NULL && drain_replies(run) != 0) {
			status = -1;
			break;
		}
	}
	run->handled += handled;
	return status;
}

/* Deliveries assembled into batches on the consumer, the whole batch settled at once. */
static int drain_batches(struct run *run)
{
	size_t batch_size = run->scenario->batch_size;

	for (;;) {
		size_t taken = 0;
		size_t i;

		while (taken < batch_size && (run->batch[taken] = costgate_queue_next(&run->requests)) != NULL)
			taken++;
		if (taken == 0)
			return 0;
		for (i = 0; i < taken; i++)
			if (handle_one(run, run->batch[i]->body, run->batch[i]->length) != 0)
				return -1;
		costgate_queue_settle(&run->requests, run->batch[taken - 1]->tag);
	}
}

/* No queue: the hand-written loop a user would write around the same handler. */
static int drain_raw(struct run *run)
{
	uint64_t i;

	for (i = 0; i < run->raw_count; i++)
		if (handle_one(run, run->raw_bodies + i * run->body_length, run->body_length) != 0)
			return -1;
	return 0;
}

static int drain(struct run *run)
{
	if (run->scenario->raw)
		return drain_raw(run);
	if (run->scenario->batch_size > 1)
		return drain_batches(run);
	return drain_single(run);
}

#if defined(__clang__)
#define REGION_ATTRIBUTES __attribute__((noinline, used))
#else
#define REGION_ATTRIBUTES __attribute__((noipa, used))
#endif

/* The measured region. The barrier after the call keeps it from being a tail call, so the frame
 * stays on the stack for DHAT and callgrind sees the entry and the exit. */
int costgate_measured_region(struct run *run, enum region_phase phase);
REGION_ATTRIBUTES int costgate_measured_region(struct run *run, enum region_phase phase)
{
	int status;

#ifdef COSTGATE_NATIVE
	costgate_native_region_enter(phase == PHASE_DRAIN);
#endif
	status = phase == PHASE_START ? start_service(run) : drain(run);
#ifdef COSTGATE_NATIVE
	costgate_native_region_leave(phase == PHASE_DRAIN);
#endif
	__asm__ volatile("" : : "g"(status) : "memory");
	return status;
}

/* Fills the queue (or a new array for the raw loop) up to `upto` bodies from the generator,
 * checking that every one is the same bytes as the first. Whatever a phase fills is held to the
 * end of the run, as it was when every count had its own process: the heap at a snapshot holds
 * the bodies of the deliveries so far, never those of the phases still to come. */
static int fill(struct run *run, uint64_t upto)
{
	static unsigned char first[COSTGATE_BODY_MAX];
	unsigned char body[COSTGATE_BODY_MAX];
	bool check_each = true; /* every body from the generator, the same bytes as the first */
	uint64_t i;

#ifdef COSTGATE_NATIVE
	check_each = !costgate_native_timing();
#endif
	if (run->filled == 0) {
		run->body_length = run->scenario->body(first, sizeof(first));
		if (run->body_length == 0 || run->body_length > sizeof(first))
			return fail(run, "the body check: the generator returned a bad length");
	}
	if (run->scenario->raw) {
		run->raw_count = upto - run->filled;
		run->raw_bodies = malloc(run->raw_count * run->body_length);
		if (run->raw_bodies == NULL)
			return fail(run, "out of memory for the bodies");
		run->raw_phases[run->raw_phase_count++] = run->raw_bodies;
	}
	for (i = run->filled; i < upto; i++) {
		size_t length = i == 0 || !check_each ? run->body_length
						      : run->scenario->body(body, sizeof(body));

		if (i > 0 && check_each && (length != run->body_length || memcmp(body, first, length) != 0))
			return fail(run, "the body check: the generator wrote different bytes");
		if (run->scenario->raw)
			memcpy(run->raw_bodies + (i - run->filled) * run->body_length, first,
			       run->body_length);
		else if (costgate_queue_publish(&run->requests, first, run->body_length) != 0)
			return fail(run, "out of memory while filling the queue");
	}
	run->filled = upto;
	return 0;
}

static int check_counts(struct run *run)
{
	if (run->handled != run->count)
		return fail(run, "the count check: the drain did not handle exactly COUNT messages");
	if (!run->scenario->raw && run->requests.settled != run->count)
		return fail(run, "the settle check: not every delivery was settled");
	if (run->scenario->handle_reply != NULL && run->replies_handled != run->count)
		return fail(run, "the reply check: not every request got exactly one reply");
	return 0;
}

/* The line a snapshot prints on stderr, made before the first phase: what a snapshot costs the
 * whole process's count is the same in every phase, and small (docs/design.md rule 10). */
struct snapshot_line {
	char text[64];
	size_t length;
};

/* A snapshot of the run so far, taken between two drains (outside the region): a child made
 * here exits at once, and valgrind writes its output with the counts up to there, while this
 * process goes on (docs/design.md rule 10). vfork, _exit and write: no atfork handler, no
 * stdio, nothing of the scenario's runs in the child. With --phases there is no child: the
 * tool wrote its counts as the drain left the region. The line on stderr tells gate's deadline
 * that the run got this far. */
static int snapshot(struct run *run, const struct snapshot_line *line)
{
	pid_t child;
	int status;

	if (!run->fork_snapshots)
		goto report;
	child = vfork();
	if (child < 0)
		return fail(run, "cannot fork the snapshot");
	if (child == 0)
		_exit(0);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return fail(run, "cannot wait for the snapshot");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return fail(run, "the snapshot's process did not exit 0");
report:
	if (write(STDERR_FILENO, line->text, line->length) < 0)
		return fail(run, "cannot report the snapshot");
	return 0;
}

/* One phase, from the deliveries handled so far to `upto`: filled, then drained in one entry
 * into the region; with a backlog, filled and drained a part at a time, at most `backlog`
 * messages waiting (a multiple of the batch, so that batches are what they are otherwise). */
static int drain_phase(struct run *run, uint64_t upto)
{
	uint64_t part = run->backlog > 0 && !run->scenario->raw ? run->backlog : upto - run->handled;
	uint64_t batch = run->scenario->batch_size > 1 ? run->scenario->batch_size : 1;

	if (part % batch != 0)
		part += batch - part % batch;
	while (run->handled < upto) {
		uint64_t begun = run->handled;
		uint64_t until = upto - begun > part ? begun + part : upto;

		if (fill(run, until) != 0)
			return -1;
		if (run->handled != begun ||
		    (!run->scenario->raw && (run->requests.delivered != begun ||
					     costgate_queue_ready(&run->requests) != until - begun)))
			return fail(run, "the fill check: a message was consumed while the queue was filled");
		if (costgate_measured_region(run, PHASE_DRAIN) != 0)
			return -1;
		if (run->handled != until)
			return fail(run, "the count check: the drain did not handle exactly COUNT messages");
	}
	return 0;
}

/* Drains the queue in phases: up to each of `snapshots` (increasing, at most count) and on to
 * count, with a snapshot after each phase that ends at one of them. Each phase fills the queue
 * with its own messages, outside the region, and checks that nothing was consumed while it
 * filled. */
static int run_phases(struct run *run, const uint64_t *snapshots, size_t snapshot_count)
{
	struct snapshot_line lines[SNAPSHOT_MAX];
	size_t phase;

	for (phase = 0; phase < snapshot_count; phase++) {
		int length = snprintf(lines[phase].text, sizeof(lines[phase].text),
				      "costgate: snapshot at %llu deliveries\n",
				      (unsigned long long)snapshots[phase]);

		lines[phase].length = length > 0 ? (size_t)length : 0;
	}
	for (phase = 0; run->handled < run->count; phase++) {
		uint64_t upto = phase < snapshot_count ? snapshots[phase] : run->count;

		/* The ring for the rest of the run at once, once the first phase is over: a ring
		 * that grows while filling copies itself log2(count) times, and the whole process's
		 * figure would move with N (gate --vary-n). The first phase's ring is the first
		 * phase's size, so the cold figures do not depend on N. */
		if (phase == 1 && !run->scenario->raw &&
		    costgate_queue_reserve(&run->requests, (size_t)run->count) != 0)
			return fail(run, "out of memory for the queue");
		if (drain_phase(run, upto) != 0)
			return -1;
#ifdef COSTGATE_NATIVE
		if (phase < snapshot_count)
			costgate_native_phase_end();
#endif
		if (phase < snapshot_count && snapshot(run, &lines[phase]) != 0)
			return -1;
	}
	return 0;
}

static int run_scenario(const struct costgate_scenario *scenario, uint64_t count,
			const uint64_t *snapshots, size_t snapshot_count, bool fork_snapshots,
			uint64_t backlog)
{
	struct run run = { .scenario = scenario, .count = count, .fork_snapshots = fork_snapshots,
			   .backlog = backlog };
	int status = 1;
	/* The request ring holds the first phase's messages (run_phases reserves the rest). */
	uint64_t first_phase = snapshot_count > 0 ? snapshots[0] : count;

	if (costgate_queue_init(&run.requests, scenario->raw ? 1 : (size_t)first_phase) != 0 ||
	    costgate_queue_init(&run.replies, 1) != 0) {
		fail(&run, "out of memory for the queues");
		goto out;
	}
	if (costgate_measured_region(&run, PHASE_START) != 0 ||
	    run_phases(&run, snapshots, snapshot_count) != 0 || check_counts(&run) != 0)
		goto out;
	status = 0;
out:
	if (status != 0)
		fprintf(stderr, "%s: error: %s (%llu requested, %llu handled)\n", scenario->name,
			run.failure ? run.failure : "unknown failure", (unsigned long long)count,
			(unsigned long long)run.handled);
#ifdef COSTGATE_NATIVE
	/* Timed: the process ends as soon as it has reported; freeing every body is not timed and
	 * would only lengthen the round. */
	if (status == 0 && costgate_native_timing())
		return 0;
#endif
	if (scenario->stop != NULL)
		scenario->stop(&run.service);
	free(run.batch);
	while (run.raw_phase_count > 0)
		free(run.raw_phases[--run.raw_phase_count]);
	costgate_queue_release(&run.requests);
	costgate_queue_release(&run.replies);
	return status;
}

/* --describe writes its JSON by hand: a few fixed fields, so the measured executable links
 * nothing but the harness and the project's own libraries (a project that is or vendors cJSON
 * must not meet a second one here). */
static void put_string(FILE *out, const char *text)
{
	const unsigned char *c;

	putc('"', out);
	for (c = (const unsigned char *)(text != NULL ? text : ""); *c != '\0'; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(out, "\\u%04x", *c);
		else
			putc(*c, out);
	}
	putc('"', out);
}

/* A finite number as JSON: integers exactly, others with enough digits to read back (no libm:
 * the measured executable links only what the project asks for). */
static void put_number(FILE *out, double value)
{
	if (!isfinite(value))
		value = -1; /* never valid for a floor or a limit: gate refuses it */
	if (value > -9007199254740992.0 && value < 9007199254740992.0 &&
	    value == (double)(long long)value)
		fprintf(out, "%lld", (long long)value);
	else
		fprintf(out, "%.17g", value);
}

static void put_key(FILE *out, const char *key)
{
	fputs(",", out);
	put_string(out, key);
	fputs(":", out);
}

/* A floor a scenario may leave out: written only when declared (nonzero). */
static void put_optional_floor(FILE *out, const char *key, double value)
{
	if (value != 0) {
		put_key(out, key);
		put_number(out, value);
	}
}

/* One key of "gate_metrics", `length` characters at `key`, after what came before it. */
static void put_gate_metric(FILE *out, const char *key, size_t length, bool *first)
{
	const unsigned char *c;

	fputs(*first ? ",\"gate_metrics\":[\"" : ",\"", out);
	for (c = (const unsigned char *)key; c < (const unsigned char *)key + length; c++)
		if (*c == '"' || *c == '\\' || *c < 0x20 || *c == 0x7f)
			fprintf(out, "\\u%04x", *c);
		else
			putc(*c, out);
	putc('"', out);
	*first = false;
}

/* "gate_metrics": "cycles" for .gate_cycles, then the keys of .gate_metrics; nothing for none. */
static void put_gate_metrics(FILE *out, const struct costgate_scenario *scenario)
{
	const char *at = scenario->gate_metrics != NULL ? scenario->gate_metrics : "";
	bool first = true;

	if (scenario->gate_cycles)
		put_gate_metric(out, "cycles", 6, &first);
	for (;;) {
		size_t length = 0;

		while (*at == ' ')
			at++;
		while (at[length] != '\0' && at[length] != ' ')
			length++;
		if (length == 0)
			break;
		put_gate_metric(out, at, length, &first);
		at += length;
	}
	if (!first)
		fputs("]", out);
	if (scenario->gate_cycles) /* what a gate before "gate_metrics" reads */
		fputs(",\"gate_cycles\":true", out);
}

static int describe(const struct costgate_scenario *scenario)
{
	unsigned char body[COSTGATE_BODY_MAX];
	size_t body_bytes = scenario->body(body, sizeof(body));
	const struct costgate_floor *floor;
	FILE *out = stdout;

	fputs("{\"name\":", out);
	put_string(out, scenario->name);
	put_key(out, "title");
	put_string(out, scenario->title);
	put_key(out, "gated");
	fputs(scenario->gated ? "true" : "false", out);
	put_key(out, "region");
	put_string(out, COSTGATE_REGION_NAME);
	put_key(out, "floors");
	fputs("{\"steady_allocations\":", out);
	put_number(out, scenario->steady_allocations);
	fputs(",\"cold_allocations\":", out);
	put_number(out, (double)scenario->cold_allocations);
	put_optional_floor(out, "steady_bytes", scenario->steady_bytes);
	put_optional_floor(out, "cold_bytes", (double)scenario->cold_bytes);
	put_optional_floor(out, "steady_peak_bytes", scenario->steady_peak_bytes);
	put_optional_floor(out, "cold_peak_bytes", (double)scenario->cold_peak_bytes);
	put_optional_floor(out, "steady_syscalls", scenario->steady_syscalls);
	put_optional_floor(out, "cold_syscalls", (double)scenario->cold_syscalls);
	for (floor = scenario->floors; floor != NULL && floor->key != NULL; floor++)
		put_optional_floor(out, floor->key, floor->value);
	fputs("}", out);
	put_gate_metrics(out, scenario);
	put_key(out, "body_bytes");
	put_number(out, (double)body_bytes);
	put_key(out, "batch_size");
	put_number(out, scenario->batch_size > 1 ? (double)scenario->batch_size : 1);
	put_key(out, "raw");
	fputs(scenario->raw ? "true" : "false", out);
	/* This harness takes --snapshots and --phases: gate runs it once per tool (docs/design.md
	 * rule 10). */
	put_key(out, "snapshots");
	fputs("true", out);
	put_key(out, "phases");
	fputs("true", out);
	if (scenario->limit_percent > 0) {
		put_key(out, "limit_percent");
		put_number(out, scenario->limit_percent);
	}
	if (scenario->linearity_percent > 0) {
		put_key(out, "linearity_percent");
		put_number(out, scenario->linearity_percent);
	}
	if (scenario->allocator_limit_percent > 0) {
		put_key(out, "allocator_limit_percent");
		put_number(out, scenario->allocator_limit_percent);
	}
	if (scenario->unoptimised) {
		put_key(out, "unoptimised");
		fputs("true", out);
	}
#ifdef COSTGATE_NATIVE
	if (scenario->raw_counterpart != NULL) {
		put_key(out, "raw_counterpart");
		put_string(out, scenario->raw_counterpart);
	}
#endif
	fputs("}\n", out);
	if (ferror(out) || fflush(out) != 0) {
		fprintf(stderr, "%s: error: cannot write the description\n", scenario->name);
		return 1;
	}
	return 0;
}

static int usage(const char *name, const char *problem)
{
	fprintf(stderr,
		"%s: error: %s\n"
		"usage: %s COUNT      run COUNT deliveries (1..%llu) through the measured region\n"
		"       %s --snapshots K1[,K2...] COUNT\n"
		"                     the same, drained in phases: after K1, K2, ... deliveries\n"
		"                     (increasing, up to COUNT, at most %d) a forked child exits at once,\n"
		"                     so that the tool writes the counts up to there\n"
		"       %s --phases K1[,K2...] COUNT\n"
		"                     the same phases without a child: the tool writes its counts\n"
		"                     as each drain leaves the region (--dump-after)\n"
		"       %s --describe print the scenario's declaration as JSON\n",
		name, problem, name, COUNT_MAX, name, SNAPSHOT_MAX, name, name);
#ifdef COSTGATE_NATIVE
	costgate_native_usage(stderr, name);
#endif
	return 2;
}

/* COUNT: decimal digits only, 1..COUNT_MAX. */
static int parse_count(const char *text, uint64_t *count)
{
	char *end = NULL;
	unsigned long long value;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0' || value == 0 || value > COUNT_MAX)
		return -1;
	*count = value;
	return 0;
}

/* K1,K2,...: increasing counts, none above `count`, at most SNAPSHOT_MAX. */
static int parse_snapshots(const char *text, uint64_t count, uint64_t *snapshots, size_t *used)
{
	char item[32];

	*used = 0;
	while (*text != '\0') {
		size_t length = strcspn(text, ",");

		if (length == 0 || length >= sizeof(item) || *used == SNAPSHOT_MAX)
			return -1;
		memcpy(item, text, length);
		item[length] = '\0';
		if (parse_count(item, &snapshots[*used]) != 0 || snapshots[*used] > count ||
		    (*used > 0 && snapshots[*used] <= snapshots[*used - 1]))
			return -1;
		(*used)++;
		text += length;
		if (*text == ',' && *++text == '\0')
			return -1;
	}
	return *used > 0 ? 0 : -1;
}

int costgate_harness_main(const struct costgate_scenario *scenario, int argc, char **argv)
{
	uint64_t count, snapshots[SNAPSHOT_MAX];
	size_t snapshot_count = 0;
	char problem[256];

#ifdef COSTGATE_NATIVE
	uint64_t backlog = 0;

	switch (costgate_native_parse(argc, argv, COUNT_MAX, &count, problem, sizeof(problem))) {
	case 1:
		return run_scenario(scenario, count, NULL, 0, false, 0) != 0
			       ? 1
			       : costgate_native_report(scenario->name);
	case -1:
		return usage(scenario->name, problem);
	}
	switch (costgate_native_request(argc, stdin, COUNT_MAX, snapshots, SNAPSHOT_MAX,
					&snapshot_count, &count, &backlog, problem,
					sizeof(problem))) {
	case 1:
		return run_scenario(scenario, count, snapshots, snapshot_count, false, backlog) != 0
			       ? 1
			       : costgate_native_report(scenario->name);
	case -1:
		return usage(scenario->name, problem);
	}
#endif
	if (argc == 2 && strcmp(argv[1], "--describe") == 0)
		return describe(scenario);
	if (argc != 2 && !(argc == 4 && (strcmp(argv[1], "--snapshots") == 0 ||
					 strcmp(argv[1], "--phases") == 0)))
		return usage(scenario->name, "expected COUNT, --snapshots K1[,K2...] COUNT, --phases "
			     "K1[,K2...] COUNT or --describe");
	if (parse_count(argv[argc - 1], &count) != 0) {
		snprintf(problem, sizeof(problem), "COUNT must be a positive integer up to %llu, not '%s'",
			 COUNT_MAX, argv[argc - 1]);
		return usage(scenario->name, problem);
	}
	if (argc == 4 && parse_snapshots(argv[2], count, snapshots, &snapshot_count) != 0) {
		snprintf(problem, sizeof(problem), "%s takes increasing counts up to COUNT "
			 "(%llu), at most %d, separated by commas, not '%.100s'", argv[1],
			 (unsigned long long)count, SNAPSHOT_MAX, argv[2]);
		return usage(scenario->name, problem);
	}
	return run_scenario(scenario, count, snapshots, snapshot_count,
			    argc == 4 && strcmp(argv[1], "--snapshots") == 0, 0);
}

int main(int argc, char **argv)
{
	return costgate_harness_main(&costgate_scenario, argc, argv);
}
