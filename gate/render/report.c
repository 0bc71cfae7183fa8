/* Markdown and annotations. Everything that comes from the pull request (names, reasons,
 * function names, the notes that quote them) goes through text.h's escaping for Markdown or for
 * workflow commands (%, CR, LF, and in properties ':' and ','). */
#define _GNU_SOURCE
#include "report.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "table.h"
#include "text.h"

/* Text into a Markdown table cell or prose. */
static void cell(FILE *out, const char *text)
{
	text_markdown(out, text);
}

static void markdown_row(FILE *out, const struct verdict *verdict, const struct verdict_row *row)
{
	const struct measurement *head = row->head, *base = row->baseline;
	char text[48];

	fputs("| ", out);
	cell(out, row->name);
	if (head == NULL || head->failed) {
		fprintf(out, " |%s - | - | - | - | **%s** |\n", verdict->compared ? " - | - |" : "",
			verdict_state_name(row->state));
		return;
	}
	table_format_per_message(text, sizeof(text), head->slopes[METRIC_INSTRUCTIONS].per_message);
	fprintf(out, " | %s |", text);
	if (verdict->compared && base != NULL) {
		table_format_per_message(text, sizeof(text), base->slopes[METRIC_INSTRUCTIONS].per_message);
		fprintf(out, " %s |", text);
		table_format_change(text, sizeof(text), row->changes[METRIC_INSTRUCTIONS][VERDICT_PER_MESSAGE]);
		fprintf(out, " %s |", text);
	} else if (verdict->compared) {
		fputs(" - | - |", out);
	}
	fprintf(out, " %" PRIu64 " |", head->slopes[METRIC_INSTRUCTIONS].cold);
	table_format_per_message(text, sizeof(text), head->slopes[METRIC_ALLOCATIONS].per_message);
	fprintf(out, " %s / %" PRIu64 " | %g / %" PRIu64 " | %s%s%s |\n", text,
		head->slopes[METRIC_ALLOCATIONS].cold, head->info.steady_floor, head->info.cold_floor,
		row->state == VERDICT_REGRESSED ? "**" : "", verdict_row_state_text(row),
		row->state == VERDICT_REGRESSED ? "**" : "");
}

/* The metrics beyond instructions and allocations (metric_table), one column each that some row
 * has: per message, or cold for a peak; "-" where a scenario has no counts of it. */
static void markdown_metrics(FILE *out, const struct verdict *verdict)
{
	bool shown[METRIC_COUNT] = { false };
	size_t metric, i, columns = 0;

	for (i = 0; i < verdict->row_count; i++)
		for (metric = METRIC_BYTES; metric < METRIC_COUNT; metric++)
			if (verdict->rows[i].head != NULL && !verdict->rows[i].head->failed &&
			    verdict->rows[i].head->has[metric] && !shown[metric]) {
				shown[metric] = true;
				columns++;
			}
	if (columns == 0)
		return;
	fputs("\n| scenario |", out);
	for (metric = METRIC_BYTES; metric < METRIC_COUNT; metric++)
		if (shown[metric])
			fprintf(out, " %s, %s%s |", metric_table[metric].title, metric_table[metric].unit,
				metric_table[metric].shows_cold ? " (cold)" : " per message");
	fputs("\n|---|", out);
	for (i = 0; i < columns; i++)
		fputs("---:|", out);
	fputc('\n', out);
	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];

		if (row->head == NULL || row->head->failed)
			continue;
		fputs("| ", out);
		cell(out, row->name);
		fputs(" |", out);
		for (metric = METRIC_BYTES; metric < METRIC_COUNT; metric++) {
			const struct slope *slope = &row->head->slopes[metric];

			if (!shown[metric])
				continue;
			if (!row->head->has[metric])
				fputs(" - |", out);
			else if (metric_table[metric].shows_cold)
				fprintf(out, " %" PRIu64 " |", slope->cold);
			else if (row->limit_compared & (1u << metric)) {
				char change[48];

				table_format_change(change, sizeof(change),
						    row->changes[metric][VERDICT_PER_MESSAGE]);
				fprintf(out, " %.3f (%s) |", slope->per_message, change);
			}
			else
				fprintf(out, " %.3f |", slope->per_message);
		}
		fputc('\n', out);
	}
}

