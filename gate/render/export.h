/* Exports of one run's results for the tools people already run: Bencher Metric Format JSON
 * (`bencher run --adapter json`), JUnit XML (the test reports of GitLab, Jenkins, Buildkite) and
 * CSV (a spreadsheet). Each is made from the results document gate wrote, read strictly. */
#ifndef GATE_EXPORT_H
#define GATE_EXPORT_H

#include <stdio.h>

#include "error.h"
#include "results.h"

/* An export format: its name for --format, what gate export --help says of it, and its writer,
 * which draws `results` (as results_parse read it) with the states and breaches of `verdict`
 * (results_verdict_read of the same document) and returns 0, or -1 with err when out of memory.
 * A new format is one writer and one entry of export_formats. */
struct export_format {
	const char *name;
	const char *about; /* lines of --help after the name, each ending "\n" */
	int (*write)(FILE *out, const struct results *results,
		     const struct results_verdict *verdict, struct gate_error *err);
};

extern const struct export_format export_formats[];
extern const size_t export_format_count;

/* The format named `name`, or NULL. */
const struct export_format *export_format_find(const char *name);

/* The names, for a message: "bmf, junit or csv". */
void export_format_names(char *text, size_t size);

/* The measures: every metric per message (metric_table's order: "instructions", "allocations",
 * "bytes", "peak-bytes", ...), then each of the cold start ("cold-instructions", ...); a scenario
 * has those of the metrics it has counts of. */
#define EXPORT_MEASURES (2 * METRIC_COUNT)

/* The name of measure `measure` (0 to EXPORT_MEASURES - 1): the figure's key in the metric table
 * (metric_figure_key: "peak_bytes", "cold_peak_bytes") with '-' for '_', so that every name is a
 * Bencher measure slug, [a-z][a-z0-9-]*, whatever metric the table gains. */
void export_measure_name(char *name, size_t size, size_t measure);


#endif
