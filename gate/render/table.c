/* The terminal table. Cells are formatted first, then the columns are sized to fit: no
 * truncation, numbers right-aligned, no colour (a terminal gets the same bytes as a file). */
#define _GNU_SOURCE
#include "table.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define MAX_COLUMNS (12 + METRIC_COUNT)
#define CELL 400 /* a row's whole state (verdict_row.state_text) */

struct table {
	const char *headers[MAX_COLUMNS];
	size_t column_count;
	char (*cells)[MAX_COLUMNS][CELL]; /* one row of cells per verdict row */
	size_t row_count;
};

void table_format_per_message(char *text, size_t text_size, double value)
{
	snprintf(text, text_size, "%.3f", value);
}

const char *table_format_signed(char *text, size_t text_size, double value, int decimals)
{
	snprintf(text, text_size, "%+.*f", decimals, value);
	/* printf rounds -0.001 to "-0.00": a sign with no figure behind it. */
	if (text[0] == '-' && text[1 + strspn(text + 1, "0.")] == '\0')
		text[0] = '+';
	return text;
}

void table_format_change(char *text, size_t text_size, double percent)
{
	char figure[64];

	snprintf(text, text_size, "%s %%", table_format_signed(figure, sizeof(figure), percent, 2));
}

static void format_count(char *text, uint64_t value)
{
	snprintf(text, CELL, "%" PRIu64, value);
}

/* The metrics after instructions and allocations (metric_table), each a column where it shows:
 * bytes always, another when some row has counts of it. */
static bool shows_metric(const struct verdict *verdict, size_t metric)
{
	size_t i;

	if (metric == METRIC_BYTES)
		return true;
	for (i = 0; i < verdict->row_count; i++)
		if (verdict->rows[i].head != NULL && verdict->rows[i].head->has[metric])
			return true;
	return false;
}

#define FIRST_EXTRA_METRIC METRIC_BYTES

static size_t header_columns(struct table *table, const struct verdict *verdict, bool shown[METRIC_COUNT])
{
	static const char *const plain_before[] = { "scenario", "instr/msg", "alloc/msg" };
	static const char *const plain_after[] = { "cold instr", "cold alloc", "floors msg/cold", "state" };
	static const char *const compared_before[] = { "scenario", "instr/msg", "baseline", "change",
						       "cold instr", "baseline", "change", "alloc/msg" };
	static const char *const compared_after[] = { "cold alloc", "floors msg/cold", "state" };
	const char *const *before = verdict->compared ? compared_before : plain_before;
	const char *const *after = verdict->compared ? compared_after : plain_after;
	size_t before_count = verdict->compared ? 8 : 3, after_count = verdict->compared ? 3 : 4;
	size_t count = 0, i;

	for (i = 0; i < before_count; i++)
		table->headers[count++] = before[i];
	for (i = FIRST_EXTRA_METRIC; i < METRIC_COUNT; i++) {
		shown[i] = shows_metric(verdict, i);
		if (shown[i])
			table->headers[count++] = metric_table[i].column;
	}
	for (i = 0; i < after_count; i++)
		table->headers[count++] = after[i];
	return count;
}

/* One extra metric's cell: its figure, and its change when it was compared with the baseline. */
static void format_metric(char *cell, const struct verdict_row *row, size_t metric)
{
	const struct measurement *head = row->head;
	char figure[24], change[20];

	if (!head->has[metric]) {
		snprintf(cell, CELL, "-");
		return;
	}
	if (metric_table[metric].shows_cold)
		snprintf(figure, sizeof(figure), "%" PRIu64, head->slopes[metric].cold);
	else
		table_format_per_message(figure, sizeof(figure), head->slopes[metric].per_message);
	enum verdict_figure shown = metric_table[metric].shows_cold ? VERDICT_COLD
								    : VERDICT_PER_MESSAGE;

	if ((row->limit_compared & (1u << metric)) &&
	    !(row->unscaled & (1u << (2 * metric + (shown == VERDICT_COLD))))) {
		table_format_change(change, sizeof(change), row->changes[metric][shown]);
		snprintf(cell, CELL, "%s (%s)", figure, change);
	} else {
		snprintf(cell, CELL, "%s", figure);
	}
}

