/* Golden tests of the pull-request reports: the Markdown summary and the GitHub annotations of a
 * verdict decided on hand-made measurements (a regression with its attribution, an accepted
 * change, a floor breach, a failure, a new and a missing scenario, a stale acceptance), compared
 * byte for byte with committed files. COSTGATE_UPDATE_GOLDEN=1 rewrites them (review the diff). */
#define _GNU_SOURCE
#include "check.h"
#include "measured.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static struct function_cost head_functions[] = {
	{ .name = (char *)"parse_symbol", .exclusive = 500.0, .inclusive = 620.0,
	  .cold_exclusive = 500, .with_library = 620.0, .project = true },
	{ .name = (char *)"cJSON_Parse", .exclusive = 9000.0, .inclusive = 9800.0,
	  .cold_exclusive = 9000, .with_library = 9000.0, .project = false },
	{ .name = (char *)"memcpy", .exclusive = 200.0, .inclusive = 200.0,
	  .cold_exclusive = 200, .with_library = 200.0, .project = false },
};
static struct function_cost base_functions[] = {
	{ .name = (char *)"cJSON_Parse", .exclusive = 9000.0, .inclusive = 9180.0,
	  .cold_exclusive = 9000, .with_library = 9000.0, .project = false },
	{ .name = (char *)"memcpy", .exclusive = 180.0, .inclusive = 180.0,
	  .cold_exclusive = 180, .with_library = 180.0, .project = false },
	{ .name = (char *)"old_helper", .exclusive = 20.0, .inclusive = 20.0,
	  .cold_exclusive = 20, .with_library = 20.0, .project = true },
};
static struct site_cost head_sites[] = {
	{ (char *)"handle (steady.c:18)", (char *)"handle (steady.c:18) < drain (harness.c:140)", 1.0,
	  64.0, 1, 64 },
};

struct example {
	struct measurement head[6];
	struct measurement base[5];
	struct acceptance_entry entries[2];
	struct acceptance acceptance;
	struct environment environment;
	struct verdict verdict;
};

static void decide_example(struct example *example)
{
	struct gate_error err = GATE_ERROR_INIT;

	memset(example, 0, sizeof(*example));
	example->head[0] = measured("dearer", 10300, 50000); /* +3 %: regressed, attributed */
	example->head[0].functions = head_functions;
	example->head[0].function_count = 3;
	example->head[1] = measured("accepted", 10300, 50000); /* +3 %, accepted */
	example->head[2] = measured("allocating", 100, 500);   /* a floor breach */
	example->head[2].slopes[METRIC_ALLOCATIONS].per_message = 20;
	example->head[2].sites = head_sites;
	example->head[2].site_count = 1;
	example->head[3] = measured("broken", 0, 0);
	example->head[3].failed = true;
	snprintf(example->head[3].failure, sizeof(example->head[3].failure),
		 "callgrind run at 1000 exited with 1 (100%% of the runs)\nsecond line");
	example->head[4] = measured("fresh", 50, 60);
	example->head[4].slopes[METRIC_INSTRUCTIONS].per_message_early = 51.25; /* 2.5 %: a warning */
	example->head[4].slopes[METRIC_INSTRUCTIONS].linearity_percent = 2.5;
	example->head[4].slopes[METRIC_INSTRUCTIONS].nonlinear = true;
	example->head[5] = measured("lower_floor", 80, 90);
	example->head[5].slopes[METRIC_ALLOCATIONS].per_message = 18;
	example->base[0] = measured("accepted", 10000, 50000);
	example->base[1] = measured("allocating", 112, 500); /* and 10.71 % cheaper: a notice */
	example->base[2] = measured("dearer", 10000, 50000);
	example->base[2].functions = base_functions;
	example->base[2].function_count = 3;
	example->base[3] = measured("gone", 1, 1);
	example->base[4] = measured("lower_floor", 80, 90);
	example->entries[0] = (struct acceptance_entry){ (char *)"accepted", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, false),
							 10400, (char *)"a symbol check per message" };
	example->entries[1] = (struct acceptance_entry){ (char *)"fresh", METRIC_ACCEPTANCE(METRIC_INSTRUCTIONS, true),
							 70, (char *)"no longer needed" };
	example->acceptance = accepting(example->entries, 2);
	example->environment = (struct environment){
		.cpu = (char *)"Test CPU", .architecture = (char *)"x86_64", .cores = (char *)"2 logical",
		.memory = (char *)"1.0 GiB", .os = (char *)"Linux 6.1 (Debian GNU/Linux 12 (bookworm))",
		.compiler = (char *)"GNU 12.2.0", .flags = (char *)"-O2 -g", .valgrind = (char *)"3.19.0",
		.glibc = (char *)"2.36", .cjson = (char *)"1.7.15", .dispatch_pin = (char *)"glibc.cpu.hwcaps=-AVX2",
		.malloc_pin = (char *)"glibc.malloc.trim_threshold=268435456", .schema = 1,
	};
	decide(&example->verdict, example->head, 6, example->base, 5, &example->acceptance, true);
	CHECK(verdict_explain(&example->verdict, false, &err) == 0);
	example->verdict.baseline_source = "baselines/main.json at main (0123456789ab)";
}