static void markdown_table(FILE *out, const struct verdict *verdict)
{
	size_t i;

	fprintf(out, "| scenario | instr/msg |%s cold instr | alloc/msg / cold | floor msg / cold | state |\n",
		verdict->compared ? " baseline | change |" : "");
	fprintf(out, "|---|---:|%s---:|---:|---:|---|\n", verdict->compared ? "---:|---:|" : "");
	for (i = 0; i < verdict->row_count; i++)
		markdown_row(out, verdict, &verdict->rows[i]);
	markdown_metrics(out, verdict);
}

static void markdown_functions(FILE *out, const struct attribution_function *rows, size_t count)
{
	size_t i;

	if (count > 0)
		fputs("\n| function | head | baseline | change | exclusive change | inclusive change "
		      "| share |\n|---|---:|---:|---:|---:|---:|---:|\n", out);
	for (i = 0; i < count; i++) {
		const struct attribution_function *function = &rows[i];
		char change[48], exclusive[48], inclusive[48];

		fputs("| `", out);
		text_markdown_code(out, function->name);
		fprintf(out, "`%s | %.3f | %.3f | %s | %s | %s | %.1f %% |\n",
			function->appeared ? " (new)" : function->disappeared ? " (gone)" : "",
			function->head, function->baseline,
			table_format_signed(change, sizeof(change), function->change, 3),
			table_format_signed(exclusive, sizeof(exclusive), function->exclusive_change, 3),
			table_format_signed(inclusive, sizeof(inclusive), function->inclusive_change, 3),
			function->share_percent);
	}
}

/* A short table of functions with a figure on each side and its change. */
static void markdown_counts(FILE *out, const struct attribution_function *rows, size_t count,
			    const char *title, const char *headings)
{
	size_t i;

	if (count == 0)
		return;
	fprintf(out, "\n%s\n\n| function | %s |\n|---|---:|---:|---:|\n", title, headings);
	for (i = 0; i < count; i++) {
		char change[48];

		fputs("| `", out);
		text_markdown_code(out, rows[i].name);
		fprintf(out, "`%s | %.3f | %.3f | %s |\n",
			rows[i].appeared ? " (new)" : rows[i].disappeared ? " (gone)" : "",
			rows[i].head, rows[i].baseline,
			table_format_signed(change, sizeof(change), rows[i].change, 3));
	}
}

static void markdown_lines(FILE *out, const struct attribution *why)
{
	char change[48];
	size_t i;

	if (why->line_count == 0)
		return;
	fputs("\nSource lines whose instructions per message, own + system-library callees (the "
	      "allocator apart), changed most:\n\n| line | head | baseline | change | source |\n"
	      "|---|---:|---:|---:|---|\n", out);
	for (i = 0; i < why->line_count; i++) {
		const struct attribution_line *line = &why->lines[i];

		fputs("| `", out);
		text_markdown_code(out, line->file);
		fprintf(out, ":%" PRIu64 "`%s | %.3f | %.3f | %s | `", line->line,
			line->appeared ? " (new)" : line->disappeared ? " (gone)" : "", line->head,
			line->baseline, table_format_signed(change, sizeof(change), line->change, 3));
		text_markdown_code(out, line->text[0] != '\0' ? line->text : " ");
		fputs("` |\n", out);
	}
}

