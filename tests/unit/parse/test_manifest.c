/* Unit tests of the scenario manifest: reading the build's list (tests/fixtures/manifest),
 * selecting scenarios by name or glob, and splitting them into shards by name alone. */
#include "check.h"
#include "manifest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *fixture(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/manifest/%s", FIXTURE_DIR, name);
	return path;
}

/* The names of valid.txt, in name order. */
static const char *const sorted_names[] = { "batch", "consume_json", "consume_raw",
					    "decode_only", "reply", "spaced" };
#define NAME_COUNT (sizeof(sorted_names) / sizeof(sorted_names[0]))

static void check_names(const struct manifest *manifest, const char *const *names, size_t count)
{
	size_t i;

	CHECK_U64(manifest->entry_count, count);
	for (i = 0; i < count && i < manifest->entry_count; i++)
		CHECK_STR(manifest->entries[i].name, names[i]);
}

static void check_released(const struct manifest *manifest)
{
	CHECK(manifest->compiler == NULL);
	CHECK(manifest->flags == NULL);
	CHECK(manifest->entries == NULL);
	CHECK_U64(manifest->entry_count, 0);
}

/* Reads a fixture that must fail; checks the message names the file and holds `problem`. */
static void check_read_error(const char *name, const char *problem)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char expected[sizeof(err.message)];

	CHECK(manifest_read(&manifest, fixture(name), &err) == -1);
	snprintf(expected, sizeof(expected), "cannot read manifest '%s': %s", fixture(name), problem);
	CHECK_STR(err.message, expected);
	check_released(&manifest);
	manifest_release(&manifest);
}

static int read_valid(struct manifest *manifest, const char *name)
{
	struct gate_error err = GATE_ERROR_INIT;
	int status = manifest_read(manifest, fixture(name), &err);

	CHECK(status == 0);
	CHECK_STR(err.message, "");
	return status;
}

static void manifest_should_read_the_compiler_flags_and_scenarios(void)
{
	struct manifest manifest = MANIFEST_INIT;

	if (read_valid(&manifest, "valid.txt") != 0)
		return;
	CHECK_STR(manifest.compiler, "GNU 12.2.0");
	CHECK_STR(manifest.flags, "-O2 -g");
	check_names(&manifest, sorted_names, NAME_COUNT);
	if (manifest.entry_count == NAME_COUNT) {
		CHECK_STR(manifest.entries[0].path, "/build/scenarios/batch");
		CHECK_STR(manifest.entries[1].path, "/build/scenarios/consume_json");
		CHECK_STR(manifest.entries[4].path, "/build/scenarios/reply");
	}
	manifest_release(&manifest);
	check_released(&manifest);
}

static void manifest_should_keep_a_path_with_spaces_whole(void)
{
	struct manifest manifest = MANIFEST_INIT;

	if (read_valid(&manifest, "valid.txt") != 0)
		return;
	if (manifest.entry_count == NAME_COUNT) {
		CHECK_STR(manifest.entries[5].name, "spaced");
		CHECK_STR(manifest.entries[5].path, "/home/a user/my build/spaced");
	}
	manifest_release(&manifest);
}

static void manifest_should_sort_the_scenarios_by_name_whatever_the_file_order(void)
{
	struct manifest manifest = MANIFEST_INIT;

	if (read_valid(&manifest, "reordered.txt") != 0)
		return;
	CHECK_STR(manifest.compiler, "GNU 12.2.0");
	CHECK_STR(manifest.flags, "-O2 -g");
	check_names(&manifest, sorted_names, NAME_COUNT);
	manifest_release(&manifest);
}

/* Regression: with no scenario line, manifest_read once called qsort(NULL, 0, ...), undefined
 * behaviour that the sanitizer build (-fno-sanitize-recover) aborts on. */
static void manifest_should_read_a_build_without_scenarios(void)
{
	struct manifest manifest = MANIFEST_INIT;

	if (read_valid(&manifest, "empty.txt") != 0)
		return;
	CHECK_U64(manifest.entry_count, 0);
	CHECK_STR(manifest.compiler, "GNU 12.2.0");
	manifest_release(&manifest);
}

/* What the build really compiled, per scenario, with the blanks the generator leaves collapsed. */
static void manifest_should_keep_each_scenarios_build_line_and_the_harness_version(void)
{
	struct manifest manifest = MANIFEST_INIT;

	if (read_valid(&manifest, "with-build.txt") != 0)
		return;
	CHECK_STR(manifest.costgate, "0.2.0");
	CHECK_U64(manifest.entry_count, 2);
	if (manifest.entry_count == 2) {
		CHECK_STR(manifest.entries[0].name, "parse");
		CHECK_STR(manifest.entries[0].build, "-std=c89 -O2 -g | mylib: -std=c89 -O0 | link:");
		CHECK(manifest.entries[1].build == NULL); /* not said: not invented */
	}
	manifest_release(&manifest);
	CHECK(manifest.costgate == NULL);
}

