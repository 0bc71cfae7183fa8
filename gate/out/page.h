/* The results page (`gate report`): one self-contained HTML file drawn from a results document.
 * For each wall-clock pair of the `scenarios` section, each loop is a bar from its best round to
 * its slowest, with a dot at the best round and a notch at the median, against the raw loop's
 * best round as zero, the spread of the rounds shaded and the verdicts beside; then the `code`
 * section with inline SVG bars; then the machine (`environment`); and every chart as a table.
 * No script, no font, nothing fetched: a Content-Security-Policy that allows only inline styles
 * and data: images makes any reference to the network an error the browser reports. */
#ifndef GATE_PAGE_H
#define GATE_PAGE_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "error.h"
#include "history.h"

/* Checks `document` (schema 3: `scenarios` and/or `code`, `environment` optional; `source`
 * names it in errors) and writes the page to `out`. Returns 0, or -1 with err naming the first
 * value that is missing or of the wrong type. Nothing is written when the document is refused. */
int page_write(FILE *out, const cJSON *document, const char *source, struct gate_error *err);

/* The same with a history section after the code (gate report --history): per scenario, one
 * chart of instructions and one of allocations per message over the versions of the baseline
 * (chart.h), its drift, and a table of every figure. `history` may be NULL. */
int page_write_with_history(FILE *out, const cJSON *document, const struct history *history,
			    const char *source, struct gate_error *err);

#endif