/* Fills one row of cells in the column order of header_columns. */
static void fill_row(char cells[MAX_COLUMNS][CELL], const struct verdict_row *row, bool compared,
		     const bool shown[METRIC_COUNT], size_t column_count)
{
	const struct measurement *head = row->head, *base = row->baseline;
	char floors[CELL], steady_floor[24];
	size_t column = 0, metric;

	snprintf(cells[column++], CELL, "%s", row->name);
	if (head == NULL || head->failed) {
		for (; column + 1 < column_count; column++)
			snprintf(cells[column], CELL, "-");
		snprintf(cells[column], CELL, "%s", verdict_state_name(row->state));
		return;
	}
	table_format_per_message(cells[column++], CELL, head->slopes[METRIC_INSTRUCTIONS].per_message);
	if (compared) {
		if (base != NULL) {
			table_format_per_message(cells[column++], CELL, base->slopes[METRIC_INSTRUCTIONS].per_message);
			table_format_change(cells[column++], CELL,
					    row->changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE]);
		} else {
			snprintf(cells[column++], CELL, "-");
			snprintf(cells[column++], CELL, "-");
		}
		format_count(cells[column++], head->slopes[METRIC_INSTRUCTIONS].cold);
		if (base != NULL) {
			format_count(cells[column++], base->slopes[METRIC_INSTRUCTIONS].cold);
			table_format_change(cells[column++], CELL,
					    row->changes[METRIC_INSTRUCTIONS][VERDICT_COLD]);
		} else {
			snprintf(cells[column++], CELL, "-");
			snprintf(cells[column++], CELL, "-");
		}
	}
	table_format_per_message(cells[column++], CELL, head->slopes[METRIC_ALLOCATIONS].per_message);
	for (metric = FIRST_EXTRA_METRIC; metric < METRIC_COUNT; metric++)
		if (shown[metric])
			format_metric(cells[column++], row, metric);
	if (!compared)
		format_count(cells[column++], head->slopes[METRIC_INSTRUCTIONS].cold);
	format_count(cells[column++], head->slopes[METRIC_ALLOCATIONS].cold);
	snprintf(steady_floor, sizeof(steady_floor), "%g", head->info.steady_floor);
	snprintf(floors, sizeof(floors), "%s/%" PRIu64, steady_floor, head->info.cold_floor);
	snprintf(cells[column++], CELL, "%s", floors);
	snprintf(cells[column], CELL, "%s", verdict_row_state_text(row));
}

static void print_rows(FILE *out, const struct table *table)
{
	size_t widths[MAX_COLUMNS] = { 0 }, row, column;

	for (column = 0; column < table->column_count; column++) {
		widths[column] = strlen(table->headers[column]);
		for (row = 0; row < table->row_count; row++)
			if (strlen(table->cells[row][column]) > widths[column])
				widths[column] = strlen(table->cells[row][column]);
	}
	for (column = 0; column < table->column_count; column++) {
		if (column == 0)
			fprintf(out, "%-*s", (int)widths[column], table->headers[column]);
		else if (column + 1 == table->column_count)
			fprintf(out, "  %s", table->headers[column]);
		else
			fprintf(out, "  %*s", (int)widths[column], table->headers[column]);
	}
	fputc('\n', out);
	for (row = 0; row < table->row_count; row++) {
		for (column = 0; column < table->column_count; column++) {
			if (column == 0)
				fprintf(out, "%-*s", (int)widths[column], table->cells[row][column]);
			else if (column + 1 == table->column_count)
				fprintf(out, "  %s", table->cells[row][column]);
			else
				fprintf(out, "  %*s", (int)widths[column], table->cells[row][column]);
		}
		fputc('\n', out);
	}
}

/* Settings looser than the baseline's (a breach unless accepted) and stricter ones (a note). */
static void print_settings(FILE *out, const struct verdict_row *row)
{
	const struct measurement *head = row->head, *base = row->baseline;
	uint64_t loose = row->breaches, strict = row->tightened;

	if (loose & BREACH_UNGATED)
		fprintf(out, "%s: not gated, but the baseline gates it: loosening a setting is a "
			"breach unless accepted (metric 'gated', value 0)\n", row->name);
	if (loose & BREACH_LIMIT_RAISED)
		fprintf(out, "%s: the instruction limit %g %% is above the baseline's %g %%: loosening "
			"a setting is a breach unless accepted (metric 'limit_percent')\n", row->name,
			head->info.limit_percent > 0 ? head->info.limit_percent : VERDICT_DEFAULT_LIMIT_PERCENT,
			row->baseline_limit_percent);
	if (loose & BREACH_STEADY_FLOOR_RAISED)
		fprintf(out, "%s: the steady floor %g is above the baseline's %g: loosening a setting "
			"is a breach unless accepted (metric 'steady_allocations_floor')\n", row->name,
			head->info.steady_floor, base->info.steady_floor);
	if (loose & BREACH_COLD_FLOOR_RAISED)
		fprintf(out, "%s: the cold floor %" PRIu64 " is above the baseline's %" PRIu64 ": "
			"loosening a setting is a breach unless accepted (metric "
			"'cold_allocations_floor')\n", row->name, head->info.cold_floor,
			base->info.cold_floor);
	if (strict & BREACH_UNGATED)
		fprintf(out, "%s: note: gated now (the baseline's is not)\n", row->name);
	if (strict & BREACH_LIMIT_RAISED)
		fprintf(out, "%s: note: the instruction limit is now %g %% (the baseline's: %g %%)\n",
			row->name, row->limit_percent, row->baseline_limit_percent);
	if (strict & BREACH_STEADY_FLOOR_RAISED)
		fprintf(out, "%s: note: the steady floor is now %g (the baseline's: %g)\n", row->name,
			head->info.steady_floor, base->info.steady_floor);
	if (strict & BREACH_COLD_FLOOR_RAISED)
		fprintf(out, "%s: note: the cold floor is now %" PRIu64 " (the baseline's: %" PRIu64 ")\n",
			row->name, head->info.cold_floor, base->info.cold_floor);
	if (loose & BREACH_LINEARITY_RAISED)
		fprintf(out, "%s: the linearity limit %g %% is above the baseline's %g %%: loosening "
			"a setting is a breach unless accepted (metric 'linearity_percent')\n",
			row->name, row->linearity_percent, row->baseline_linearity_percent);
	if (loose & BREACH_ALLOCATOR_LIMIT_RAISED)
		fprintf(out, "%s: the allocator's limit %g %% is above the baseline's %g %%: loosening "
			"a setting is a breach unless accepted (metric 'allocator_limit_percent')\n",
			row->name, metric_limit_percent(METRIC_ALLOCATOR_INSTRUCTIONS, &head->info),
			row->baseline_allocator_limit_percent);
	if (strict & BREACH_LINEARITY_RAISED)
		fprintf(out, "%s: note: the linearity limit is now %g %% (the baseline's: %g %%)\n",
			row->name, row->linearity_percent, row->baseline_linearity_percent);
	if (strict & BREACH_ALLOCATOR_LIMIT_RAISED)
		fprintf(out, "%s: note: the allocator's limit is now %g %% (the baseline's: %g %%)\n",
			row->name, row->allocator_limit_percent, row->baseline_allocator_limit_percent);
}

