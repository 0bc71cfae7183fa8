/* The tool and metric tables, and the arithmetic every metric shares. */
#include "metrics.h"

#include <stdio.h>
#include <string.h>

#include "slope.h"

/* --collect-systime=yes adds the events sysCount (read) and sysTime (wall time: never read);
 * --dump-instr=yes the address of every cost, which names the function that holds it exactly
 * (debuginfo_owner_at). */
static const char *const callgrind_options[] = {
	"--tool=callgrind", "--compress-pos=no", "--collect-systime=yes", "--dump-instr=yes", NULL,
};
static const char *const dhat_options[] = { "--tool=dhat", NULL };
static const char *const cache_options[] = {
	"--tool=callgrind", "--compress-pos=no", "--cache-sim=yes",
	"--I1=" CACHE_GEOMETRY_I1, "--D1=" CACHE_GEOMETRY_D1, "--LL=" CACHE_GEOMETRY_LL, NULL,
};

/* valgrind's start-up with each tool, in microseconds (measured on the suite): heavier runs start
 * first. */
const struct tool_entry tool_table[TOOL_COUNT] = {
	[TOOL_CALLGRIND] = { "callgrind", callgrind_options, TOOL_PARSE_CALLGRIND, false, 110000 },
	[TOOL_DHAT] = { "dhat", dhat_options, TOOL_PARSE_DHAT, false, 270000 },
	[TOOL_CACHE] = { "cachesim", cache_options, TOOL_PARSE_CALLGRIND, true, 150000 },
};

/* The program's own instructions: the region's, less the allocator's. glibc malloc's work for
 * one call depends on what the heap went through before (its bins, its fragmentation), so it
 * moves with N on a heap that never settles; the program's own does not (docs/metrics.md). */
static int read_instructions(const struct tool_output *output, uint64_t *count, const char **why)
{
	(void)why;
	*count = output->callgrind->total - output->callgrind->allocator;
	return 0;
}

