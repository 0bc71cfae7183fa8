/* gate --cross-check: the allocation figures DHAT gave, counted again without valgrind by the
 * native variant of each scenario (tcmalloc's malloc hooks, switched on only inside the measured
 * region; scenarios/alloc_counter.h says what it counts and why that is what DHAT counts). Both
 * must agree exactly at 1, N and 2N deliveries; a scenario where they do not has failed to
 * measure, with both figures in its failure. */
#ifndef GATE_CROSSCHECK_H
#define GATE_CROSSCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "manifest.h"
#include "measure.h"
#include "slope.h"

struct crosscheck_options {
	const struct manifest *native; /* the native variants (build/scenarios/native/manifest.txt) */
	double timeout_seconds;        /* per run; 0: none */
	int verbosity;                 /* 0 quiet, 1 progress, 2 each command */
};

/* Reads the output of `NAME --count-allocations COUNT` ("allocations BLOCKS"). */
int crosscheck_parse(const char *output, uint64_t *blocks, struct gate_error *err);

/* Runs the native counter at 1, N and 2N for every measurement not already failed and compares
 * with its DHAT counts. A disagreement, or a native run that fails, marks that measurement
 * failed, naming both figures. Returns how many agreed. */
size_t crosscheck_scenarios(struct measurement *measurements, size_t count,
			    const struct crosscheck_options *options);

#endif