static void markdown_attribution(FILE *out, const struct verdict_row *row)
{
	const struct attribution *why = row->attribution;
	char lines[2 * ATTRIBUTION_TEXT + 32], change[48], bytes[48];
	size_t i;

	if (why->function_count == 0 && why->leaf_count == 0 && why->site_count == 0 &&
	    why->syscall_count == 0 && why->line_count == 0 &&
	    (why->growing_count == 0 || !(row->breaches & BREACH_GROWTH)) &&
	    (!why->has_fill || !(row->breaches & BREACH_PROCESS_INSTRUCTIONS)) &&
	    fabs(why->harness_change) < 0.0005)
		return;
	fputs("\n#### `", out);
	text_markdown_code(out, row->name);
	fputs("`: why\n", out);
	if (why->function_count > 0)
		fprintf(out, "\nProject functions whose instructions per message, own + system-library "
			"callees (the allocator apart), changed most (%s in all):\n",
			table_format_signed(change, sizeof(change), why->total_change, 3));
	markdown_functions(out, why->functions, why->function_count);
	if (why->function_count > 0)
		fprintf(out, "| (the rest) | | | %s | | | %.1f %% |\n",
			table_format_signed(change, sizeof(change), why->rest_change, 3),
			why->rest_share_percent);
	if (fabs(why->harness_change) >= 0.0005)
		fprintf(out, "\ncostgate's harness compiled into the program (its queue and the "
			"region's entry) accounts for %s instructions per message of the change: not "
			"the project's code.\n",
			table_format_signed(change, sizeof(change), why->harness_change, 3));
	if (why->allocator_change != 0)
		fprintf(out, "\nThe allocator (malloc, free, ... and below), reported apart: %s "
			"instructions per message.\n",
			table_format_signed(change, sizeof(change), why->allocator_change, 3));
	if (why->leaf_count > 0)
		fputs("\nSystem-library functions whose exclusive instructions per message changed "
		      "most:\n", out);
	markdown_functions(out, why->leaves, why->leaf_count);
	if (why->has_fill && (row->breaches & BREACH_PROCESS_INSTRUCTIONS)) {
		char fill[512];

		table_format_fill(fill, sizeof(fill), row);
		fprintf(out, "\n%c%s.\n", toupper((unsigned char)fill[0]), fill + 1);
		markdown_counts(out, why->fill, why->fill_count,
				why->has_fill_baseline
					? "Project functions in the fill whose instructions per "
					  "message, own + system-library callees, changed most:"
					: "The dearest project functions in the fill, instructions per "
					  "message, own + system-library callees:",
				"head | baseline | change");
	}
	markdown_lines(out, why);
	markdown_counts(out, why->syscalls, why->syscall_count,
			"Project functions whose system calls per message, own + system-library "
			"callees, changed:", "head | baseline | change");
	if (row->breaches & BREACH_GROWTH)
		markdown_counts(out, why->growing, why->growing_count,
				"Project functions whose instructions per message, own + "
				"system-library callees, are higher from N to 2N than from 1 to N:",
				"N to 2N | 1 to N | growth");
	if (why->site_count > 0)
		fprintf(out, "\nAllocation sites %s:\n\n"
			"| site < callers | lines | head | baseline | change | bytes change |\n"
			"|---|---|---:|---:|---:|---:|\n",
			row->baseline ? "whose blocks per message changed"
				      : "under the region, per message (no baseline to compare with)");
	for (i = 0; i < why->site_count; i++) {
		const struct attribution_site *site = &why->sites[i];

		table_format_site_lines(lines, sizeof(lines), site);
		fputs("| `", out);
		text_markdown_code(out, site->chain);
		fprintf(out, "`%s | ", site->appeared ? " (new)" : site->disappeared ? " (gone)" : "");
		cell(out, lines);
		fprintf(out, " | %.3f | %.3f | %s | %s |\n", site->head_blocks,
			site->baseline_blocks,
			table_format_signed(change, sizeof(change), site->blocks_change, 3),
			table_format_signed(bytes, sizeof(bytes), site->bytes_change, 3));
	}
}

static const char *verdict_refresh_command(const struct verdict *verdict)
{
	return verdict->refresh_command != NULL ? verdict->refresh_command
						: "gate --save-baseline main";
}

/* The lines the terminal prints under its table, as a Markdown list. */
static void markdown_notes(FILE *out, const struct verdict *verdict)
{
	char *text = NULL;
	size_t length = 0;
	FILE *notes = open_memstream(&text, &length);
	const char *line;

	if (notes == NULL)
		return;
	table_print_notes(notes, verdict, verdict_refresh_command(verdict), false);
	fclose(notes);
	if (length > 0)
		fputc('\n', out);
	for (line = text; line != NULL && *line != '\0';) {
		const char *end = strchr(line, '\n');
		size_t size = end ? (size_t)(end - line) : strlen(line);

		if (size > 0) {
			char *copy = strndup(line, size);

			fputs("- ", out);
			if (copy != NULL)
				text_markdown(out, copy);
			free(copy);
			fputc('\n', out);
		}
		line = end ? end + 1 : NULL;
	}
	free(text);
}