/* A floor of a metric beyond instructions and allocations exceeded: "bytes_tenfold: 640.000
 * bytes (heap bytes allocated) per message, above the declared floor of 64 ('steady_bytes')". */
static void print_floor_over(FILE *out, const struct verdict_row *row, size_t metric, int cold)
{
	const struct measurement *head = row->head;
	const struct metric *entry = &metric_table[metric];
	double floor = row->floors[metric][cold];
	char head_text[32], key[SCENARIO_KEY_SIZE];

	if (!cold)
		table_format_per_message(head_text, sizeof(head_text), head->slopes[metric].per_message);
	else
		snprintf(head_text, sizeof(head_text), "%" PRIu64, head->slopes[metric].cold);
	metric_floor_key(key, sizeof(key), metric, cold);
	fprintf(out, "%s: %s %s (%s) %s, above the %s floor of %g ('%s')\n", row->name, head_text,
		entry->unit, entry->title, cold ? "in the cold run" : "per message",
		floor == metric_floor(&head->info, metric, cold) ? "declared" : "baseline's", floor,
		key);
}

/* The floors of the metrics beyond instructions and allocations, and the settings of each: its
 * floors, and its gating on request. */
static void print_metric_breaches(FILE *out, const struct verdict_row *row)
{
	const struct measurement *head = row->head, *base = row->baseline;
	char key[SCENARIO_KEY_SIZE];
	size_t metric;
	int cold;

	for (metric = 0; metric < METRIC_COUNT; metric++)
		for (cold = 0; cold <= 1; cold++)
			if (metric_table[metric].floors && (row->breaches & BREACH_FLOOR_OVER(metric, cold)))
				print_floor_over(out, row, metric, cold);
	for (metric = 0; metric < METRIC_COUNT; metric++) {
		if (row->breaches & BREACH_METRIC_UNGATED(metric))
			fprintf(out, "%s: %s not gated, but the baseline gates them: loosening a setting is "
				"a breach unless accepted (metric 'gate_%s', value 0)\n", row->name,
				metric_table[metric].title, metric_table[metric].key);
		for (cold = 0; cold <= 1; cold++) {
			double here, there;

			if (!metric_table[metric].floors ||
			    !(row->breaches & BREACH_FLOOR_RAISED(metric, cold)))
				continue;
			here = metric_floor(&head->info, metric, cold);
			there = metric_floor(&base->info, metric, cold);
			metric_floor_key(key, sizeof(key), metric, cold);
			if (there == 0)
				fprintf(out,
					"%s: the floor '%s' is %g, where the baseline declares none and "
					"holds %s to no rise over its %g: loosening a setting is a breach "
					"unless accepted (metric '%s_floor')\n",
					row->name, key, here, metric_table[metric].title,
					cold ? (double)base->slopes[metric].cold
					     : base->slopes[metric].per_message,
					key);
			else if (here == 0)
				fprintf(out, "%s: the floor '%s' is no longer declared (the baseline's: %g): "
					"loosening a setting is a breach unless accepted (metric "
					"'%s_floor', value 0)\n", row->name, key, there, key);
			else
				fprintf(out, "%s: the floor '%s' is %g, above the baseline's %g: loosening "
					"a setting is a breach unless accepted (metric '%s_floor')\n",
					row->name, key, here, there, key);
		}
	}
}

/* "above the 2 % limit"; a METRIC_RISE metric's "a rise, where no floor is declared". */
static const char *limit_words(const struct verdict_row *row, size_t metric, bool cold,
			       char *text, size_t size)
{
	char key[SCENARIO_KEY_SIZE];

	if (metric_table[metric].gating == METRIC_RISE) {
		metric_floor_key(key, sizeof(key), metric, cold);
		if (metric_floor(&row->head->info, metric, cold) > 0)
			snprintf(text, size, "a rise, its floor '%s' not accepted", key);
		else
			snprintf(text, size, "a rise, where no floor is declared ('%s')", key);
	} else {
		snprintf(text, size, "above the %g %% limit", verdict_limit(row, metric));
	}
	return text;
}

/* What an acceptance of that kind lets go up to its value: "% as the instruction limit",
 * "instructions per message", "cold estimated cycles", "as the floor 'steady_bytes'"; for a
 * metric gated on request, the metric ("estimated cycles"). */
