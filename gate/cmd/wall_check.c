/* The wall-clock check beside an instruction regression. The baseline's native build comes from
 * the same temporary worktree gate uses to re-measure a baseline; the rounds alternate which side
 * drains first so that a machine warming up or slowing down weighs on both alike. */
#define _GNU_SOURCE
#include "wall_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "command.h"
#include "manifest.h"
#include "native_runs.h"
#include "wallclock.h"
#include "worktree.h"

/* The largest drain. Each drain's queue is filled first, untimed, and for a cheap scenario the
 * fill costs far more than the drain: a scenario of 47 instructions a message drains 10,000,000
 * messages in 67 ms after a 4.4 s, 1.1 GiB fill. At 1,000,000 the cheapest drain still lasts
 * milliseconds (far above the clock's resolution), a round costs a fraction of a second, and a
 * scenario that takes a millisecond a message still times for seconds. */
#define WALL_CHECK_COUNT_MAX 1000000ULL

static void not_timed(struct verdict_wall *wall, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static void not_timed(struct verdict_wall *wall, const char *format, ...)
{
	va_list arguments;

	va_start(arguments, format);
	wall->timed = false;
	vsnprintf(wall->why_not, sizeof(wall->why_not), format, arguments);
	va_end(arguments);
}

/* The fastest and the slowest of one side's rounds. */
static void extremes(const double *seconds, unsigned count, double *fastest, double *slowest)
{
	unsigned i;

	*fastest = *slowest = seconds[0];
	for (i = 1; i < count; i++) {
		*fastest = seconds[i] < *fastest ? seconds[i] : *fastest;
		*slowest = seconds[i] > *slowest ? seconds[i] : *slowest;
	}
}

static double median(double *seconds, unsigned count)
{
	struct wall_summary summary;

	wall_summarize(&summary, seconds, count);
	return summary.median;
}

/* Times one scenario: a drain sized so that the slower side's lasts WALL_CHECK_DRAIN_SECONDS,
 * then WALL_CHECK_ROUNDS of each side. */
static void time_scenario(struct verdict_wall *wall, const char *head_path,
			  const char *baseline_path, const struct wall_check_options *options)
{
	struct gate_error err = GATE_ERROR_INIT;
	double head[WALL_CHECK_ROUNDS], base[WALL_CHECK_ROUNDS], rate = 0, base_rate = 0, wanted;
	uint64_t nanoseconds = 0;
	unsigned round;

	if (native_runs_calibrate(head_path, WALL_CHECK_DRAIN_SECONDS * 4, WALL_CHECK_COUNT_MAX,
				  options->timeout_seconds, &rate, &err) != 0 ||
	    native_runs_calibrate(baseline_path, WALL_CHECK_DRAIN_SECONDS * 4, WALL_CHECK_COUNT_MAX,
				  options->timeout_seconds, &base_rate, &err) != 0) {
		not_timed(wall, "a native drain failed: %.200s", err.message);
		return;
	}
	wanted = (base_rate < rate ? base_rate : rate) * WALL_CHECK_DRAIN_SECONDS;
	wall->messages = wanted < 1000 ? 1000 : wanted > (double)WALL_CHECK_COUNT_MAX
						    ? WALL_CHECK_COUNT_MAX : (uint64_t)wanted;
	wall->rounds = WALL_CHECK_ROUNDS;
	for (round = 0; round < WALL_CHECK_ROUNDS; round++) {
		const char *first = round % 2 == 0 ? head_path : baseline_path;
		const char *second = round % 2 == 0 ? baseline_path : head_path;
		double *first_times = round % 2 == 0 ? head : base;
		double *second_times = round % 2 == 0 ? base : head;

		if (native_runs_drain(first, wall->messages, options->timeout_seconds, &nanoseconds,
				      &err) != 0)
			break;
		first_times[round] = (double)nanoseconds / 1e9;
		if (native_runs_drain(second, wall->messages, options->timeout_seconds, &nanoseconds,
				      &err) != 0)
			break;
		second_times[round] = (double)nanoseconds / 1e9;
	}
	if (round < WALL_CHECK_ROUNDS) {
		not_timed(wall, "a native drain failed: %.200s", err.message);
		return;
	}
	extremes(head, WALL_CHECK_ROUNDS, &wall->head_fastest, &wall->head_slowest);
	extremes(base, WALL_CHECK_ROUNDS, &wall->baseline_fastest, &wall->baseline_slowest);
	wall->head_seconds = median(head, WALL_CHECK_ROUNDS);
	wall->baseline_seconds = median(base, WALL_CHECK_ROUNDS);
	wall->change_percent = wall->baseline_seconds > 0
				       ? (wall->head_seconds / wall->baseline_seconds - 1) * 100.0
				       : 0;
	wall->timed = true;
}

/* The rows that need it get an empty verdict_wall; returns how many, or -1 out of memory. */
static int allocate_walls(struct verdict *verdict)
{
	int count = 0;
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		if (!verdict_row_instructions_up(&verdict->rows[i]))
			continue;
		verdict->rows[i].wall = calloc(1, sizeof(*verdict->rows[i].wall));
		if (verdict->rows[i].wall == NULL)
			return -1;
		count++;
	}
	return count;
}