static void markdown_environment(FILE *out, const struct environment *environment)
{
	const struct {
		const char *name;
		const char *value;
	} facts[] = {
		{ "cpu", environment->cpu },           { "architecture", environment->architecture },
		{ "cores", environment->cores },       { "memory", environment->memory },
		{ "os", environment->os },             { "compiler", environment->compiler },
		{ "flags", environment->flags },       { "valgrind", environment->valgrind },
		{ "glibc", environment->glibc },       { "cJSON", environment->cjson },
		{ "dispatch pin", environment->dispatch_pin },
		{ "malloc pin", environment->malloc_pin },
		{ "debug info", environment->debug_info },
	};
	size_t i;

	fputs("\n<details><summary>Environment and fingerprint</summary>\n\n| | |\n|---|---|\n", out);
	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		/* Said only by a run that knows: older results have no such fact. */
		if (facts[i].value == NULL && strcmp(facts[i].name, "debug info") == 0)
			continue;
		fprintf(out, "| %s | `", facts[i].name);
		text_markdown_code(out, facts[i].value ? facts[i].value : "unknown");
		fputs("` |\n", out);
	}
	fprintf(out, "| schema | %d |\n\n</details>\n", environment->schema);
}

/* The settings a row's code declares otherwise than the baseline's, looser (`bits` from
 * breaches) or stricter (from tightened), as words into `text`. */
static void setting_words(uint64_t bits, char *text, size_t size)
{
	static const struct {
		uint64_t bit;
		const char *word;
	} words[] = {
		{ BREACH_UNGATED, "gated" },
		{ BREACH_LIMIT_RAISED, "limit_percent" },
		{ BREACH_ALLOCATOR_LIMIT_RAISED, "allocator_limit_percent" },
		{ BREACH_LINEARITY_RAISED, "linearity_percent" },
		{ BREACH_STEADY_FLOOR_RAISED, "steady_allocations" },
		{ BREACH_COLD_FLOOR_RAISED, "cold_allocations" },
	};
	size_t used = 0, i, metric;
	int cold;
	char key[SCENARIO_KEY_SIZE];

	text[0] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]) && used < size; i++)
		if (bits & words[i].bit)
			used += (size_t)snprintf(text + used, size - used, "%s`%s`", used ? ", " : "",
						 words[i].word);
	for (metric = 0; metric < METRIC_COUNT && used < size; metric++)
		if (bits & BREACH_METRIC_UNGATED(metric))
			used += (size_t)snprintf(text + used, size - used, "%s`gate_%s`",
						 used ? ", " : "", metric_table[metric].key);
	for (metric = 0; metric < METRIC_COUNT && used < size; metric++)
		for (cold = 0; cold <= 1 && used < size; cold++)
			if (metric_table[metric].floors && (bits & BREACH_FLOOR_RAISED(metric, cold))) {
				metric_floor_key(key, sizeof(key), metric, cold);
				used += (size_t)snprintf(text + used, size - used, "%s`%s`",
							 used ? ", " : "", key);
			}
}

/* Settings live in the scenarios' code, which no file list flags: a warning that names every
 * scenario whose limits, floors, linearity or gating differ from the baseline's, either way. */
static void markdown_settings_warning(FILE *out, const struct verdict *verdict)
{
	bool first = true;
	char looser[400], stricter[400];
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];

		setting_words(row->breaches & BREACH_SETTINGS, looser, sizeof(looser));
		setting_words(row->tightened & BREACH_SETTINGS, stricter, sizeof(stricter));
		if (looser[0] == '\0' && stricter[0] == '\0')
			continue;
		if (first)
			fputs("> [!WARNING]\n> **Settings declared in the code differ from the "
			      "baseline's**: review them.\n", out);
		first = false;
		fputs("> - `", out);
		text_markdown_code(out, row->name);
		fputs("`:", out);
		if (looser[0] != '\0')
			fprintf(out, " looser %s", looser);
		if (stricter[0] != '\0')
			fprintf(out, "%s stricter %s", looser[0] != '\0' ? ";" : "", stricter);
		fputc('\n', out);
	}
	if (!first)
		fputc('\n', out);
}

