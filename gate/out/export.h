/* Exports of one run's results for the tools people already run: Bencher Metric Format JSON
 * (`bencher run --adapter json`), JUnit XML (the test reports of GitLab, Jenkins, Buildkite) and
 * CSV (a spreadsheet). Each is made from the results document gate wrote, read strictly. */
#ifndef GATE_EXPORT_H
#define GATE_EXPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "error.h"
#include "results.h"

enum export_format { EXPORT_BMF, EXPORT_JUNIT, EXPORT_CSV };

/* "bmf", "junit", "csv" into *format; -1 for anything else. */
int export_format_parse(const char *name, enum export_format *format);

/* The measures, in this order: "instructions" and "allocations" per message, "cold-instructions"
 * and "cold-allocations" of the cold start. */
#define EXPORT_MEASURES 4
const char *export_measure_name(size_t measure);

/* Writes the export of `results` (as results_parse read it) to `out`; `document` is the same
 * document as JSON, for its verdict (costgate.verdict: states and breaches, which JUnit reports).
 * Returns 0, or -1 with err set when the verdict block is malformed. */
int export_write(FILE *out, enum export_format format, const struct results *results,
		 const cJSON *document, const char *source, struct gate_error *err);

#endif