static void acceptance_words(char *what, size_t size, size_t kind)
{
	static const char *const settings[ACCEPT_FIGURES] = {
		"", "% as the instruction limit", "as the steady floor", "as the cold floor",
		"instructions per message in the process", "% as the linearity limit",
		"% as the allocator's limit", "% growth with the messages handled",
	};
	enum metric_kind which;
	enum metric_id metric;
	char key[SCENARIO_KEY_SIZE];

	if (kind < ACCEPT_FIGURES) {
		snprintf(what, size, "%s", settings[kind]);
		return;
	}
	metric = metric_of_kind((unsigned)kind, &which);
	switch (which) {
	case METRIC_KIND_FIGURE:
		snprintf(what, size, "%s per message", metric_table[metric].title);
		break;
	case METRIC_KIND_COLD:
		snprintf(what, size, "cold %s", metric_table[metric].title);
		break;
	case METRIC_KIND_STEADY_FLOOR:
	case METRIC_KIND_COLD_FLOOR:
		metric_floor_key(key, sizeof(key), metric, which == METRIC_KIND_COLD_FLOOR);
		snprintf(what, size, "as the floor '%s'", key);
		break;
	case METRIC_KIND_GATE:
	case METRIC_KINDS:
		snprintf(what, size, "%s", metric_table[metric].title);
		break;
	}
}

/* After a per_allocation figure compared for the head's allocations: what the baseline
 * measured, for how many. */
static void print_scaled(FILE *out, const struct verdict_row *row, size_t metric,
			 enum verdict_figure figure)
{
	bool cold = figure == VERDICT_COLD;
	const struct slope *base = &row->baseline->slopes[metric];
	const struct slope *blocks = &row->baseline->slopes[METRIC_ALLOCATIONS];
	const struct slope *head_blocks = &row->head->slopes[METRIC_ALLOCATIONS];
	double measured = cold ? (double)base->cold : base->per_message;

	if (!metric_table[metric].per_allocation || row->compared_with[metric][figure] == measured)
		return;
	if (cold)
		fprintf(out, " (its %" PRIu64 " for %" PRIu64 " allocations, for the head's %" PRIu64
			")", base->cold, blocks->cold, head_blocks->cold);
	else
		fprintf(out, " (its %.3f for %.3f allocations a message, for the head's %.3f)",
			base->per_message, blocks->per_message, head_blocks->per_message);
}

/* The metrics compared at a limit, per message and cold, above it. */
static void print_limit_breaches(FILE *out, const struct verdict_row *row)
{
	const struct measurement *head = row->head, *base = row->baseline;
	char head_text[32], base_text[32], change[32], limit_text[128];
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		const struct metric *entry = &metric_table[metric];
		int steady = verdict_limit_acceptance(metric, VERDICT_PER_MESSAGE);
		int cold = verdict_limit_acceptance(metric, VERDICT_COLD);

		if (!(row->limit_compared & (1u << metric)))
			continue;
		if (steady >= 0 && (row->breaches & verdict_metric_breach(steady))) {
			table_format_per_message(head_text, sizeof(head_text),
						 head->slopes[metric].per_message);
			table_format_per_message(base_text, sizeof(base_text),
						 row->compared_with[metric][VERDICT_PER_MESSAGE]);
			table_format_change(change, sizeof(change),
					    row->changes[metric][VERDICT_PER_MESSAGE]);
			fprintf(out, "%s: %s %s per message against %s in the baseline", row->name,
				head_text, entry->title, base_text);
			print_scaled(out, row, metric, VERDICT_PER_MESSAGE);
			fprintf(out, ": %s, %s", change,
				limit_words(row, metric, false, limit_text, sizeof(limit_text)));
			if (entry->limit_note != NULL)
				fprintf(out, " (%s)", entry->limit_note);
			fputc('\n', out);
		}
		if (cold >= 0 && (row->breaches & verdict_metric_breach(cold))) {
			/* A cold count is whole; scaled to the head's allocations it need not be. */
			if (row->compared_with[metric][VERDICT_COLD] == (double)base->slopes[metric].cold)
				snprintf(base_text, sizeof(base_text), "%" PRIu64,
					 base->slopes[metric].cold);
			else
				table_format_per_message(base_text, sizeof(base_text),
							 row->compared_with[metric][VERDICT_COLD]);
			table_format_change(change, sizeof(change), row->changes[metric][VERDICT_COLD]);
			fprintf(out, "%s: %" PRIu64 " cold %s against %s in the baseline", row->name,
				head->slopes[metric].cold, entry->title, base_text);
			print_scaled(out, row, metric, VERDICT_COLD);
			fprintf(out, ": %s, %s\n", change,
				limit_words(row, metric, true, limit_text, sizeof(limit_text)));
		}
	}
}