/* The allocator's: every call into malloc, free, realloc, ... from outside it, inclusive. */
static int read_allocator_instructions(const struct tool_output *output, uint64_t *count,
				       const char **why)
{
	(void)why;
	*count = output->callgrind->allocator;
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

/* The system calls made in the region: the region function's inclusive count. callgrind counts
 * every system call of the process, also those made while collection is off (the harness's own
 * between phases, the loader's), charged to the stack they were made on (callgrind.h). */
static int read_syscalls(const struct tool_output *output, uint64_t *count, const char **why)
{
	const struct cg_function *region = cg_profile_find(output->callgrind, output->region);

	if (!output->callgrind->counts_syscalls) {
		*why = "the file does not count system calls (no event sysCount: --collect-systime)";
		return -1;
	}
	*count = region != NULL ? region->syscalls.inclusive : 0;
	return 0;
}

#if defined(GATE_TEST_METRIC) || defined(GATE_TEST_OPT_IN_METRIC) || defined(GATE_TEST_FLOOR_METRIC)
/* The test builds' throw-away metric: every heap byte of the run, in the region or not. */
static int read_test_metric(const struct tool_output *output, uint64_t *count, const char **why)
{
	(void)why;
	*count = output->dhat->all_bytes;
	return 0;
}
#endif

const struct metric metric_table[METRIC_COUNT] = {
	[METRIC_INSTRUCTIONS] = {
		.key = "instructions", .title = "instructions", .unit = "instructions",
		.column = "instr/msg", .tool = TOOL_CALLGRIND, .read = read_instructions,
		.gating = METRIC_LIMIT, .limit_percent = 2.0, .limit_setting = METRIC_LIMIT_SCENARIO,
		.must_grow = true, .linearity = true,
		.growth = true, .required = true,
	},
	[METRIC_ALLOCATIONS] = {
		.key = "allocations", .title = "heap allocations", .unit = "blocks",
		.column = "alloc/msg", .tool = TOOL_DHAT, .read = read_allocations,
		.gating = METRIC_FLOORS, .linearity = true,
		.required = true,
	},
	[METRIC_BYTES] = {
		.key = "bytes", .title = "heap bytes allocated", .unit = "bytes",
		.column = "bytes/msg", .tool = TOOL_DHAT, .read = read_bytes,
		.gating = METRIC_FLOORS, .floors = true, .required = true,
	},
	[METRIC_PEAK_BYTES] = {
		.key = "peak_bytes", .title = "peak live heap of the process", .unit = "bytes",
		.column = "cold peak", .tool = TOOL_DHAT, .read = read_peak_bytes,
		.gating = METRIC_FLOORS, .shows_cold = true, .floors = true,
	},
	[METRIC_ALLOCATOR_INSTRUCTIONS] = {
		.key = "allocator_instructions", .title = "allocator instructions",
		.unit = "instructions", .column = "allocator/msg", .tool = TOOL_CALLGRIND,
		.read = read_allocator_instructions, .gating = METRIC_LIMIT,
		.limit_percent = ALLOCATOR_LIMIT_PERCENT, .limit_setting = METRIC_LIMIT_ALLOCATOR,
		.per_allocation = true,
		.limit_note = "glibc malloc's own work: a heap used differently, or the allocator "
			      "told to work differently (mallopt, tunables)",
	},
	[METRIC_CYCLES] = {
		.key = "cycles", .title = "estimated cycles", .unit = "cycles",
		.column = "cycles/msg", .tool = TOOL_CACHE, .read = read_cycles,
		.gating = METRIC_LIMIT, .opt_in = true, .limit_percent = 2.0,
		.limit_setting = METRIC_LIMIT_SCENARIO, .must_grow = true,
		.limit_note = "the instructions may be the same: the cache misses are not",
	},
	[METRIC_SYSCALLS] = {
		.key = "syscalls", .title = "system calls", .unit = "calls",
		.column = "sys/msg", .tool = TOOL_CALLGRIND, .read = read_syscalls,
		.gating = METRIC_RISE, .limit_percent = 0, .limit_setting = METRIC_LIMIT_FIXED,
		.floors = true,
		.limit_note = "a system call costs far more than its instructions (the kernel's work "
			      "is not counted): a floor declared for them is accepted as a setting",
	},
#ifdef GATE_TEST_METRIC /* a metric gated at a limit */
	[METRIC_TEST] = {
		.key = "test_process_bytes", .title = "heap bytes of the whole process",
		.unit = "bytes", .column = "test bytes", .tool = TOOL_DHAT,
		.read = read_test_metric, .gating = METRIC_LIMIT, .limit_percent = 2.0,
		.limit_setting = METRIC_LIMIT_SCENARIO,
	},
#endif
#ifdef GATE_TEST_OPT_IN_METRIC /* a metric gated at a limit where a scenario asks */
	[METRIC_TEST] = {
		.key = "test_asked_bytes", .title = "heap bytes of the whole process",
		.unit = "bytes", .column = "asked bytes", .tool = TOOL_DHAT,
		.read = read_test_metric, .gating = METRIC_LIMIT, .opt_in = true,
		.limit_percent = 2.0, .limit_setting = METRIC_LIMIT_SCENARIO,
	},
#endif
#ifdef GATE_TEST_FLOOR_METRIC /* a metric gated by the floors a scenario declares */
	[METRIC_TEST] = {
		.key = "test_floored_bytes", .title = "heap bytes of the whole process",
		.unit = "bytes", .column = "floored bytes", .tool = TOOL_DHAT,
		.read = read_test_metric, .gating = METRIC_FLOORS, .floors = true,
	},
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

void metric_figure_key(char *key, size_t size, enum metric_id metric, bool cold)
{
	snprintf(key, size, "%s%s", cold ? "cold_" : "", metric_table[metric].key);
}

const struct metric *metric_figure_find(const char *key, bool *cold)
{
	*cold = strncmp(key, "cold_", 5) == 0;
	return metric_find(key + (*cold ? 5 : 0));
}

bool metric_compares(enum metric_id metric)
{
	return metric_table[metric].gating == METRIC_LIMIT ||
	       metric_table[metric].gating == METRIC_RISE;
}

void metric_floor_key(char *key, size_t size, enum metric_id metric, bool cold)
{
	snprintf(key, size, "%s_%s", cold ? "cold" : "steady", metric_table[metric].key);
}

double metric_floor(const struct scenario_info *info, enum metric_id metric, bool cold)
{
	char key[SCENARIO_KEY_SIZE];

	if (!metric_table[metric].floors)
		return 0;
	metric_floor_key(key, sizeof(key), metric, cold);
	return scenario_floor(info, key);
}

bool metric_opted_in(enum metric_id metric, const struct scenario_info *info)
{
	return !metric_table[metric].opt_in || scenario_gates_metric(info, metric_table[metric].key);
}

/* The keys a scenario may use, "'a', 'b'", of the metrics that take floors or are gated on
 * request. */
static void list_keys(char *text, size_t size, bool floors)
{
	size_t used = 0, metric, cold;
	char key[SCENARIO_KEY_SIZE];

	text[0] = '\0';
	for (metric = 0; metric < METRIC_COUNT; metric++)
		for (cold = 0; cold < (floors ? 2u : 1u); cold++) {
			if (floors ? !metric_table[metric].floors : !metric_table[metric].opt_in)
				continue;
			if (floors)
				metric_floor_key(key, sizeof(key), metric, cold != 0);
			else
				snprintf(key, sizeof(key), "%s", metric_table[metric].key);
			if (used < size)
				used += (size_t)snprintf(text + used, size - used, "%s'%s'",
							 used > 0 ? ", " : "", key);
		}
}

const struct metric *metric_of_floor(const char *key)
{
	char floor[SCENARIO_KEY_SIZE];
	size_t metric;
	int cold;

	for (metric = 0; metric < METRIC_COUNT; metric++)
		for (cold = 0; cold <= 1 && metric_table[metric].floors; cold++) {
			metric_floor_key(floor, sizeof(floor), metric, cold);
			if (strcmp(floor, key) == 0)
				return &metric_table[metric];
		}
	return NULL;
}

int metric_check_declarations(const struct scenario_info *info, struct gate_error *err)
{
	char keys[1024];
	size_t i;

	for (i = 0; i < info->floor_count; i++)
		if (metric_of_floor(info->floors[i].key) == NULL) {
			list_keys(keys, sizeof(keys), true);
			return gate_error_set(err, "scenario '%s' declares the floor '%s', which no "
					      "metric of this gate takes (floors: 'steady_allocations', "
					      "'cold_allocations', %s)", info->name, info->floors[i].key,
					      keys);
		}
	for (i = 0; i < info->gate_metric_count; i++) {
		const struct metric *entry = metric_find(info->gate_metrics[i]);

		if (entry == NULL || !entry->opt_in) {
			list_keys(keys, sizeof(keys), false);
			return gate_error_set(err, "scenario '%s' asks to gate '%s', which is not a metric "
					      "of this gate gated on request (those are: %s)",
					      info->name, info->gate_metrics[i], keys);
		}
	}
	return 0;
}

double metric_limit_percent(enum metric_id metric, const struct scenario_info *info)
{
	double declared = 0;

	switch (metric_table[metric].limit_setting) {
	case METRIC_LIMIT_SCENARIO:
		declared = info->limit_percent;
		break;
	case METRIC_LIMIT_ALLOCATOR:
		declared = info->allocator_limit_percent;
		break;
	case METRIC_LIMIT_FIXED:
		break;
	}
	return declared > 0 ? declared : metric_table[metric].limit_percent;
}

int metric_acceptance(enum metric_id metric, bool cold)
{
	return metric_compares(metric) ? (int)METRIC_ACCEPTANCE(metric, cold) : -1;
}

enum metric_id metric_of_kind(unsigned kind, enum metric_kind *which)
{
	*which = (enum metric_kind)((kind - ACCEPT_FIGURES) % METRIC_KINDS);
	return (enum metric_id)((kind - ACCEPT_FIGURES) / METRIC_KINDS);
}

void metric_kind_name(char *name, size_t size, enum metric_id metric, enum metric_kind kind)
{
	const struct metric *entry = &metric_table[metric];

	name[0] = '\0';
	switch (kind) {
	case METRIC_KIND_FIGURE:
	case METRIC_KIND_COLD:
		if (metric_compares(metric))
			metric_figure_key(name, size, metric, kind == METRIC_KIND_COLD);
		break;
	case METRIC_KIND_STEADY_FLOOR:
	case METRIC_KIND_COLD_FLOOR:
		if (entry->floors)
			snprintf(name, size, "%s_%s_floor", kind == METRIC_KIND_COLD_FLOOR ? "cold" : "steady",
				 entry->key);
		break;
	case METRIC_KIND_GATE:
		if (entry->opt_in)
			snprintf(name, size, "gate_%s", entry->key);
		break;
	case METRIC_KINDS:
		break;
	}
}

const struct acceptance_figures *metric_acceptance_figures(void)
{
	static char keys[METRIC_KINDS * METRIC_COUNT][SCENARIO_KEY_SIZE + 16];
	static const char *names[METRIC_KINDS * METRIC_COUNT];
	static enum acceptance_value values[METRIC_KINDS * METRIC_COUNT];
	static const struct acceptance_figures figures = { names, values, METRIC_KINDS * METRIC_COUNT };
	static bool named;
	size_t i;

	for (i = 0; i < METRIC_KINDS * METRIC_COUNT && !named; i++) {
		enum metric_kind kind = (enum metric_kind)(i % METRIC_KINDS);

		metric_kind_name(keys[i], sizeof(keys[i]), i / METRIC_KINDS, kind);
		names[i] = keys[i][0] != '\0' ? keys[i] : NULL;
		values[i] = kind == METRIC_KIND_GATE ? ACCEPT_VALUE_ZERO
			    : kind == METRIC_KIND_STEADY_FLOOR || kind == METRIC_KIND_COLD_FLOOR
				    ? ACCEPT_VALUE_FLOOR
				    : ACCEPT_VALUE_ABOVE;
	}
	named = true;
	return &figures;
}

bool metric_limit_gated(enum metric_id metric, const struct scenario_info *info)
{
	switch (metric_table[metric].gating) {
	case METRIC_LIMIT:
		return metric_opted_in(metric, info);
	case METRIC_FLOORS:
	case METRIC_RISE: /* at a limit of 0, figure by figure (verdict.c) */
	case METRIC_REPORTED:
		break;
	}
	return false;
}

const char *metric_required_by(enum metric_id metric, const struct scenario_info *info,
			       char *why, size_t why_size)
{
	const struct metric *entry = &metric_table[metric];
	char key[SCENARIO_KEY_SIZE];
	size_t cold;

	if (entry->required)
		return "every document has it";
	if (entry->opt_in && metric_limit_gated(metric, info)) {
		snprintf(why, why_size, "the scenario gates %s", entry->key);
		return why;
	}
	for (cold = 0; cold < 2; cold++)
		if (entry->gating == METRIC_FLOORS && metric_floor(info, metric, cold != 0) > 0) {
			metric_floor_key(key, sizeof(key), metric, cold != 0);
			snprintf(why, why_size, "the scenario declares the floor '%s'", key);
			return why;
		}
	return NULL;
}

bool metric_tool_wanted(enum metric_tool tool, const struct scenario_info *info, bool every_metric)
{
	size_t metric;

	if (!tool_table[tool].opt_in || every_metric)
		return true;
	for (metric = 0; metric < METRIC_COUNT; metric++)
		if (metric_table[metric].tool == tool &&
		    (metric_limit_gated(metric, info) || metric_floor(info, metric, false) > 0 ||
		     metric_floor(info, metric, true) > 0))
			return true;
	return false;
}
