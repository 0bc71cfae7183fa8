/* The check's decisions (policy.h). */
#include "policy.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "metrics.h"
#include "sha256.h"
#include "slope.h"

/* An N gate measures: at least 2 (a slope needs two counts), at most POLICY_MESSAGES_MAX. */
static bool usable_messages(uint64_t messages)
{
	return messages >= 2 && messages <= POLICY_MESSAGES_MAX;
}

uint64_t policy_messages(uint64_t requested, bool given, const struct results *baseline)
{
	if (given || baseline == NULL || !usable_messages(baseline->messages))
		return requested;
	return baseline->messages;
}

int policy_vary_range(uint64_t messages, uint64_t *lowest, uint64_t *highest,
		     struct gate_error *err)
{
	*lowest = messages + 1;
	*highest = 2 * messages < POLICY_MESSAGES_MAX ? 2 * messages : POLICY_MESSAGES_MAX;
	if (*lowest > *highest)
		return gate_error_set(err, "--vary-n draws N above --messages, and --messages %" PRIu64
				      " leaves no room below %llu", messages, POLICY_MESSAGES_MAX);
	return 0;
}

uint64_t policy_vary_draw(const char *seed, const char *name, uint64_t lowest, uint64_t highest)
{
	struct sha256 hash;
	char digest[SHA256_HEX_SIZE], word[17];

	sha256_init(&hash);
	sha256_update(&hash, seed, strlen(seed));
	sha256_update(&hash, "\n", 1);
	sha256_update(&hash, name, strlen(name));
	sha256_final(&hash, digest);
	memcpy(word, digest, 16);
	word[16] = '\0';
	return lowest + strtoull(word, NULL, 16) % (highest - lowest + 1);
}

bool policy_builds_equal(const struct measurement *heads, size_t count,
			const struct results *baseline, char *difference, size_t size)
{
	size_t i, j;

	for (i = 0; i < count; i++) {
		const struct measurement *head = &heads[i];

		for (j = 0; j < baseline->count; j++) {
			const struct measurement *base = &baseline->measurements[j];

			if (head->failed || head->build == NULL ||
			    strcmp(head->info.name, base->info.name) != 0)
				continue;
			if (base->build != NULL && strcmp(head->build, base->build) == 0)
				break;
			snprintf(difference, size, "'%s' was built otherwise: '%s' here, '%s' in the "
				 "baseline", head->info.name, head->build,
				 base->build ? base->build : "(not recorded)");
			return false;
		}
	}
	return true;
}

/* The first scenario of both sides whose gated figures are not linear within the limit for
 * comparing across N: NULL when every one is. */
static const char *nonlinear_scenario(const struct measurement *heads, size_t count,
				      const struct results *baseline, double *percent)
{
	size_t i, metric;

	for (i = 0; i < count; i++) {
		const struct measurement *head = &heads[i];
		const struct measurement *base = results_find(baseline, head->info.name);

		if (head->failed || base == NULL)
			continue;
		for (metric = 0; metric < METRIC_COUNT; metric++) {
			/* The allocator's figure moves with the heap's history, and so with N: its
			 * own limit is wide for that (metrics.h), and it compares across N. */
			if (!metric_limit_gated(metric, &head->info) ||
			    metric_table[metric].per_allocation || !head->has[metric] ||
			    !base->has[metric])
				continue;
			*percent = head->slopes[metric].linearity_percent;
			if (base->slopes[metric].linearity_percent > *percent)
				*percent = base->slopes[metric].linearity_percent;
			if (*percent > SLOPE_COMPARABLE_LINEARITY_PERCENT)
				return head->info.name;
		}
	}
	return NULL;
}

uint64_t policy_measure_again_at(const struct measurement *heads, size_t count, uint64_t messages,
				const struct results *baseline, const char **name, double *percent)
{
	*name = NULL;
	*percent = 0;
	if (baseline == NULL || baseline->messages == messages ||
	    !usable_messages(baseline->messages))
		return 0;
	*name = nonlinear_scenario(heads, count, baseline, percent);
	return *name != NULL ? baseline->messages : 0;
}

bool policy_row_exact(const struct verdict_row *row, char *why, size_t size)
{
	const struct measurement *head = row->head, *base = row->baseline;
	const struct slope *instructions, *allocations, *base_instructions, *base_allocations;

	if (head == NULL || head->failed || base == NULL) {
		snprintf(why, size, "%s: %s, so the baseline cannot be exact", row->name,
			 head == NULL ? "not measured" : head->failed ? "failed to measure"
								  : "not in the baseline");
		return false;
	}
	instructions = &head->slopes[METRIC_INSTRUCTIONS];
	allocations = &head->slopes[METRIC_ALLOCATIONS];
	base_instructions = &base->slopes[METRIC_INSTRUCTIONS];
	base_allocations = &base->slopes[METRIC_ALLOCATIONS];
	if (instructions->per_message == base_instructions->per_message &&
	    instructions->cold == base_instructions->cold &&
	    allocations->per_message == base_allocations->per_message &&
	    allocations->cold == base_allocations->cold)
		return true;
	snprintf(why, size, "%s: the baseline says %.3f instructions per message and %" PRIu64
		 " cold, %.3f allocations per message and %" PRIu64 " cold; this tree measures "
		 "%.3f, %" PRIu64 ", %.3f and %" PRIu64, row->name, base_instructions->per_message,
		 base_instructions->cold, base_allocations->per_message, base_allocations->cold,
		 instructions->per_message, instructions->cold, allocations->per_message,
		 allocations->cold);
	return false;
}

void policy_refresh_command(char *text, size_t size, bool own_makefile, const char *build_dir,
			   uint64_t messages, const char *baseline_ref)
{
	const char *branch = baseline_ref != NULL ? baseline_branch_of(baseline_ref) : NULL;
	char build_option[4200] = "", messages_option[48] = "";

	if (branch == NULL)
		branch = "main";
	if (own_makefile) {
		snprintf(text, size, "make baseline, and commit baselines/main.json");
		return;
	}
	if (strcmp(build_dir, "build") != 0)
		snprintf(build_option, sizeof(build_option), " --build-dir %s", build_dir);
	if (messages != 0 && messages != POLICY_MESSAGES_DEFAULT)
		snprintf(messages_option, sizeof(messages_option), " --messages %" PRIu64, messages);
	snprintf(text, size, "gate%s%s --save-baseline %s on %s, and commit baselines/%s.json",
		 build_option, messages_option, branch, branch, branch);
}

void policy_reproduce_command(char *text, size_t size, const struct policy_run_words *run)
{
	size_t used, i;
	int written;

	if (run->own_makefile)
		written = snprintf(text, size, "make && build/gate/gate");
	else if (strcmp(run->build_dir, "build") == 0)
		written = snprintf(text, size, "%s && gate", run->build_command);
	else
		written = snprintf(text, size, "%s && gate --build-dir %s", run->build_command,
				   run->build_dir);
	used = written < 0 ? 0 : (size_t)written;
	if (used < size)
		used += (size_t)snprintf(text + used, size - used, " --messages %" PRIu64 "%s",
					 run->messages, run->vary_n ? " --vary-n" : "");
	if (run->baseline_ref != NULL && used < size)
		used += (size_t)snprintf(text + used, size - used, " --baseline=%s",
					 run->baseline_ref);
	for (i = 0; i < run->scenario_count && used < size; i++)
		used += (size_t)snprintf(text + used, size - used, " --scenario '%s'",
					 run->scenarios[i]);
}
