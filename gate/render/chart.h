/* The history charts: one small SVG line chart per scenario and metric, for the results page
 * and as files of their own (gate history --svg). The chart carries its own presentation
 * attributes, so the same drawing reads the same inline and standalone; no script, no font. */
#ifndef GATE_CHART_H
#define GATE_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "history.h"

#define CHART_HISTORY_WIDTH 420
#define CHART_HISTORY_HEIGHT 200

/* Draws `series` over the versions of `history`: the figure as a step line from each commit that
 * changed it to the next, a dot per commit with a <title> (commit, date, subject, figure, change,
 * acceptance), a dashed vertical mark at each version measured with another fingerprint than the
 * one before, and the drift from the first figure to the last. `standalone` makes it a document
 * of its own (XML declaration and namespace). */
void chart_history(FILE *out, const struct history *history, const struct history_series *series,
		   bool standalone);

/* Writes text for XML and HTML: &, <, >, " and ' escaped, control characters as U+FFFD. */
void chart_escape(FILE *out, const char *text);

/* A figure as gate prints it in history: up to three decimals, trailing zeros dropped. */
void chart_format_value(char *text, size_t size, double value);

/* "+1.90 %", "-0.25 %", "0.00 %". */
void chart_format_percent(char *text, size_t size, double value);

#endif
