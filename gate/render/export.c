/* The three exports. Every number is written so that it reads back to the same double, every
 * string from the document is escaped for its format (JSON by cJSON, XML entities, CSV quotes
 * and a leading apostrophe against spreadsheet formulas). */
#define _GNU_SOURCE
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "json_write.h"

void export_measure_name(char *name, size_t size, size_t measure)
{
	char *c;

	metric_figure_key(name, size, (enum metric_id)(measure % METRIC_COUNT),
			  measure >= METRIC_COUNT);
	for (c = name; *c != '\0'; c++)
		if (*c == '_')
			*c = '-';
}

/* Does the scenario have this measure: its metric has counts. */
static bool has_measure(const struct measurement *measurement, size_t measure)
{
	return measurement->has[measure % METRIC_COUNT];
}

static double measure_value(const struct measurement *measurement, size_t measure)
{
	const struct slope *slope = &measurement->slopes[measure % METRIC_COUNT];

	return measure >= METRIC_COUNT ? (double)slope->cold : slope->per_message;
}

/* BMF: {"scenario": {"instructions": {"value": ...}, ...}, ...}. */
static int write_bmf(FILE *out, const struct results *results,
		     const struct results_verdict *verdict, struct gate_error *err)
{
	cJSON *document = cJSON_CreateObject();
	char *text = NULL;
	size_t i, m;
	(void)verdict; /* BMF has no states */

	for (i = 0; document != NULL && i < results->count; i++) {
		const struct measurement *measurement = &results->measurements[i];
		cJSON *benchmark = cJSON_AddObjectToObject(document, measurement->info.name);

		for (m = 0; benchmark != NULL && m < EXPORT_MEASURES; m++) {
			char name[64];
			cJSON *measure;

			if (!has_measure(measurement, m))
				continue;
			export_measure_name(name, sizeof(name), m);
			measure = cJSON_AddObjectToObject(benchmark, name);
			if (measure == NULL ||
			    cJSON_AddNumberToObject(measure, "value", measure_value(measurement, m)) == NULL)
				benchmark = NULL;
		}
		if (benchmark == NULL) {
			cJSON_Delete(document);
			document = NULL;
		}
	}
	text = document != NULL ? json_print(document, true, NULL) : NULL;
	cJSON_Delete(document);
	if (text == NULL)
		return gate_error_oom(err);
	fprintf(out, "%s\n", text);
	free(text);
	return 0;
}

/* CSV (RFC 4180). A field a spreadsheet would read as a formula gets a leading apostrophe. */
static void csv_field(FILE *out, const char *text)
{
	bool formula = text[0] != '\0' && strchr("=+-@\t", text[0]) != NULL;
	bool quote = formula || strpbrk(text, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *text != '\0'; text++) {
		if (*text == '"')
			fputc('"', out);
		fputc(*text, out);
	}
	if (quote)
		fputc('"', out);
}

/* The baseline figure and change the verdict gives for a measure (the metrics gated at a
 * limit, when compared). */
static bool verdict_figures(const struct results_verdict_row *row, size_t measure, double *baseline,
			    double *change)
{
	size_t metric = measure % METRIC_COUNT, cold = measure >= METRIC_COUNT;
	const struct results_figures *figures;

	if (row == NULL || !row->has_figures[metric][cold])
		return false;
	figures = &row->figures[metric][cold];
	if (!figures->has_baseline)
		return false;
	*baseline = figures->baseline;
	*change = figures->change_percent;
	return true;
}

/* The limit a measure was held to: its figure's own, else (an earlier document) its row's. */
static bool verdict_limit_of(const struct results_verdict_row *row, size_t measure, double *limit)
{
	const struct results_figures *figures =
		&row->figures[measure % METRIC_COUNT][measure >= METRIC_COUNT];

	*limit = figures->has_limit ? figures->limit_percent : row->limit_percent;
	return figures->has_limit || row->has_limit;
}

/* The floor the scenario declares on a measure: the allocation floors, and the optional ones
 * the metric table names (declared when not 0). */
static bool measure_floor(const struct measurement *measurement, size_t measure, double *floor)
{
	size_t metric = measure % METRIC_COUNT;
	bool cold = measure >= METRIC_COUNT;

	if (metric == METRIC_ALLOCATIONS) {
		*floor = cold ? (double)measurement->info.cold_floor : measurement->info.steady_floor;
		return true;
	}
	*floor = metric_floor(&measurement->info, metric, cold);
	return *floor != 0;
}

/* One row: the scenario, then the other fields as they are (numbers and names gate wrote). */
static void csv_row(FILE *out, const char *scenario, const char *measure, const char *value,
		    const char *unit, const char *baseline, const char *change, const char *limit,
		    const char *floor)
{
	csv_field(out, scenario);
	fprintf(out, ",%s,", measure);
	csv_field(out, value);
	fprintf(out, ",%s,%s,%s,%s,%s\r\n", unit, baseline, change, limit, floor);
}