/* Lines come in any order (a test may reorder scenario lines), but a build line must be some
 * listed scenario's. */
static void manifest_should_take_a_build_line_before_its_scenario(void)
{
	struct manifest manifest = MANIFEST_INIT;

	if (read_valid(&manifest, "build-before-scenario.txt") != 0)
		return;
	CHECK_U64(manifest.entry_count, 1);
	if (manifest.entry_count == 1)
		CHECK_STR(manifest.entries[0].build, "-O2");
	manifest_release(&manifest);
}

static void manifest_should_refuse_a_build_line_for_a_scenario_not_listed(void)
{
	check_read_error("build-unlisted.txt", "line 4: 'build' names no scenario the manifest lists");
}

/* The build line comes from the project's build, which a pull request controls: it is printed,
 * so a control character (an ANSI escape here) is refused, naming the file and line. */
static void manifest_should_refuse_a_build_line_with_a_control_character(void)
{
	check_read_error("build-control.txt", "line 4: 'build' holds a control character");
}

static void manifest_should_refuse_a_second_build_line_for_a_scenario(void)
{
	check_read_error("build-twice.txt", "line 5: 'build parse' given twice");
}

static void manifest_should_name_the_file_and_line_of_an_unknown_line(void)
{
	check_read_error("unknown-line.txt", "line 3: unknown line 'scenario: reply /build/scenarios/reply'");
}

static void manifest_should_name_the_file_and_line_of_a_name_that_is_not_a_scenario_name(void)
{
	check_read_error("bad-name.txt", "line 4: scenario name 'Reply\\x1b[2J' is not [a-z0-9_]{1,64}");
}

static void manifest_should_name_the_file_and_line_of_a_duplicate_scenario(void)
{
	check_read_error("duplicate.txt", "line 5: scenario 'reply' listed twice");
}

static void manifest_should_name_the_file_and_line_of_a_scenario_without_a_path(void)
{
	check_read_error("no-path.txt", "line 3: expected 'scenario NAME PATH'");
}

static void manifest_should_name_the_file_and_line_of_a_second_compiler(void)
{
	check_read_error("compiler-twice.txt", "line 3: 'compiler' given twice");
}

static void manifest_should_reject_a_file_without_a_compiler_line(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(manifest_read(&manifest, fixture("no-compiler.txt"), &err) == -1);
	CHECK_CONTAINS(err.message, fixture("no-compiler.txt"));
	CHECK_CONTAINS(err.message, "'compiler'");
	check_released(&manifest);
	manifest_release(&manifest);
}

static void manifest_should_reject_a_file_without_a_flags_line(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(manifest_read(&manifest, fixture("no-flags.txt"), &err) == -1);
	CHECK_CONTAINS(err.message, fixture("no-flags.txt"));
	CHECK_CONTAINS(err.message, "'flags'");
	check_released(&manifest);
	manifest_release(&manifest);
}

static void manifest_should_say_to_build_first_when_the_file_is_missing(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(manifest_read(&manifest, fixture("absent.txt"), &err) == -1);
	CHECK_CONTAINS(err.message, fixture("absent.txt"));
	CHECK_CONTAINS(err.message, "No such file or directory");
	CHECK_CONTAINS(err.message, "build the project first");
	check_released(&manifest);
	manifest_release(&manifest);
}

static void manifest_select_should_keep_the_scenarios_named(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *patterns[] = { "reply", "batch" };
	static const char *const expected[] = { "batch", "reply" };

	if (read_valid(&manifest, "valid.txt") != 0)
		return;
	CHECK(manifest_select(&manifest, patterns, 2, &err) == 0);
	CHECK_STR(err.message, "");
	check_names(&manifest, expected, 2);
	if (manifest.entry_count == 2)
		CHECK_STR(manifest.entries[1].path, "/build/scenarios/reply");
	manifest_release(&manifest);
}

static void manifest_select_should_keep_the_scenarios_a_glob_matches(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *patterns[] = { "consume_*", "*_only" };
	static const char *const expected[] = { "consume_json", "consume_raw", "decode_only" };

	if (read_valid(&manifest, "valid.txt") != 0)
		return;
	CHECK(manifest_select(&manifest, patterns, 2, &err) == 0);
	check_names(&manifest, expected, 3);
	manifest_release(&manifest);
}

static void manifest_select_should_keep_everything_without_patterns(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	if (read_valid(&manifest, "valid.txt") != 0)
		return;
	CHECK(manifest_select(&manifest, NULL, 0, &err) == 0);
	check_names(&manifest, sorted_names, NAME_COUNT);
	manifest_release(&manifest);
}