/* Compares text with the golden file NAME in FIXTURE_DIR/report, or rewrites it. */
static void check_golden(const char *name, const char *text)
{
	char path[512], *expected = NULL;
	size_t size = 0;
	FILE *file;

	snprintf(path, sizeof(path), "%s/report/%s", FIXTURE_DIR, name);
	if (getenv("COSTGATE_UPDATE_GOLDEN") != NULL) {
		file = fopen(path, "w");
		CHECK(file != NULL && fputs(text, file) >= 0 && fclose(file) == 0);
		return;
	}
	file = fopen(path, "r");
	CHECK(file != NULL);
	if (file == NULL)
		return;
	if (getdelim(&expected, &size, '\0', file) < 0) {
		free(expected);
		expected = strdup("");
	}
	fclose(file);
	if (strcmp(expected, text) != 0) {
		fprintf(stderr, "%s differs; got:\n%s\n", path, text);
		check_failures++;
	}
	free(expected);
}

static char *render(void (*writer)(FILE *, const struct example *), const struct example *example)
{
	struct printed printed;

	writer(print_to(&printed), example);
	return printed_text(&printed);
}

static void write_markdown(FILE *out, const struct example *example)
{
	report_markdown(out, &example->verdict, &example->environment,
			"make && build/gate/gate --messages 1000 --baseline=main");
}

static void write_annotations(FILE *out, const struct example *example)
{
	report_annotations(out, &example->verdict);
}

static void markdown_should_equal_the_golden_summary(void)
{
	static const char verdict_line[] = "### costgate: ❌ fail: 2 regressed (allocating, dearer), "
					   "1 failed to measure (broken), 1 missing (gone)\n";
	struct example example;
	char *text;

	decide_example(&example);
	text = render(write_markdown, &example);
	check_golden("summary.md", text);
	/* The parts a reader relies on, whatever the golden file says. */
	CHECK(strncmp(text, verdict_line, strlen(verdict_line)) == 0);
	CHECK_CONTAINS(text, "| `handle < drain` (new) | head steady.c:18 | 1.000 | 0.000 | +1.000 | +64.000 |");
	CHECK_CONTAINS(text, "| `parse_symbol` (new) | 620.000 | 0.000 | +620.000 | +500.000 | +620.000 | 206.7 % |");
	CHECK_CONTAINS(text, "accepted up to 10400 instructions per message: a symbol check per message");
	CHECK_CONTAINS(text, "\n- fresh: warning: not quite linear: instructions per message are "
			     "51.250 from 1 to N and 50.000 from N to 2N, 2.50 % apart (failure above "
			     "5 %): is the cost per message constant?\n");
	CHECK_CONTAINS(text, "| malloc pin | `glibc.malloc.trim_threshold=268435456` |");
	CHECK_CONTAINS(text, "<details><summary>Environment and fingerprint</summary>");
	CHECK_CONTAINS(text, "Reproduce locally: `make && build/gate/gate --messages 1000 --baseline=main`");
	free(text);
	verdict_release(&example.verdict);
}