/* The scenario's measures, one a row, with what the verdict and the scenario say of each. */
static void csv_measures(FILE *out, const struct measurement *measurement,
			 const struct results_verdict_row *row)
{
	size_t m;

	for (m = 0; m < EXPORT_MEASURES; m++) {
		char name[64], value[64], baseline[64] = "", change[64] = "", limit[64] = "",
		     floor_text[64] = "";
		double base, percent, floor;

		if (!has_measure(measurement, m))
			continue;
		export_measure_name(name, sizeof(name), m);
		json_number_text(value, sizeof(value), measure_value(measurement, m));
		if (verdict_figures(row, m, &base, &percent)) {
			double held_to;

			json_number_text(baseline, sizeof(baseline), base);
			snprintf(change, sizeof(change), "%.2f", percent);
			if (verdict_limit_of(row, m, &held_to))
				json_number_text(limit, sizeof(limit), held_to);
		}
		if (measure_floor(measurement, m, &floor))
			json_number_text(floor_text, sizeof(floor_text), floor);
		csv_row(out, measurement->info.name, name, value, metric_table[m % METRIC_COUNT].unit,
			baseline, change, limit, floor_text);
	}
}

/* One fact a row: each measure of each scenario, and each scenario's state once (measure
 * "state", the state as its value); a scenario that failed to measure has its state only. */
static int write_csv(FILE *out, const struct results *results,
		     const struct results_verdict *verdict, struct gate_error *err)
{
	size_t i;
	(void)err; /* CSV is written as it goes, with nothing to allocate */

	fputs("scenario,measure,value,unit,baseline,change_percent,limit_percent,floor\r\n", out);
	for (i = 0; i < results->count; i++) {
		const struct measurement *measurement = &results->measurements[i];
		const struct results_verdict_row *row = results_verdict_find(verdict, measurement->info.name);

		if (row != NULL)
			csv_row(out, measurement->info.name, "state", row->state, "", "", "", "", "");
		csv_measures(out, measurement, row);
	}
	for (i = 0; i < results->failure_count; i++)
		csv_row(out, results->failures[i].info.name, "state", "failed", "", "", "", "", "");
	return 0;
}

/* The measure a breach of a metric gated at a limit names ("cycles", "cold_instructions"). */
static bool limit_measure(const char *breach, size_t *measure)
{
	bool cold;
	const struct metric *entry = metric_figure_find(breach, &cold);

	if (entry == NULL || !metric_compares((enum metric_id)(entry - metric_table)))
		return false;
	*measure = (size_t)(entry - metric_table) + (cold ? METRIC_COUNT : 0);
	return true;
}

/* JUnit: one test case per scenario; a breach fails it, a measurement failure is an error. */
static void breach_sentence(FILE *out, const struct measurement *measurement,
			    const struct results_verdict_row *row, const char *breach)
{
	double base = 0, change = 0;
	char head[64], baseline[64], percent[64];
	size_t measure;

	if (limit_measure(breach, &measure)) {
		const char *title = metric_table[measure % METRIC_COUNT].title;
		bool steady = measure < METRIC_COUNT;

		chart_format_value(head, sizeof(head), measure_value(measurement, measure));
		if (!verdict_figures(row, measure, &base, &change)) {
			fprintf(out, "%s%s%s %s over its limit", steady ? "" : "cold-start ", title,
				steady ? " per message" : "", head);
			return;
		}
		double limit = 0;

		chart_format_value(baseline, sizeof(baseline), base);
		chart_format_percent(percent, sizeof(percent), change);
		verdict_limit_of(row, measure, &limit);
		fprintf(out, "%s%s%s %s against %s on the baseline (%s, limit %g %%)",
			steady ? "" : "cold-start ", title, steady ? " per message" : "", head,
			baseline, percent, limit);
	} else if (strcmp(breach, "steady_allocations") == 0) {
		chart_format_value(head, sizeof(head), measurement->slopes[METRIC_ALLOCATIONS].per_message);
		chart_format_value(baseline, sizeof(baseline), measurement->info.steady_floor);
		fprintf(out, "allocations per message %s above the declared floor %s", head, baseline);
	} else if (strcmp(breach, "cold_allocations") == 0) {
		fprintf(out, "cold-start allocations %llu above the declared floor %llu",
			(unsigned long long)measurement->slopes[METRIC_ALLOCATIONS].cold,
			(unsigned long long)measurement->info.cold_floor);
	} else {
		chart_escape(out, breach);
	}
}

/* The failure message: every breach, "; " between them. */
static char *failure_message(const struct measurement *measurement,
			     const struct results_verdict_row *row)
{
	size_t i;
	char *text = NULL;
	size_t length = 0;
	FILE *out = open_memstream(&text, &length);

	if (out == NULL)
		return NULL;
	for (i = 0; row != NULL && i < row->breach_count; i++) {
		if (ftell(out) > 0)
			fputs("; ", out);
		breach_sentence(out, measurement, row, row->breaches[i]);
	}
	if (ftell(out) == 0)
		fputs("regressed", out);
	fclose(out);
	return text;
}

