/* The harness: main for every scenario executable. The queue is filled between the two entries
 * into the measured region, so callgrind (toggled on the region) and DHAT (filtered on its frame)
 * count the service start and the drain and nothing of the fill. */
#include <costgate/harness.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef COSTGATE_NATIVE
#include "native.h"
#endif

/* Largest COUNT accepted: far beyond any useful run, and small enough that the fill's memory
 * stays sane. */
#define COUNT_MAX 100000000ULL

enum region_phase { PHASE_START, PHASE_DRAIN };

struct run {
	const struct costgate_scenario *scenario;
	struct costgate_service service;
	struct costgate_queue requests;
	struct costgate_queue replies;
	unsigned char *raw_bodies;           /* raw scenarios: count bodies back to back */
	size_t body_length;                  /* every body has this length (one generator) */
	const struct costgate_delivery **batch;    /* batch scenarios: the batch being assembled */
	uint64_t count;                      /* deliveries requested on the command line */
	uint64_t handled;                    /* bodies the handler returned from successfully */
	uint64_t replies_handled;            /* replies the reply handler took */
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

	for (i = 0; i < run->count; i++)
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

/* Fills the queue (or the raw loop's array) with count bodies from the generator, checking
 * that every one is the same bytes as the first. */
static int fill(struct run *run)
{
	unsigned char first[COSTGATE_BODY_MAX];
	unsigned char body[COSTGATE_BODY_MAX];
	bool check_each = true; /* every body from the generator, the same bytes as the first */
	uint64_t i;

#ifdef COSTGATE_NATIVE
	check_each = !costgate_native_timing();
#endif
	run->body_length = run->scenario->body(first, sizeof(first));
	if (run->body_length == 0 || run->body_length > sizeof(first))
		return fail(run, "the body check: the generator returned a bad length");
	if (run->scenario->raw) {
		run->raw_bodies = malloc(run->count * run->body_length);
		if (run->raw_bodies == NULL)
			return fail(run, "out of memory for the bodies");
	}
	for (i = 0; i < run->count; i++) {
		size_t length = i == 0 || !check_each ? run->body_length
						      : run->scenario->body(body, sizeof(body));

		if (i > 0 && check_each && (length != run->body_length || memcmp(body, first, length) != 0))
			return fail(run, "the body check: the generator wrote different bytes");
		if (run->scenario->raw)
			memcpy(run->raw_bodies + i * run->body_length, first, run->body_length);
		else if (costgate_queue_publish(&run->requests, first, run->body_length) != 0)
			return fail(run, "out of memory while filling the queue");
	}
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

static int run_scenario(const struct costgate_scenario *scenario, uint64_t count)
{
	struct run run = { .scenario = scenario, .count = count };
	int status = 1;

	/* The request ring holds every message from the start: growing it while filling copies the
	 * ring log2(count) times, a cost per message that depends on where count falls between two
	 * powers of two, and the whole process's figure would move with N (gate --vary-n). */
	if (costgate_queue_init(&run.requests, scenario->raw ? 1 : (size_t)count) != 0 ||
	    costgate_queue_init(&run.replies, 1) != 0) {
		fail(&run, "out of memory for the queues");
		goto out;
	}
	if (costgate_measured_region(&run, PHASE_START) != 0 || fill(&run) != 0)
		goto out;
	if (run.handled != 0 || run.requests.delivered != 0 ||
	    (!run.scenario->raw && costgate_queue_ready(&run.requests) != count)) {
		fail(&run, "the fill check: a message was consumed while the queue was filled");
		goto out;
	}
	if (costgate_measured_region(&run, PHASE_DRAIN) != 0 || check_counts(&run) != 0)
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
	free(run.raw_bodies);
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

static int describe(const struct costgate_scenario *scenario)
{
	unsigned char body[COSTGATE_BODY_MAX];
	size_t body_bytes = scenario->body(body, sizeof(body));
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
	fputs("}", out);
	if (scenario->gate_cycles) {
		put_key(out, "gate_cycles");
		fputs("true", out);
	}
	put_key(out, "body_bytes");
	put_number(out, (double)body_bytes);
	put_key(out, "batch_size");
	put_number(out, scenario->batch_size > 1 ? (double)scenario->batch_size : 1);
	put_key(out, "raw");
	fputs(scenario->raw ? "true" : "false", out);
	if (scenario->limit_percent > 0) {
		put_key(out, "limit_percent");
		put_number(out, scenario->limit_percent);
	}
	if (scenario->linearity_percent > 0) {
		put_key(out, "linearity_percent");
		put_number(out, scenario->linearity_percent);
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
		"       %s --describe print the scenario's declaration as JSON\n",
		name, problem, name, COUNT_MAX, name);
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

int costgate_harness_main(const struct costgate_scenario *scenario, int argc, char **argv)
{
	uint64_t count;

#ifdef COSTGATE_NATIVE
	char native_problem[256];

	switch (costgate_native_parse(argc, argv, COUNT_MAX, &count, native_problem,
				      sizeof(native_problem))) {
	case 1:
		return run_scenario(scenario, count) != 0 ? 1 : costgate_native_report(scenario->name);
	case -1:
		return usage(scenario->name, native_problem);
	}
#endif
	if (argc != 2)
		return usage(scenario->name, "expected exactly one argument");
	if (strcmp(argv[1], "--describe") == 0)
		return describe(scenario);
	if (parse_count(argv[1], &count) != 0) {
		char problem[256];

		snprintf(problem, sizeof(problem), "COUNT must be a positive integer up to %llu, not '%s'",
			 COUNT_MAX, argv[1]);
		return usage(scenario->name, problem);
	}
	return run_scenario(scenario, count);
}

int main(int argc, char **argv)
{
	return costgate_harness_main(&costgate_scenario, argc, argv);
}
