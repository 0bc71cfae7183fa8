/* The tool and metric tables, and the arithmetic every metric shares. */
#include "metrics.h"

#include <string.h>

#include "measure.h"
#include "slope.h"

/* valgrind's start-up with each tool, in microseconds (measured on the suite): heavier runs start
 * first. */
const struct tool_entry tool_table[TOOL_COUNT] = {
	[TOOL_CALLGRIND] = { "callgrind",
			     { "--tool=callgrind", "--collect-atstart=no", "--compress-pos=no", NULL },
			     TOOL_PARSE_CALLGRIND, false, 110000 },
	[TOOL_DHAT] = { "dhat", { "--tool=dhat", NULL }, TOOL_PARSE_DHAT, false, 270000 },
	[TOOL_CACHE] = { "cachesim",
			 { "--tool=callgrind", "--collect-atstart=no", "--compress-pos=no",
			   "--cache-sim=yes", "--I1=" CACHE_GEOMETRY_I1, "--D1=" CACHE_GEOMETRY_D1,
			   "--LL=" CACHE_GEOMETRY_LL, NULL },
			 TOOL_PARSE_CALLGRIND, true, 150000 },
};

static int read_instructions(const struct tool_output *output, uint64_t *count, const char **why)
{
	(void)why;
	*count = output->callgrind->total;
	return 0;
}

static int read_allocations(const struct tool_output *output, uint64_t *count, const char **why)
{
	(void)why;
	*count = output->dhat->blocks;
	return 0;
}

static int read_bytes(const struct tool_output *output, uint64_t *count, const char **why)
{
	(void)why;
	*count = output->dhat->bytes;
	return 0;
}

/* DHAT's heap at its peak: the bytes each program point had live at the moment the process's
 * live heap was largest ("gb"), summed over every point, which is DHAT's own "At t-gmax" figure.
 * The process, not the region: DHAT records points' bytes only at that moment, so the region's
 * own peak is not in its output (docs/metrics.md). */
static int read_peak_bytes(const struct tool_output *output, uint64_t *count, const char **why)
{
	if (output->dhat->peak_unknown) {
		*why = "a program point has no 'gb' (DHAT did not track lifetimes)";
		return -1;
	}
	*count = output->dhat->peak_bytes;
	return 0;
}

/* Itamar Turner-Trauring's estimate (the one iai and gungraun use): an L1 hit costs 1, a
 * last-level hit 5, a RAM access 35. Reads and writes of data and instruction fetches alike. */
static int read_cycles(const struct tool_output *output, uint64_t *count, const char **why)
{
	static const char *const names[9] = { "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw",
					      "ILmr", "DLmr", "DLmw" };
	uint64_t value[9], accesses, l1_misses, ram;
	size_t i;

	for (i = 0; i < 9; i++) {
		if (cg_profile_event_total(output->callgrind, names[i], &value[i]) != 0) {
			*why = "the file lacks the cache simulation's events (Ir Dr Dw I1mr D1mr D1mw "
			       "ILmr DLmr DLmw)";
			return -1;
		}
	}
	accesses = value[0] + value[1] + value[2];
	l1_misses = value[3] + value[4] + value[5];
	ram = value[6] + value[7] + value[8];
	if (l1_misses > accesses || ram > l1_misses) {
		*why = "the cache simulation counts more misses than accesses";
		return -1;
	}
	*count = (accesses - l1_misses) + 5 * (l1_misses - ram) + 35 * ram;
	return 0;
}

#ifdef GATE_TEST_METRIC
/* The test build's throw-away metric: every heap byte of the run, in the region or not. */
static int read_test_metric(const struct tool_output *output, uint64_t *count, const char **why)
{
	(void)why;
	*count = output->dhat->all_bytes;
	return 0;
}
#endif

const struct metric metric_table[METRIC_COUNT] = {
	[METRIC_INSTRUCTIONS] = { "instructions", "instructions", "instructions", "instr/msg",
				  TOOL_CALLGRIND, read_instructions, METRIC_LIMIT, 2.0, true,
				  false, -1, -1, true },
	[METRIC_ALLOCATIONS] = { "allocations", "heap allocations", "blocks", "alloc/msg", TOOL_DHAT,
				 read_allocations, METRIC_FLOORS, 0, false, false, -1, -1, true },
	[METRIC_BYTES] = { "bytes", "heap bytes allocated", "bytes", "bytes/msg", TOOL_DHAT,
			   read_bytes, METRIC_FLOORS, 0, false, false, FLOOR_STEADY_BYTES,
			   FLOOR_COLD_BYTES, false },
	[METRIC_PEAK_BYTES] = { "peak_bytes", "peak live heap of the process", "bytes", "cold peak",
				TOOL_DHAT, read_peak_bytes, METRIC_FLOORS, 0, false, true,
				FLOOR_STEADY_PEAK_BYTES, FLOOR_COLD_PEAK_BYTES, false },
	[METRIC_CYCLES] = { "cycles", "estimated cycles", "cycles", "cycles/msg", TOOL_CACHE,
			    read_cycles, METRIC_LIMIT_OPT_IN, 2.0, true, false, -1, -1, false },
#ifdef GATE_TEST_METRIC
	[METRIC_TEST] = { "test_process_bytes", "heap bytes of the whole process", "bytes",
			  "test bytes", TOOL_DHAT, read_test_metric, METRIC_REPORTED, 0, false,
			  false, -1, -1, false },
#endif
};

const struct metric *metric_find(const char *key)
{
	size_t i;

	for (i = 0; i < METRIC_COUNT; i++)
		if (strcmp(metric_table[i].key, key) == 0)
			return &metric_table[i];
	return NULL;
}

bool metric_limit_gated(enum metric_id metric, const struct scenario_info *info)
{
	switch (metric_table[metric].gating) {
	case METRIC_LIMIT:
		return true;
	case METRIC_LIMIT_OPT_IN:
		return info->gate_cycles;
	case METRIC_FLOORS:
	case METRIC_REPORTED:
		break;
	}
	return false;
}

bool metric_tool_wanted(enum metric_tool tool, const struct scenario_info *info, bool every_metric)
{
	size_t metric;

	if (!tool_table[tool].opt_in || every_metric)
		return true;
	for (metric = 0; metric < METRIC_COUNT; metric++)
		if (metric_table[metric].tool == tool && metric_limit_gated(metric, info))
			return true;
	return false;
}

int metrics_compute(struct measurement *measurement, struct gate_error *err)
{
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		if (!measurement->has[metric])
			continue;
		if (slope_compute(&measurement->slopes[metric], measurement->counts[metric],
				  measurement->messages, metric_table[metric].must_grow, err) != 0) {
			gate_error_prefix(err, "%s are implausible", metric_table[metric].title);
			return -1;
		}
	}
	return 0;
}

double metric_shown(const struct measurement *measurement, enum metric_id metric)
{
	const struct slope *slope = &measurement->slopes[metric];

	return metric_table[metric].shows_cold ? (double)slope->cold : slope->per_message;
}