static void manifest_select_should_reject_a_pattern_that_matches_nothing_listing_the_known_names(void)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *patterns[] = { "reply", "consume_xml*" };

	if (read_valid(&manifest, "valid.txt") != 0)
		return;
	CHECK(manifest_select(&manifest, patterns, 2, &err) == -1);
	CHECK_STR(err.message, "unknown scenario 'consume_xml*' (known: batch, consume_json, "
			       "consume_raw, decode_only, reply, spaced)");
	/* Nothing was dropped on the way to the error. */
	check_names(&manifest, sorted_names, NAME_COUNT);
	manifest_release(&manifest);
}

/* Reads `file`, keeps shard index of count and returns its names joined by spaces. */
static void shard_names(const char *file, unsigned index, unsigned count, char *names,
			size_t names_size)
{
	struct manifest manifest = MANIFEST_INIT;
	size_t i, used = 0;

	names[0] = '\0';
	if (read_valid(&manifest, file) != 0)
		return;
	manifest_shard(&manifest, index, count);
	for (i = 0; i < manifest.entry_count; i++)
		used += (size_t)snprintf(names + used, names_size - used, "%s%s", i ? " " : "",
					 manifest.entries[i].name);
	manifest_release(&manifest);
}

static void manifest_shard_should_split_by_position_in_name_order(void)
{
	char names[256];

	shard_names("valid.txt", 1, 3, names, sizeof(names));
	CHECK_STR(names, "batch decode_only");
	shard_names("valid.txt", 2, 3, names, sizeof(names));
	CHECK_STR(names, "consume_json reply");
	shard_names("valid.txt", 3, 3, names, sizeof(names));
	CHECK_STR(names, "consume_raw spaced");
}

static void manifest_shard_should_give_the_same_subset_whatever_the_file_order(void)
{
	char from_valid[256], from_reordered[256];
	unsigned count, index;

	for (count = 1; count <= 4; count++) {
		for (index = 1; index <= count; index++) {
			shard_names("valid.txt", index, count, from_valid, sizeof(from_valid));
			shard_names("reordered.txt", index, count, from_reordered, sizeof(from_reordered));
			CHECK_STR(from_reordered, from_valid);
		}
	}
}

static void manifest_shard_should_cover_every_scenario_once(void)
{
	unsigned count, index;

	for (count = 1; count <= 7; count++) {
		unsigned seen[NAME_COUNT] = { 0 };
		size_t i, j;

		for (index = 1; index <= count; index++) {
			struct manifest manifest = MANIFEST_INIT;

			if (read_valid(&manifest, "reordered.txt") != 0)
				return;
			manifest_shard(&manifest, index, count);
			for (i = 0; i < manifest.entry_count; i++)
				for (j = 0; j < NAME_COUNT; j++)
					if (strcmp(manifest.entries[i].name, sorted_names[j]) == 0)
						seen[j]++;
			manifest_release(&manifest);
		}
		for (j = 0; j < NAME_COUNT; j++) {
			if (seen[j] != 1)
				fprintf(stderr, "%u shards: '%s' seen %u times\n", count, sorted_names[j],
					seen[j]);
			CHECK(seen[j] == 1);
		}
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* keep the case lines if a sanitizer aborts */
	RUN(manifest_should_read_the_compiler_flags_and_scenarios);
	RUN(manifest_should_keep_a_path_with_spaces_whole);
	RUN(manifest_should_sort_the_scenarios_by_name_whatever_the_file_order);
	RUN(manifest_should_name_the_file_and_line_of_an_unknown_line);
	RUN(manifest_should_name_the_file_and_line_of_a_name_that_is_not_a_scenario_name);
	RUN(manifest_should_name_the_file_and_line_of_a_duplicate_scenario);
	RUN(manifest_should_name_the_file_and_line_of_a_scenario_without_a_path);
	RUN(manifest_should_name_the_file_and_line_of_a_second_compiler);
	RUN(manifest_should_reject_a_file_without_a_compiler_line);
	RUN(manifest_should_reject_a_file_without_a_flags_line);
	RUN(manifest_should_say_to_build_first_when_the_file_is_missing);
	RUN(manifest_select_should_keep_the_scenarios_named);
	RUN(manifest_select_should_keep_the_scenarios_a_glob_matches);
	RUN(manifest_select_should_keep_everything_without_patterns);
	RUN(manifest_select_should_reject_a_pattern_that_matches_nothing_listing_the_known_names);
	RUN(manifest_shard_should_split_by_position_in_name_order);
	RUN(manifest_shard_should_give_the_same_subset_whatever_the_file_order);
	RUN(manifest_shard_should_cover_every_scenario_once);
	/* Last: it aborts a sanitizer build while the bug stands. */
	RUN(manifest_should_read_a_build_without_scenarios);
	RUN(manifest_should_keep_each_scenarios_build_line_and_the_harness_version);
	RUN(manifest_should_take_a_build_line_before_its_scenario);
	RUN(manifest_should_refuse_a_build_line_for_a_scenario_not_listed);
	RUN(manifest_should_refuse_a_second_build_line_for_a_scenario);
	RUN(manifest_should_refuse_a_build_line_with_a_control_character);
	return CHECK_EXIT();
}