void report_markdown(FILE *out, const struct verdict *verdict,
		     const struct environment *environment, const char *reproduce)
{
	char summary[512];
	size_t i;

	verdict_summary(verdict, summary, sizeof(summary));
	fprintf(out, "### costgate: %s ", verdict->exit_code == GATE_EXIT_PASS ? "✅" : "❌");
	text_markdown(out, summary);
	fputs("\n\n", out);
	markdown_settings_warning(out, verdict);
	if (verdict->baseline_source != NULL) {
		fputs("Compared with ", out);
		text_markdown(out, verdict->baseline_source);
		fprintf(out, "%s.\n\n", verdict->remeasured ? " (the stored baseline's toolchain differs)" : "");
	}
	markdown_table(out, verdict);
	markdown_notes(out, verdict);
	for (i = 0; i < verdict->row_count; i++)
		if (verdict->rows[i].attribution != NULL)
			markdown_attribution(out, &verdict->rows[i]);
	markdown_environment(out, environment);
	fprintf(out, "\nReproduce locally: `%s`\n", reproduce);
}

static void escaped(FILE *out, const char *text, bool property)
{
	text_workflow(out, text, property);
}

static void annotation(FILE *out, const char *level, const char *title, const char *message)
{
	fprintf(out, "::%s title=", level);
	escaped(out, title, true);
	fputs("::", out);
	escaped(out, message, false);
	fputc('\n', out);
}

/* An annotation on a line of the repository (`file` relative to its top), which GitHub shows on
 * the pull request's diff. */
static void annotation_at(FILE *out, const char *level, const char *file, uint64_t line,
			  const char *title, const char *message)
{
	fprintf(out, "::%s file=", level);
	escaped(out, file, true);
	fprintf(out, ",line=%" PRIu64 ",title=", line);
	escaped(out, title, true);
	fputs("::", out);
	escaped(out, message, false);
	fputc('\n', out);
}

/* The repository's name of a file an allocation site names ("fixture.c", "lib/fixture.c"): the
 * head's measured line whose file is it or ends with "/" and it; NULL when none does. */
static const char *repository_file(const struct measurement *head, const char *name, size_t length)
{
	size_t i;

	for (i = 0; head != NULL && i < head->line_count; i++) {
		const char *file = head->lines[i].file;
		size_t file_length = strlen(file);

		if ((file_length == length || (file_length > length && file[file_length - length - 1] == '/')) &&
		    strncmp(file + file_length - length, name, length) == 0)
			return file;
	}
	return NULL;
}

/* ANNOTATED_LINES of the lines whose cost per message rose most, and every new allocation site,
 * each on its own line of the diff. Lines outside the repository are never annotated: their
 * functions are named in the summary. */
#define ANNOTATED_LINES 3

static void annotate_places(FILE *out, const char *level, const struct verdict_row *row)
{
	const struct attribution *why = row->attribution;
	char title[256], message[1024], change[48];
	size_t i, annotated = 0;

	if (why == NULL)
		return;
	/* Lines where instructions rose: only when instructions are what regressed. */
	for (i = 0; (row->unaccepted & (BREACH_LIMIT(METRIC_INSTRUCTIONS, 0) |
					BREACH_LIMIT(METRIC_INSTRUCTIONS, 1) | BREACH_GROWTH)) != 0 &&
		    i < why->line_count && annotated < ANNOTATED_LINES; i++) {
		const struct attribution_line *line = &why->lines[i];

		if (line->change <= 0 || line->disappeared)
			continue;
		snprintf(title, sizeof(title), "costgate: %s costs more here", row->name);
		snprintf(message, sizeof(message), "%s: %s instructions per message on this line (%.3f "
			 "against %.3f in the baseline%s), in %s", row->name,
			 table_format_signed(change, sizeof(change), line->change, 3), line->head,
			 line->baseline, line->appeared ? ": a new line" : "", line->function);
		annotation_at(out, level, line->file, line->line, title, message);
		annotated++;
	}
	for (i = 0; i < why->site_count; i++) {
		const struct attribution_site *site = &why->sites[i];
		const char *colon = strchr(site->head_lines, ':');
		const char *file;
		uint64_t number;

		if (!site->appeared || colon == NULL)
			continue;
		file = repository_file(row->head, site->head_lines, (size_t)(colon - site->head_lines));
		number = strtoull(colon + 1, NULL, 10);
		if (file == NULL || number == 0)
			continue;
		snprintf(title, sizeof(title), "costgate: %s allocates here", row->name);
		snprintf(message, sizeof(message), "%s: a new allocation site, %.3f blocks per message: "
			 "%s", row->name, site->head_blocks, site->chain);
		annotation_at(out, level, file, number, title, message);
	}
}

