/* The results page (`gate report`): one self-contained HTML file drawn from a results document.
 * First the verdict, then every scenario of the `code` section with its state against the
 * baseline, with inline SVG bars. For each wall-clock pair of the `scenarios` section, each loop
 * is a bar from its best round to its slowest, with a dot at the best round and a notch at the
 * median, against the raw loop's best round as zero, the spread of the rounds shaded and the
 * verdicts beside; then the machine (`environment`); and every chart as a table.
 * No script, no font, nothing fetched: a Content-Security-Policy that allows only inline styles
 * and data: images makes any reference to the network an error the browser reports. */
#ifndef GATE_PAGE_H
#define GATE_PAGE_H

#include <stdio.h>

#include "history.h"
#include "results.h"

/* Writes the page of a document read with results_view_read (`source` names it at the foot). It
 * opens with the verdict of `verdict` (results_verdict_read of the same document; NULL or no
 * exit code: the page says there is none), then every scenario of the code section and of the
 * verdict, failed ones first, with its state, its baseline figures and their change. A history
 * section follows the code when `history` is not NULL (gate report --history): per scenario,
 * one chart of instructions and one of allocations per message over the versions of the
 * baseline (chart.h), its drift, and a table of every figure. */
void page_write(FILE *out, const struct results_view *page, const struct results_verdict *verdict,
		const struct history *history, const char *source);

#endif