static void print_breaches(FILE *out, const struct verdict_row *row)
{
	const struct measurement *head = row->head;
	char head_text[32], base_text[32], change[32];

	print_limit_breaches(out, row);
	if (row->breaches & BREACH_GROWTH) {
		const struct slope *slope = &head->slopes[METRIC_INSTRUCTIONS];

		table_format_change(head_text, sizeof(head_text), row->growth_head);
		table_format_change(base_text, sizeof(base_text), row->growth_baseline);
		fprintf(out, "%s: cost per message grows with the messages handled: %.3f instructions "
			"per message from 1 to N, %.3f from N to 2N (N = %" PRIu64 "), %s against "
			"the baseline's %s, above the %g point margin\n", row->name,
			slope->per_message_early, slope->per_message, head->messages, head_text,
			base_text, VERDICT_GROWTH_MARGIN_PERCENT);
	}
	if (row->breaches & BREACH_PROCESS_INSTRUCTIONS) {
		table_format_per_message(head_text, sizeof(head_text), row->process_head);
		table_format_per_message(base_text, sizeof(base_text), row->process_baseline);
		table_format_change(change, sizeof(change), row->process_change);
		fprintf(out, "%s: %s instructions per message in the whole process against %s in the "
			"baseline: %s, ", row->name, head_text, base_text, change);
		table_format_change(change, sizeof(change), row->outside_change);
		fprintf(out, "%s outside the region, above the %g %% limit (work done at fill time, on "
			"another thread or at exit", change, row->limit_percent);
		if (row->exit_excess > 0)
			fprintf(out, "; at exit %.3f a message handled beyond the baseline's exit",
				row->exit_excess);
		fputs(")\n", out);
	}
	if (row->breaches & BREACH_STEADY_FLOOR) {
		table_format_per_message(head_text, sizeof(head_text), head->slopes[METRIC_ALLOCATIONS].per_message);
		fprintf(out, "%s: %s allocations per message, above the %s floor of %g\n",
			row->name, head_text, row->steady_floor == head->info.steady_floor ? "declared"
											   : "baseline's",
			row->steady_floor);
	}
	if (row->breaches & BREACH_COLD_FLOOR)
		fprintf(out, "%s: %" PRIu64 " allocations in the cold run, above the %s floor of "
			"%" PRIu64 "\n", row->name, head->slopes[METRIC_ALLOCATIONS].cold,
			row->cold_floor == head->info.cold_floor ? "declared" : "baseline's", row->cold_floor);
	print_metric_breaches(out, row);
	print_settings(out, row);
}

void table_format_site_lines(char *text, size_t size, const struct attribution_site *site)
{
	bool head = site->head_lines[0] != '\0', base = site->baseline_lines[0] != '\0';

	snprintf(text, size, "%s%s%s%s%s", head ? "head " : "", site->head_lines,
		 head && base ? ", " : "", base ? "baseline " : "", site->baseline_lines);
}

static const char *appeared_mark(bool appeared, bool disappeared)
{
	return appeared ? "  (new)" : disappeared ? "  (gone)" : "";
}

static void print_functions(FILE *out, const struct attribution_function *rows, size_t count)
{
	char head[32], base[32], change[32], exclusive[32], inclusive[32];
	size_t i;

	if (count > 0)
		fprintf(out, "  %12s  %12s  %12s  %12s  %12s  %7s  %s\n", "head", "baseline", "change",
			"exclusive", "inclusive", "share", "function");
	for (i = 0; i < count; i++) {
		const struct attribution_function *function = &rows[i];

		table_format_per_message(head, sizeof(head), function->head);
		table_format_per_message(base, sizeof(base), function->baseline);
		table_format_signed(change, sizeof(change), function->change, 3);
		table_format_signed(exclusive, sizeof(exclusive), function->exclusive_change, 3);
		table_format_signed(inclusive, sizeof(inclusive), function->inclusive_change, 3);
		fprintf(out, "  %12s  %12s  %12s  %12s  %12s  %5.1f %%  ", head, base, change,
			exclusive, inclusive, function->share_percent);
		text_terminal(out, function->name);
		fprintf(out, "%s\n", appeared_mark(function->appeared, function->disappeared));
	}
}

/* The project's source lines whose cost per message changed most: where in the code it went. */
static void print_lines(FILE *out, const char *name, const struct attribution *why)
{
	char head[32], base[32], change[32], place[64];
	size_t i;

	if (why->line_count == 0)
		return;
	text_terminal(out, name);
	fprintf(out, ": source lines whose instructions per message, own + system-library callees "
		"(the allocator apart), changed most:\n  %12s  %12s  %12s  %s\n", "head", "baseline",
		"change", "line");
	for (i = 0; i < why->line_count; i++) {
		const struct attribution_line *line = &why->lines[i];

		table_format_per_message(head, sizeof(head), line->head);
		table_format_per_message(base, sizeof(base), line->baseline);
		table_format_signed(change, sizeof(change), line->change, 3);
		fprintf(out, "  %12s  %12s  %12s  ", head, base, change);
		text_terminal(out, line->file);
		snprintf(place, sizeof(place), ":%" PRIu64 "%s  ", line->line,
			 appeared_mark(line->appeared, line->disappeared));
		fputs(place, out);
		text_terminal(out, line->text);
		fputc('\n', out);
	}
}

/* A short table of functions with a figure on each side: "NAME<title>:" and its rows. */
static void print_counts(FILE *out, const char *name, const struct attribution_function *rows,
			 size_t count, const char *title, const char *head_heading,
			 const char *base_heading, const char *change_heading)
{
	char head[32], base[32], change[32];
	size_t i;

	if (count == 0)
		return;
	text_terminal(out, name);
	fprintf(out, "%s:\n  %12s  %12s  %12s  %s\n", title, head_heading, base_heading,
		change_heading, "function");
	for (i = 0; i < count; i++) {
		table_format_per_message(head, sizeof(head), rows[i].head);
		table_format_per_message(base, sizeof(base), rows[i].baseline);
		table_format_signed(change, sizeof(change), rows[i].change, 3);
		fprintf(out, "  %12s  %12s  %12s  ", head, base, change);
		text_terminal(out, rows[i].name);
		fprintf(out, "%s\n", appeared_mark(rows[i].appeared, rows[i].disappeared));
	}
}

/* The work outside the region per message, head - baseline: what compare_process (verdict.c)
 * found beyond the region's own change. */
static double outside_change(const struct verdict_row *row)
{
	return row->process_baseline * row->outside_change / 100.0;
}

