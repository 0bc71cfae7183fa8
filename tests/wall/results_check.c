/* Reads a results.json for the end-to-end tests, with cJSON (never a regex on JSON).
 *   results_check keys FILE               the top-level keys, one line, in order
 *   results_check section FILE KEY        the KEY item printed unformatted (for comparisons)
 *   results_check count FILE KEY          how many entries the KEY array has
 *   results_check loops FILE              how many loops the scenarios section draws a side (an
 *                                         entry without `loops` is one)
 *   results_check scenarios FILE PAIRS LOOPS ROUNDS
 *                                         checks the scenarios section: schema 3's keys, every
 *                                         figure consistent with the rounds it summarises
 * Exit 0 when the check holds, 1 with the problem on stderr. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problem(const char *where, const char *what)
{
	fprintf(stderr, "results_check: %s: %s\n", where, what);
	return 1;
}

static cJSON *load(const char *path)
{
	FILE *in = fopen(path, "rb");
	static char text[1 << 22];
	size_t length;

	if (in == NULL)
		return NULL;
	length = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[length] = '\0';
	return cJSON_Parse(text);
}

static double number(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static int compare(const void *left, const void *right)
{
	double a = *(const double *)left, b = *(const double *)right;

	return (a > b) - (a < b);
}

/* The summary must be the best, median and worst of `rates` (count of them, from `first`). */
static int check_summary(const cJSON *summary, const cJSON *rates, int first, int count,
			 const char *where)
{
	double values[256], median;
	int i;

	if (count > 256 || cJSON_GetArraySize(rates) < first + count)
		return problem(where, "rounds missing");
	for (i = 0; i < count; i++)
		values[i] = cJSON_GetArrayItem(rates, first + i)->valuedouble;
	qsort(values, (size_t)count, sizeof(double), compare);
	median = count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
	if (!(number(summary, "best") > 0) || number(summary, "best") != values[count - 1] ||
	    number(summary, "worst") != values[0] || fabs(number(summary, "median") - median) > 1.0)
		return problem(where, "best, median or worst is not that of its rounds");
	return 0;
}

/* overhead_percent from the best rounds, and the verdict by the spread rule. */
static int check_verdict(const cJSON *entry, const char *where)
{
	const cJSON *raw = cJSON_GetObjectItemCaseSensitive(entry, "raw");
	const cJSON *framework = cJSON_GetObjectItemCaseSensitive(entry, "framework");
	const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(entry, "verdict");
	double overhead = (number(raw, "best") / number(framework, "best") - 1) * 100;
	double raw_spread = (number(raw, "best") / number(raw, "worst") - 1) * 100;
	double framework_spread = (number(framework, "best") / number(framework, "worst") - 1) * 100;
	double spread = raw_spread > framework_spread ? raw_spread : framework_spread;

	if (fabs(number(entry, "overhead_percent") - overhead) > 0.02)
		return problem(where, "overhead_percent is not from the best rounds");
	if (!cJSON_IsString(verdict))
		return problem(where, "no verdict");
	/* Away from the boundary (the figures are rounded), the rule must hold. */
	if (fabs(fabs(overhead) - spread) > 0.05 &&
	    strcmp(verdict->valuestring, fabs(overhead) < spread ? "indistinguishable" : "measured") != 0)
		return problem(where, "the verdict does not follow the spread rule");
	return 0;
}

static int check_entry(const cJSON *entry, int pairs, int loops, int rounds, int index)
{
	const cJSON *all = cJSON_GetObjectItemCaseSensitive(entry, "rounds");
	const cJSON *raw_rates = cJSON_GetObjectItemCaseSensitive(all, "raw");
	const cJSON *framework_rates = cJSON_GetObjectItemCaseSensitive(all, "framework");
	const cJSON *loop_items = cJSON_GetObjectItemCaseSensitive(entry, "loops");
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(entry, "unit");
	char where[64];
	int i;

	snprintf(where, sizeof(where), "scenarios[%d]", index);
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(entry, "name")) || !cJSON_IsString(unit) ||
	    strcmp(unit->valuestring, "msg/s") != 0 || !(number(entry, "messages") >= 1) ||
	    number(entry, "pairs") != pairs)
		return problem(where, "name, unit msg/s, messages or pairs wrong");
	if (cJSON_GetArraySize(raw_rates) != pairs || cJSON_GetArraySize(framework_rates) != pairs ||
	    cJSON_GetArraySize(loop_items) != loops)
		return problem(where, "rounds or loops of the wrong length");
	if (check_summary(cJSON_GetObjectItemCaseSensitive(entry, "raw"), raw_rates, 0, pairs, where) ||
	    check_summary(cJSON_GetObjectItemCaseSensitive(entry, "framework"), framework_rates, 0,
			  pairs, where) ||
	    check_verdict(entry, where))
		return 1;
	for (i = 0; i < loops; i++) {
		const cJSON *loop = cJSON_GetArrayItem(loop_items, i);

		snprintf(where, sizeof(where), "scenarios[%d].loops[%d]", index, i);
		if (check_summary(cJSON_GetObjectItemCaseSensitive(loop, "raw"), raw_rates, i * rounds,
				  rounds, where) ||
		    check_summary(cJSON_GetObjectItemCaseSensitive(loop, "framework"), framework_rates,
				  i * rounds, rounds, where) ||
		    check_verdict(loop, where))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	cJSON *document = argc >= 3 ? load(argv[2]) : NULL;
	const cJSON *item, *section;
	int status = 0, index = 0;

	if (!cJSON_IsObject(document))
		return problem(argc >= 3 ? argv[2] : "?", "not a JSON object (usage: see the source)");
	if (strcmp(argv[1], "keys") == 0) {
		cJSON_ArrayForEach(item, document)
			printf("%s%s", item == document->child ? "" : " ", item->string);
		printf("\n");
	} else if (strcmp(argv[1], "section") == 0 && argc == 4) {
		char *text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(document, argv[3]));

		printf("%s\n", text ? text : "null");
		free(text);
	} else if (strcmp(argv[1], "count") == 0 && argc == 4) {
		printf("%d\n", cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(document, argv[3])));
	} else if (strcmp(argv[1], "loops") == 0 && argc == 3) {
		cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(document, "scenarios")) {
			const cJSON *loops = cJSON_GetObjectItemCaseSensitive(item, "loops");

			index += loops != NULL ? cJSON_GetArraySize(loops) : 1;
		}
		printf("%d\n", index);
	} else if (strcmp(argv[1], "scenarios") == 0 && argc == 6) {
		section = cJSON_GetObjectItemCaseSensitive(document, "scenarios");
		if (!cJSON_IsArray(section) || cJSON_GetArraySize(section) == 0)
			status = problem(argv[2], "no scenarios section");
		cJSON_ArrayForEach(item, section)
			status |= check_entry(item, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), index++);
	} else {
		status = problem(argv[1], "unknown check");
	}
	cJSON_Delete(document);
	return status;
}