/* Settings live in the code: a scenario whose limits, floors or linearity differ from the
 * baseline's either way is named in a warning at the top, each setting by its key. */
static void markdown_should_warn_of_settings_that_differ_from_the_baseline(void)
{
	struct measurement head[2], base[2];
	struct environment environment = { 0 };
	struct verdict verdict;
	struct printed printed;
	char *text;

	head[0] = measured("loosened", 10000, 50000);
	head[0].info.limit_percent = 5;
	head[0].info.linearity_percent = 2;
	scenario_set_floor(&head[0].info, "steady_syscalls", 1, NULL);
	head[1] = measured("same", 10000, 50000);
	base[0] = measured("loosened", 10000, 50000);
	scenario_set_floor(&base[0].info, "steady_syscalls", 0.5, NULL);
	base[1] = measured("same", 10000, 50000);
	decide(&verdict, head, 2, base, 2, NULL, true);
	report_markdown(print_to(&printed), &verdict, &environment, "gate");
	text = printed_text(&printed);
	CHECK_CONTAINS(text, "\n> [!WARNING]\n> **Settings declared in the code differ from the "
			     "baseline's**: review them.\n> - `loosened`: looser `limit_percent`, "
			     "`steady_syscalls`; stricter `linearity_percent`\n\n");
	CHECK(strstr(text, "`same`") == NULL);
	free(text);
	verdict_release(&verdict);
}

static size_t count_lines_with(const char *text, const char *prefix)
{
	size_t count = 0;
	const char *line;

	for (line = text; line != NULL && *line != '\0'; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		count += strncmp(line, prefix, strlen(prefix)) == 0;
	return count;
}

static void annotations_should_equal_the_golden_commands(void)
{
	struct example example;
	char *text;

	decide_example(&example);
	text = render(write_annotations, &example);
	check_golden("annotations.txt", text);
	CHECK_CONTAINS(text, "::error title=costgate%3A dearer regressed%3A instructions::dearer: 10300.000 instructions per message against 10000.000 in the baseline: +3.00 %25, above the 2 %25 limit\n");
	/* Cheaper and over a floor: one error, for the floor, and the improvement as a notice. */
	CHECK_CONTAINS(text, "::error title=costgate%3A allocating regressed%3A allocations::"
			     "allocating: 20.000 allocations per message, above the declared floor of 19\n");
	CHECK_CONTAINS(text, "::notice title=costgate%3A allocating improved::allocating: improved: "
			     "instructions per message -10.71 %25 against the baseline, beyond the 2 %25 "
			     "limit: refresh the baseline (gate --save-baseline main)\n");
	CHECK(strstr(text, "::error title=costgate%3A allocating regressed%3A allocations::allocating: improved") == NULL);
	CHECK(count_lines_with(text, "::error title=costgate%3A allocating") == 1);
	/* A newline inside a failure would end the command: the failure is one line, '%' escaped. */
	CHECK_CONTAINS(text, "::error title=costgate%3A broken failed::broken: failed to measure: "
			     "callgrind run at 1000 exited with 1 (100%25 of the runs) second line\n");
	CHECK_CONTAINS(text, "::warning title=costgate%3A lower_floor floor to lower::");
	CHECK_CONTAINS(text, "::warning title=costgate%3A fresh not quite linear::fresh: warning: not "
			     "quite linear: instructions per message are 51.250 from 1 to N and 50.000 "
			     "from N to 2N, 2.50 %25 apart (failure above 5 %25)");
	CHECK_CONTAINS(text, "::warning title=costgate%3A stale acceptance::the acceptance of fresh cold_instructions up to 70");
	free(text);
	verdict_release(&example.verdict);
}

int main(void)
{
	return RUN_CASES(markdown_should_equal_the_golden_summary,
			 markdown_should_warn_of_settings_that_differ_from_the_baseline,
			 annotations_should_equal_the_golden_commands);
}