void table_format_fill(char *text, size_t size, const struct verdict_row *row)
{
	const struct attribution *why = row->attribution;
	char head[32], base[32], change[32];
	double outside = outside_change(row), fill = why->fill_head - why->fill_baseline;

	table_format_per_message(head, sizeof(head), why->fill_head);
	if (!why->has_fill_baseline) {
		snprintf(text, size, "the fill before each drain, outside the region (the scenario's "
			 "body generator making each message), costs %s instructions per message; "
			 "the baseline was saved before gate measured it", head);
		return;
	}
	table_format_per_message(base, sizeof(base), why->fill_baseline);
	table_format_signed(change, sizeof(change), fill, 3);
	snprintf(text, size, "the fill before each drain, outside the region (the scenario's body "
		 "generator making each message), costs %s instructions per message against %s in "
		 "the baseline (%s): %.1f %% of the change outside the region", head, base, change,
		 outside != 0 ? fill / outside * 100.0 : 0.0);
}

/* A breach outside the region: how much of it the fill is, and its functions that moved. */
static void print_fill(FILE *out, const struct verdict_row *row)
{
	const struct attribution *why = row->attribution;
	char text[512];

	if (!(row->breaches & BREACH_PROCESS_INSTRUCTIONS) || !why->has_fill)
		return;
	table_format_fill(text, sizeof(text), row);
	text_terminal(out, row->name);
	fprintf(out, ": %s\n", text);
	print_counts(out, row->name, why->fill, why->fill_count,
		     why->has_fill_baseline
			     ? ": project functions in the fill whose instructions per message, "
			       "own + system-library callees, changed most"
			     : ": the dearest project functions in the fill, instructions per "
			       "message, own + system-library callees",
		     "head", "baseline", "change");
}

/* Why a row moved: the functions and the allocation sites that changed most, per message. */
static void print_attribution(FILE *out, const struct verdict_row *row)
{
	const struct attribution *why = row->attribution;
	char head[32], base[32], change[32], inclusive[32], lines[2 * ATTRIBUTION_TEXT + 32];
	size_t i;

	if (why->function_count > 0)
	{
		text_terminal(out, row->name);
		fprintf(out, ": project functions whose instructions per message, own + "
			"system-library callees (the allocator apart), changed most (%s in all):\n",
			table_format_signed(change, sizeof(change), why->total_change, 3));
	}
	print_functions(out, why->functions, why->function_count);
	if (why->function_count > 0) {
		table_format_signed(change, sizeof(change), why->rest_change, 3);
		fprintf(out, "  %12s  %12s  %12s  %12s  %12s  %5.1f %%  (the rest)\n", "", "", change,
			"", "", why->rest_share_percent);
	}
	if (fabs(why->harness_change) >= 0.0005) {
		text_terminal(out, row->name);
		fprintf(out, ": costgate's harness compiled into the program (its queue and the "
			"region's entry) accounts for %s instructions per message of the change: "
			"not the project's code\n",
			table_format_signed(change, sizeof(change), why->harness_change, 3));
	}
	if (why->allocator_change != 0) {
		text_terminal(out, row->name);
		fprintf(out, ": the allocator (malloc, free, ... and below), reported apart: %s "
			"instructions per message\n",
			table_format_signed(change, sizeof(change), why->allocator_change, 3));
	}
	if (why->leaf_count > 0) {
		text_terminal(out, row->name);
		fputs(": system-library functions whose exclusive instructions per message "
		      "changed most:\n", out);
	}
	print_functions(out, why->leaves, why->leaf_count);
	print_fill(out, row);
	print_lines(out, row->name, why);
	print_counts(out, row->name, why->syscalls, why->syscall_count,
		     ": project functions whose system calls per message, own + system-library "
		     "callees, changed", "head", "baseline", "change");
	if (row->breaches & BREACH_GROWTH)
		print_counts(out, row->name, why->growing, why->growing_count,
			     ": project functions whose instructions per message, own + "
			     "system-library callees, are higher from N to 2N than from 1 to N",
			     "N to 2N", "1 to N", "growth");
	if (why->site_count > 0)
		fprintf(out, "%s: allocation sites %s:\n  %10s  %10s  %10s  %12s  %s\n", row->name,
			row->baseline ? "whose blocks per message changed"
				      : "under the region, per message (no baseline to compare with)",
			"head", "baseline", "change", "bytes change", "site < callers");
	for (i = 0; i < why->site_count; i++) {
		const struct attribution_site *site = &why->sites[i];

		table_format_per_message(head, sizeof(head), site->head_blocks);
		table_format_per_message(base, sizeof(base), site->baseline_blocks);
		table_format_signed(change, sizeof(change), site->blocks_change, 3);
		table_format_signed(inclusive, sizeof(inclusive), site->bytes_change, 3);
		table_format_site_lines(lines, sizeof(lines), site);
		fprintf(out, "  %10s  %10s  %10s  %12s  ", head, base, change, inclusive);
		text_terminal(out, site->chain);
		fprintf(out, "%s%s", appeared_mark(site->appeared, site->disappeared),
			lines[0] ? "  at " : "");
		text_terminal(out, lines);
		fputc('\n', out);
	}
}

/* Between the warning level and the limit (above it the measurement failed): say so, with both
 * slopes, so a per-message figure that still depends on N is not taken for the steady state. */