/* Every row that wants a time gets the same reason there is none. */
static void none_timed(struct verdict *verdict, const char *why)
{
	size_t i;

	for (i = 0; i < verdict->row_count; i++)
		if (verdict->rows[i].wall != NULL)
			not_timed(verdict->rows[i].wall, "%s", why);
}

static void time_rows(struct verdict *verdict, const struct manifest *head,
		      const struct manifest *base, const struct wall_check_options *options)
{
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		struct verdict_row *row = &verdict->rows[i];
		const struct manifest_entry *here, *there;

		if (row->wall == NULL)
			continue;
		here = command_find_scenario(head, row->name);
		there = command_find_scenario(base, row->name);
		if (here == NULL || there == NULL) {
			not_timed(row->wall, "no native build of it %s", here == NULL ? "at head"
										   : "in the baseline");
			continue;
		}
		if (options->verbosity > 0)
			fprintf(stderr, "gate: %s: timing the native drains of head and baseline\n",
				row->name);
		time_scenario(row->wall, here->path, there->path, options);
	}
}

int wall_check_run(struct verdict *verdict, const struct wall_check_options *options)
{
	struct gate_error err = GATE_ERROR_INIT;
	struct manifest head = MANIFEST_INIT, base = MANIFEST_INIT;
	char *base_build = NULL;
	char why[sizeof(((struct verdict_wall *)0)->why_not)];
	int wanted = allocate_walls(verdict);

	if (wanted <= 0)
		return wanted;
	if (!native_runs_present(options->head_build_dir)) {
		/* One short sentence: a build without native scenarios is a choice, not a fault. */
		none_timed(verdict, "the build has no native scenarios (docs/wall-clock.md)");
	} else if (native_runs_read_manifest(&head, options->head_build_dir, &err) != 0) {
		snprintf(why, sizeof(why), "%.200s", err.message);
		none_timed(verdict, why);
	} else if (options->commit == NULL) {
		none_timed(verdict, "the baseline was read from a file, not from a commit gate can "
			   "build");
	} else if (worktree_build(&(struct worktree_source){ options->root, options->commit, NULL,
							     options->head_build_dir,
							     options->build_command },
				  options->measure, &base_build, &err) != 0) {
		snprintf(why, sizeof(why), "the baseline's build: %.200s", err.message);
		none_timed(verdict, why);
	} else if (native_runs_read_manifest(&base, base_build, &err) != 0) {
		snprintf(why, sizeof(why), "the baseline's build: %.200s", err.message);
		none_timed(verdict, why);
	} else {
		time_rows(verdict, &head, &base, options);
	}
	worktree_cleanup();
	free(base_build);
	manifest_release(&head);
	manifest_release(&base);
	return 0;
}
