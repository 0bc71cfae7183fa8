/* The terminal report: one table row per scenario (sorted, exact figures), then the notes that
 * say why: failures, breaches, acceptances, floors to lower, improvements. */
#ifndef GATE_TABLE_H
#define GATE_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "verdict.h"

/* Writes the table and its notes to `out`. `refresh_command` is what refreshes the baseline
 * (shown with improvements), e.g. "make baseline". */
void table_print(FILE *out, const struct verdict *verdict, const char *refresh_command);

/* table_print without its last line, the verdict (for a caller that says why there is none). */
void table_print_body(FILE *out, const struct verdict *verdict, const char *refresh_command);

/* The notes under the table: baseline source, then each row's sentences (and, when asked, its
 * attribution), then stale acceptances. One sentence a line. */
void table_print_notes(FILE *out, const struct verdict *verdict, const char *refresh_command,
		       bool with_attribution);

/* The warning lines of a row whose slopes from 1 to N and from N to 2N differ by more than the
 * warning level (the part of table_print_row_notes an annotation of its own carries). */
void table_print_linearity_notes(FILE *out, const struct verdict_row *row);

/* The parts of a row's notes besides its failure, breaches, acceptances and floors. */
enum table_notes {
	TABLE_NOTES_ATTRIBUTION = 1 << 0, /* why: the functions and sites that moved */
	TABLE_NOTES_IMPROVEMENT = 1 << 1, /* the figures now cheaper than the limit allows, with
					   * the command that refreshes the baseline */
	TABLE_NOTES_WALL = 1 << 2,        /* the wall-clock line (table_print_wall) */
};

/* One row's sentences: failure, breaches, attribution, acceptances, floors, improvements
 * (`parts`: enum table_notes bits). */
void table_print_row_notes(FILE *out, const struct verdict *verdict,
			   const struct verdict_row *row, const char *refresh_command,
			   unsigned parts);

/* The wall-clock line of a row whose instructions regressed, when it was timed:
 * "NAME: wall clock head 0.58 s, baseline 0.79 s over 5 rounds (-26 %): instructions up, time
 * down". Informational: it never changes the verdict (docs/metrics.md). */
void table_print_wall(FILE *out, const struct verdict_row *row);

/* The improvement sentence of a row, when it has one: "NAME: improved: instructions per message
 * -10.74 % against the baseline, beyond the 2 % limit: refresh the baseline (COMMAND)". */
void table_print_improvement(FILE *out, const struct verdict_row *row,
			     const char *refresh_command);

/* A per-message figure as gate prints it everywhere: three decimals, exact for N = 1000. */
void table_format_per_message(char *text, size_t text_size, double value);

/* The sentence on the fill before each drain beside a breach outside the region: its
 * instructions per message on each side and its share of the change outside the region. */
void table_format_fill(char *text, size_t size, const struct verdict_row *row);

/* The lines of an allocation site: "head a.c:12, baseline a.c:9", or one side when the other
 * has none. */
void table_format_site_lines(char *text, size_t size, const struct attribution_site *site);

/* A change in percent with its sign, e.g. "+3.41 %", "-0.02 %"; a change that rounds to zero is
 * "+0.00 %", never "-0.00 %". */
void table_format_change(char *text, size_t text_size, double percent);

/* A signed figure at `decimals` decimals, "+96.000", "-1.500"; one that rounds to zero has the
 * plus sign. Returns text. */
const char *table_format_signed(char *text, size_t text_size, double value, int decimals);

#endif