static void table_print_linearity(FILE *out, const char *name, const struct measurement *head,
				  const struct slope *slope, const char *what)
{
	double limit = head->info.linearity_percent > 0 ? head->info.linearity_percent
							: SLOPE_LINEARITY_LIMIT_PERCENT;

	if (!slope->nonlinear)
		return;
	fprintf(out, "%s: warning: not quite linear: %s per message are %.3f from 1 to N and %.3f "
		"from N to 2N, %.2f %% apart (failure above %g %%): is the cost per message "
		"constant?\n", name, what, slope->per_message_early, slope->per_message,
		slope->linearity_percent, limit);
}

void table_print_wall(FILE *out, const struct verdict_row *row)
{
	const struct verdict_wall *wall = row->wall;

	if (wall == NULL)
		return;
	if (!wall->timed) {
		/* The reason can quote a run's error, which a pull request's program wrote. */
		fprintf(out, "%s: wall clock not compared: ", row->name);
		text_terminal(out, wall->why_not);
		fputc('\n', out);
		return;
	}
	fprintf(out, "%s: wall clock head %.2f s, baseline %.2f s over %u rounds (%+.0f %%): "
		"instructions up, %s\n", row->name, wall->head_seconds, wall->baseline_seconds,
		wall->rounds, wall->change_percent, verdict_wall_conclusion(wall));
}

void table_print_improvement(FILE *out, const struct verdict_row *row,
			     const char *refresh_command)
{
	const char *separator = "";
	char change[32];
	size_t metric;

	if (row->improvements == 0 || row->head == NULL || row->head->failed)
		return;
	fprintf(out, "%s: improved: ", row->name);
	for (metric = 0; metric < METRIC_COUNT; metric++) {
		enum verdict_figure figure;

		for (figure = VERDICT_PER_MESSAGE; figure < VERDICT_FIGURES; figure++) {
			int kind = verdict_limit_acceptance(metric, figure);

			if (kind < 0 || (row->improvements & verdict_metric_breach(kind)) == 0)
				continue;
			table_format_change(change, sizeof(change), row->changes[metric][figure]);
			fprintf(out, "%s%s%s%s %s", separator, figure == VERDICT_COLD ? "cold " : "",
				metric_table[metric].title,
				figure == VERDICT_COLD ? "" : " per message", change);
			separator = ", ";
		}
	}
	fprintf(out, " against the baseline, beyond the %g %% limit: refresh the baseline (%s)\n",
		row->limit_percent, refresh_command);
}

void table_print_row_notes(FILE *out, const struct verdict *verdict,
			   const struct verdict_row *row, const char *refresh_command,
			   unsigned parts)
{
	const struct measurement *head = row->head;
	char text[32];
	size_t metric;

	if (row->state == VERDICT_MISSING) {
		fprintf(out, "%s: in the baseline but not measured: the scenario is missing\n", row->name);
		return;
	}
	if (head->telltales != NULL) {
		fprintf(out, "%s: warning: code that can tell a measured run apart, for the review "
			"(never a failure alone): ", row->name);
		text_terminal(out, head->telltales);
		fputc('\n', out);
	}
	if (row->state == VERDICT_FAILED) {
		/* One line, whatever the failure says: a note is a line, an annotation is a line. */
		fprintf(out, "%s: failed to measure: ", row->name);
		text_terminal(out, head->failure);
		fputc('\n', out);
		return;
	}
	print_breaches(out, row);
	if (row->lacking != 0) {
		const char *separator = " ";

		fprintf(out, "%s: note: the baseline has no", row->name);
		for (metric = 0; metric < METRIC_COUNT; metric++)
			if (row->lacking & (1u << metric)) {
				fprintf(out, "%s%s", separator, metric_table[metric].key);
				separator = ", ";
			}
		fputs(" (the run that made it did not measure them): those are shown, not compared\n", out);
	}
	if ((parts & TABLE_NOTES_ATTRIBUTION) && row->attribution != NULL)
		print_attribution(out, row);
	for (metric = 0; metric < VERDICT_ACCEPT_KINDS; metric++) {
		const struct acceptance_entry *entry =
			acceptance_find(verdict->acceptance, row->name, (unsigned)metric);
		enum acceptance_value value = acceptance_value_of(metric_acceptance_figures(), metric);
		char what[96];

		acceptance_words(what, sizeof(what), metric);
		if (row->accepted[metric] != NULL) {
			if (metric == ACCEPT_GATED)
				fprintf(out, "%s: accepted as not gated: ", row->name);
			else if (value == ACCEPT_VALUE_ZERO)
				fprintf(out, "%s: accepted with %s not gated: ", row->name, what);
			else if (value == ACCEPT_VALUE_FLOOR && entry->value == 0)
				fprintf(out, "%s: accepted without %s: ", row->name, what + 3);
			else
				fprintf(out, "%s: accepted up to %.15g %s: ", row->name, entry->value, what);
			text_terminal(out, entry->reason);
			fprintf(out, " (%s)\n", verdict->acceptance->path);
		}
		else if (entry != NULL && (row->breaches & verdict_metric_breach(metric)) != 0)
			fprintf(out, "%s: the acceptance up to %g %s in %s does not cover this change: "
				"raise it or make the change cheaper\n", row->name, entry->value, what,
				verdict->acceptance->path);
	}
	if (row->steady_floor_high) {
		table_format_per_message(text, sizeof(text), head->slopes[METRIC_ALLOCATIONS].per_message);
		fprintf(out, "%s: the steady floor %g is above the measured %s allocations per message: "
			"lower it in this change\n", row->name, head->info.steady_floor, text);
	}
	if (row->cold_floor_high)
		fprintf(out, "%s: the cold floor %" PRIu64 " is above the measured %" PRIu64 " allocations: "
			"lower it in this change\n", row->name, head->info.cold_floor,
			head->slopes[METRIC_ALLOCATIONS].cold);
	if (parts & TABLE_NOTES_IMPROVEMENT)
		table_print_improvement(out, row, refresh_command);
	if (row->state == VERDICT_NEW)
		fprintf(out, "%s: new: not in the baseline, so no instruction verdict; floors enforced\n",
			row->name);
	if (parts & TABLE_NOTES_WALL)
		table_print_wall(out, row);
	table_print_linearity_notes(out, row);
}