struct junit_counts {
	size_t tests, failures, errors;
	double seconds; /* every scenario's valgrind runs */
};

static struct junit_counts junit_count(const struct results *results, const struct results_verdict *verdict)
{
	struct junit_counts counts = { results->count + results->failure_count, 0,
				       results->failure_count, 0 };
	size_t i;

	for (i = 0; i < results->failure_count; i++)
		counts.seconds += results->failures[i].valgrind_seconds;
	for (i = 0; i < results->count; i++) {
		const struct results_verdict_row *row =
			results_verdict_find(verdict, results->measurements[i].info.name);
		const char *state = row != NULL ? row->state : NULL;

		counts.seconds += results->measurements[i].valgrind_seconds;
		counts.failures += state != NULL && strcmp(state, "regressed") == 0;
	}
	return counts;
}

/* `<testcase ...` up to its closing bracket: the scenario's name, the file that declares it when
 * the document says, and the seconds its valgrind runs took. */
static void junit_case_open(FILE *out, const struct measurement *measurement)
{
	fputs("    <testcase classname=\"costgate\" name=\"", out);
	chart_escape(out, measurement->info.name);
	if (measurement->source != NULL) {
		fputs("\" file=\"", out);
		chart_escape(out, measurement->source);
	}
	fprintf(out, "\" time=\"%.3f\"", measurement->valgrind_seconds);
}

static int junit_case(FILE *out, const struct measurement *measurement, const struct results_verdict *verdict)
{
	const struct results_verdict_row *row = results_verdict_find(verdict, measurement->info.name);
	const char *state = row != NULL ? row->state : NULL;
	size_t i;
	char *message;

	bool regressed = state != NULL && strcmp(state, "regressed") == 0;

	junit_case_open(out, measurement);
	if (!regressed && (row == NULL || row->accepted_count == 0)) {
		fputs("/>\n", out);
		return 0;
	}
	fputs(">\n", out);
	if (regressed) {
		if ((message = failure_message(measurement, row)) == NULL)
			return -1;
		fputs("      <failure type=\"regression\" message=\"", out);
		chart_escape(out, message);
		fputs("\">", out);
		chart_escape(out, message);
		fputs("</failure>\n", out);
		free(message);
	}
	for (i = 0; row != NULL && i < row->accepted_count; i++) {
		fputs("      <system-out>accepted: ", out);
		chart_escape(out, row->accepted_reasons[i]);
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
	return 0;
}

static int write_junit(FILE *out, const struct results *results, const struct results_verdict *verdict,
		       struct gate_error *err)
{
	struct junit_counts counts = junit_count(results, verdict);
	size_t i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"costgate\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"time=\"%.3f\">\n", counts.tests, counts.failures, counts.errors, counts.seconds);
	fprintf(out, "  <testsuite name=\"costgate\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"0\" time=\"%.3f\">\n", counts.tests, counts.failures, counts.errors,
		counts.seconds);
	fprintf(out, "    <properties>\n      <property name=\"messages\" value=\"%llu\"/>\n"
		"    </properties>\n", (unsigned long long)results->messages);
	for (i = 0; i < results->count; i++)
		if (junit_case(out, &results->measurements[i], verdict) != 0)
			return gate_error_oom(err);
	for (i = 0; i < results->failure_count; i++) {
		junit_case_open(out, &results->failures[i]);
		fputs(">\n      <error type=\"measurement\" message=\"", out);
		chart_escape(out, results->failures[i].failure);
		fputs("\">", out);
		chart_escape(out, results->failures[i].failure);
		fputs("</error>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return 0;
}

const struct export_format export_formats[] = {
	{ "bmf",
	  "Bencher Metric Format JSON: scenario -> measure -> {\"value\": ...}, measures\n"
	  "per message for every metric it has (instructions, allocations, bytes,\n"
	  "peak-bytes, ...), then cold-instructions, cold-allocations, ... (for: bencher\n"
	  "run --adapter json)\n",
	  write_bmf },
	{ "junit",
	  "JUnit XML: one test case per scenario, failed with its breach, with its\n"
	  "source file and the seconds of its valgrind runs\n",
	  write_junit },
	{ "csv",
	  "one fact a row: scenario, measure, value, unit, baseline, change_percent,\n"
	  "limit_percent, floor; each scenario's state is a row of its own (measure\n"
	  "\"state\")\n",
	  write_csv },
};

const size_t export_format_count = sizeof(export_formats) / sizeof(export_formats[0]);

const struct export_format *export_format_find(const char *name)
{
	size_t i;

	for (i = 0; i < export_format_count; i++)
		if (strcmp(name, export_formats[i].name) == 0)
			return &export_formats[i];
	return NULL;
}

void export_format_names(char *text, size_t size)
{
	size_t i, used = 0;

	text[0] = '\0';
	for (i = 0; i < export_format_count && used < size; i++)
		used += (size_t)snprintf(text + used, size - used, "%s%s",
					 i == 0 ? "" : i + 1 == export_format_count ? " or " : ", ",
					 export_formats[i].name);
}
