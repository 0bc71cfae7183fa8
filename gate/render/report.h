/* The reports a pull request reads: Markdown for the job summary and GitHub workflow-command
 * annotations for each breach. Both are made from the verdict alone, so they say what the
 * terminal table says. */
#ifndef GATE_REPORT_H
#define GATE_REPORT_H

#include <stdio.h>

#include "environment.h"
#include "verdict.h"

/* The Markdown report: the verdict line first, the table, why each failing scenario moved,
 * accepted changes with their reasons, the environment and fingerprint in a collapsed block, and
 * `reproduce`: the local command that repeats the run. */
void report_markdown(FILE *out, const struct verdict *verdict,
		     const struct environment *environment, const char *reproduce);

/* `::error title=...::message` for each breach and failure that fails the run, `::warning` for
 * a regression that does not, floors to lower and stale acceptances, `::notice` for an
 * improvement (never an error: it asks only for the baseline to be refreshed). */
void report_annotations(FILE *out, const struct verdict *verdict);

#endif