void table_print_linearity_notes(FILE *out, const struct verdict_row *row)
{
	const struct measurement *head = row->head;

	if (head == NULL || head->failed)
		return;
	table_print_linearity(out, row->name, head, &head->slopes[METRIC_INSTRUCTIONS], "instructions");
	table_print_linearity(out, row->name, head, &head->slopes[METRIC_ALLOCATIONS], "allocations");
}

/* Head and baseline measured at different N: their per message figures compare where both are
 * linear (a slope that does not depend on N); under --vary-n one that is not (a cost that grows
 * with the messages handled, a warm-up) is compared as measured at each N, and said so. */
static void print_messages_differ(FILE *out, const struct verdict *verdict)
{
	double worst = 0;
	const char *worst_name = NULL;
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];
		double percent;

		if (row->head == NULL || row->head->failed || row->baseline == NULL ||
		    row->head->messages == row->baseline->messages)
			continue;
		percent = row->head->slopes[METRIC_INSTRUCTIONS].linearity_percent;
		if (row->baseline->slopes[METRIC_INSTRUCTIONS].linearity_percent > percent)
			percent = row->baseline->slopes[METRIC_INSTRUCTIONS].linearity_percent;
		if (percent > worst) {
			worst = percent;
			worst_name = row->name;
		}
	}
	fprintf(out, "note: head and baseline were measured with different message counts "
		"(baseline N = %" PRIu64 ")", verdict->baseline_messages);
	if (worst_name == NULL || worst <= SLOPE_COMPARABLE_LINEARITY_PERCENT)
		fprintf(out, ", both linear within %g %%; per message figures are compared\n",
			SLOPE_COMPARABLE_LINEARITY_PERCENT);
	else
		fprintf(out, "; per message figures are compared as measured, though %s is linear "
			"only within %.2f %% (above %g %%)\n", worst_name, worst,
			SLOPE_COMPARABLE_LINEARITY_PERCENT);
}

void table_print_notes(FILE *out, const struct verdict *verdict, const char *refresh_command,
		       bool with_attribution)
{
	size_t i;

	if (verdict->baseline_source != NULL) {
		fputs("baseline: ", out);
		text_terminal(out, verdict->baseline_source);
		fprintf(out, "%s\n", verdict->remeasured ? " (measured here: the stored baseline's "
			"fingerprint differs)" : "");
	}
	if (verdict->messages_differ && verdict->row_count > 0)
		print_messages_differ(out, verdict);
	if (verdict->messages_first != 0)
		fprintf(out, "note: measured again at the baseline's N = %" PRIu64 ": at N = %" PRIu64
			" a figure was not linear within %g %%, so the two N would not compare\n",
			verdict->baseline_messages, verdict->messages_first,
			SLOPE_COMPARABLE_LINEARITY_PERCENT);
	for (i = 0; i < verdict->row_count; i++)
		table_print_row_notes(out, verdict, &verdict->rows[i], refresh_command,
				      TABLE_NOTES_IMPROVEMENT | TABLE_NOTES_WALL |
					      (with_attribution ? TABLE_NOTES_ATTRIBUTION : 0u));
	for (i = 0; verdict->acceptance && i < verdict->acceptance->count; i++)
		if (!verdict->acceptance_used[i])
			fprintf(out, "warning: the acceptance of %s %s up to %g in %s is stale: no "
				"breach needs it; remove it\n", verdict->acceptance->entries[i].scenario,
				acceptance_metric_name(metric_acceptance_figures(), verdict->acceptance->entries[i].metric),
				verdict->acceptance->entries[i].value, verdict->acceptance->path);
}

void table_print(FILE *out, const struct verdict *verdict, const char *refresh_command)
{
	char summary[512];

	table_print_body(out, verdict, refresh_command);
	verdict_summary(verdict, summary, sizeof(summary));
	fprintf(out, "%s\n", summary);
}

void table_print_body(FILE *out, const struct verdict *verdict, const char *refresh_command)
{
	struct table table = { .row_count = verdict->row_count };
	size_t i;

	bool shown[METRIC_COUNT] = { false };

	table.column_count = header_columns(&table, verdict, shown);
	table.cells = calloc(verdict->row_count + 1, sizeof(*table.cells));
	if (table.cells == NULL) {
		fprintf(out, "gate: out of memory for the table\n");
		return;
	}
	for (i = 0; i < verdict->row_count; i++)
		fill_row(table.cells[i], &verdict->rows[i], verdict->compared, shown,
			 table.column_count);
	print_rows(out, &table);
	free(table.cells);
	table_print_notes(out, verdict, refresh_command, true);
}