static bool nonlinear(const struct verdict_row *row)
{
	return row->head != NULL && !row->head->failed &&
	       (row->head->slopes[METRIC_INSTRUCTIONS].nonlinear || row->head->slopes[METRIC_ALLOCATIONS].nonlinear);
}

/* One annotation per line of `text`. */
static void annotate_lines(FILE *out, const char *level, const char *title, const char *text)
{
	const char *line, *end;

	for (line = text; line != NULL && (end = strchr(line, '\n')) != NULL; line = end + 1) {
		char *sentence = strndup(line, (size_t)(end - line));

		if (sentence != NULL)
			annotation(out, level, title, sentence);
		free(sentence);
	}
}

/* The annotation level of a row's breaches and warnings: "error" when they fail the run, else
 * "warning", or NULL when the row has none. An improvement is never either: a notice. */
static const char *row_level(const struct verdict_row *row)
{
	if ((row->state == VERDICT_REGRESSED && row->gated) ||
	    (row->unaccepted & BREACH_SETTINGS) != 0 || row->state == VERDICT_FAILED ||
	    row->state == VERDICT_MISSING)
		return "error";
	if (row->state == VERDICT_REGRESSED || row->steady_floor_high || row->cold_floor_high ||
	    nonlinear(row))
		return "warning";
	return NULL;
}

/* A row's sentences at `level`, one annotation each; the attribution stays in the summary. */
static void annotate_row(FILE *out, const struct verdict *verdict, const struct verdict_row *row,
			 const char *level)
{
	char title[256];
	char *text = NULL;
	size_t length = 0;
	FILE *notes;

	snprintf(title, sizeof(title), "costgate: %s %s", row->name,
		 row->state == VERDICT_REGRESSED ? verdict_row_state_text(row)
		 : strcmp(level, "warning") != 0 ? verdict_state_name(row->state)
		 : row->steady_floor_high || row->cold_floor_high ? "floor to lower"
								  : "not quite linear");
	notes = open_memstream(&text, &length);
	if (notes == NULL)
		return;
	if (strcmp(level, "warning") == 0 && row->state != VERDICT_REGRESSED &&
	    !row->steady_floor_high && !row->cold_floor_high)
		table_print_linearity_notes(notes, row);
	else
		table_print_row_notes(notes, verdict, row, verdict_refresh_command(verdict), 0);
	fclose(notes);
	annotate_lines(out, level, title, text);
	free(text);
	if (row->state == VERDICT_REGRESSED)
		annotate_places(out, level, row);
	/* The wall clock is informational, never gated: a notice, whatever the row's level. */
	if (row->wall != NULL && (notes = open_memstream(&text, &length)) != NULL) {
		table_print_wall(notes, row);
		fclose(notes);
		snprintf(title, sizeof(title), "costgate: %s wall clock", row->name);
		annotate_lines(out, "notice", title, text);
		free(text);
	}
}

static void annotate_improvement(FILE *out, const struct verdict *verdict,
				 const struct verdict_row *row)
{
	char title[256];
	char *text = NULL;
	size_t length = 0;
	FILE *notes = open_memstream(&text, &length);

	if (notes == NULL)
		return;
	table_print_improvement(notes, row, verdict_refresh_command(verdict));
	fclose(notes);
	snprintf(title, sizeof(title), "costgate: %s improved", row->name);
	annotate_lines(out, "notice", title, text);
	free(text);
}

void report_annotations(FILE *out, const struct verdict *verdict)
{
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];
		const char *level = row_level(row);

		if (level != NULL)
			annotate_row(out, verdict, row, level);
		annotate_improvement(out, verdict, row);
	}
	for (i = 0; verdict->acceptance && i < verdict->acceptance->count; i++) {
		char message[512];

		if (verdict->acceptance_used[i])
			continue;
		snprintf(message, sizeof(message), "the acceptance of %s %s up to %g in %s is stale: "
			 "remove it", verdict->acceptance->entries[i].scenario,
			 acceptance_metric_name(metric_acceptance_figures(), verdict->acceptance->entries[i].metric),
			 verdict->acceptance->entries[i].value, verdict->acceptance->path);
		annotation(out, "warning", "costgate: stale acceptance", message);
	}
}
