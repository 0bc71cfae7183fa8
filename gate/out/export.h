/* Exports of one run's results for the tools people already run: Bencher Metric Format JSON
 * (`bencher run --adapter json`), JUnit XML (the test reports of GitLab, Jenkins, Buildkite) and
 * CSV (a spreadsheet). Each is made from the results document gate wrote, read strictly. */
#ifndef GATE_EXPORT_H
#define GATE_EXPORT_H

#include <stdio.h>

#include "error.h"
#include "results.h"

enum export_format { EXPORT_BMF, EXPORT_JUNIT, EXPORT_CSV };

/* "bmf", "junit", "csv" into *format; -1 for anything else. */
int export_format_parse(const char *name, enum export_format *format);

/* The measures: every metric per message (metric_table's order: "instructions", "allocations",
 * "bytes", "peak-bytes", ...), then each of the cold start ("cold-instructions", ...); a scenario
 * has those of the metrics it has counts of. */
#define EXPORT_MEASURES (2 * METRIC_COUNT)

/* The name of measure `measure` (0 to EXPORT_MEASURES - 1): the figure's key in the metric table
 * (metric_figure_key: "peak_bytes", "cold_peak_bytes") with '-' for '_', so that every name is a
 * Bencher measure slug, [a-z][a-z0-9-]*, whatever metric the table gains. */
void export_measure_name(char *name, size_t size, size_t measure);

/* Writes the export of `results` (as results_parse read it) to `out`, with the states and
 * breaches of `verdict` (results_verdict_read of the same document, which JUnit reports).
 * Returns 0, or -1 with err set when out of memory. */
int export_write(FILE *out, enum export_format format, const struct results *results,
		 const struct results_verdict *verdict, struct gate_error *err);

#endif
