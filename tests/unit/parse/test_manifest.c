/* Unit tests of the scenario manifest: reading the build's list (tests/fixtures/manifest),
 * selecting scenarios by name or glob, and splitting them into shards by name alone. */
#define FIXTURES "manifest"
#include "check.h"
#include "fixture.h"
#include "manifest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* The manifest of the fixture `name`, which must read whole (an empty one when it does not). */
static struct manifest read_valid(const char *name)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(manifest_read(&manifest, fixture(name), &err) == 0);
	CHECK_STR(err.message, "");
	return manifest;
}

/* A fixture that lists the scenarios of valid.txt, in some order. */
struct listing {
	const char *name;
	const char *fixture;
};

static const struct listing listings[] = {
	{ "manifest_should_read_the_compiler_flags_and_scenarios", "valid.txt" },
	{ "manifest_should_sort_the_scenarios_by_name_whatever_the_file_order", "reordered.txt" },
};

static void check_listing(const struct listing *row)
{
	struct manifest manifest = read_valid(row->fixture);

	CHECK_STR(manifest.compiler, "GNU 12.2.0");
	CHECK_STR(manifest.flags, "-O2 -g");
	check_names(&manifest, sorted_names, NAME_COUNT);
	if (manifest.entry_count == NAME_COUNT) {
		CHECK_STR(manifest.entries[0].path, "/build/scenarios/batch");
		CHECK_STR(manifest.entries[1].path, "/build/scenarios/consume_json");
		CHECK_STR(manifest.entries[4].path, "/build/scenarios/reply");
		CHECK_STR(manifest.entries[5].path, "/home/a user/my build/spaced"); /* whole */
	}
	manifest_release(&manifest);
	check_released(&manifest);
}

static void manifest_should_read_its_scenarios_in_name_order(void)
{
	RUN_ROWS(check_listing, listings);
}

/* Regression: with no scenario line, manifest_read once called qsort(NULL, 0, ...), undefined
 * behaviour that the sanitizer build (-fno-sanitize-recover) aborts on. */
static void manifest_should_read_a_build_without_scenarios(void)
{
	struct manifest manifest = read_valid("empty.txt");

	CHECK_U64(manifest.entry_count, 0);
	CHECK_STR(manifest.compiler, "GNU 12.2.0");
	manifest_release(&manifest);
}

/* What the build really compiled, per scenario, with the blanks the generator leaves collapsed. */
static void manifest_should_keep_each_scenarios_build_line_and_the_harness_version(void)
{
	struct manifest manifest = read_valid("with-build.txt");

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

/* How the scenarios are built, for the base's worktree: the command as written, quotes and
 * all; absent, NULL. */
static void manifest_should_keep_the_build_command(void)
{
	struct manifest manifest = read_valid("with-build-command.txt");

	CHECK_STR(manifest.build_command, "make BUILD=\"${COSTGATE_BUILD_DIR:-out}\" CFLAGS='-O2 -g'");
	manifest_release(&manifest);
	CHECK(manifest.build_command == NULL);
	manifest = read_valid("valid.txt");
	CHECK(manifest.build_command == NULL);
	manifest_release(&manifest);
}

/* Lines come in any order (a test may reorder scenario lines), but a build line must be some
 * listed scenario's. */
static void manifest_should_take_a_build_line_before_its_scenario(void)
{
	struct manifest manifest = read_valid("build-before-scenario.txt");

	CHECK_U64(manifest.entry_count, 1);
	if (manifest.entry_count == 1)
		CHECK_STR(manifest.entries[0].build, "-O2");
	manifest_release(&manifest);
}

static const struct refused_fixture refusals[] = {
	{ "manifest_should_name_the_file_and_line_of_an_unknown_line", "unknown-line.txt",
	  "line 3: unknown line 'scenario: reply /build/scenarios/reply'" },
	{ "manifest_should_name_the_file_and_line_of_a_name_that_is_not_a_scenario_name",
	  "bad-name.txt", "line 4: scenario name 'Reply\\x1b[2J' is not [a-z0-9_]{1,64}" },
	{ "manifest_should_name_the_file_and_line_of_a_duplicate_scenario", "duplicate.txt",
	  "line 5: scenario 'reply' listed twice" },
	{ "manifest_should_name_the_file_and_line_of_a_scenario_without_a_path", "no-path.txt",
	  "line 3: expected 'scenario NAME PATH'" },
	{ "manifest_should_name_the_file_and_line_of_a_second_compiler", "compiler-twice.txt",
	  "line 3: 'compiler' given twice" },
	{ "manifest_should_reject_a_file_without_a_compiler_line", "no-compiler.txt",
	  "no 'compiler' or 'flags' line" },
	{ "manifest_should_reject_a_file_without_a_flags_line", "no-flags.txt",
	  "no 'compiler' or 'flags' line" },
	{ "manifest_should_say_to_build_first_when_the_file_is_missing", "absent.txt",
	  "No such file or directory (build the project first: its build writes it, with costgate_add_scenarios() or gate manifest)" },
	{ "manifest_should_refuse_a_build_line_for_a_scenario_not_listed", "build-unlisted.txt",
	  "line 4: 'build' names no scenario the manifest lists" },
	/* The build line comes from the project's build, which a pull request controls: it is
	 * printed, so a control character (an ANSI escape here) is refused. */
	{ "manifest_should_refuse_a_build_line_with_a_control_character", "build-control.txt",
	  "line 4: 'build' holds a control character" },
	{ "manifest_should_refuse_a_second_build_line_for_a_scenario", "build-twice.txt",
	  "line 5: 'build parse' given twice" },
	{ "manifest_should_refuse_a_second_build_command", "build-command-twice.txt",
	  "line 4: 'build-command' given twice" },
};

/* Reads the row's fixture, which fails with a message that names the file, keeping nothing. */
static void check_refused(const struct refused_fixture *row)
{
	struct manifest manifest = MANIFEST_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(manifest_read(&manifest, fixture(row->fixture), &err) == -1);
	CHECK_ABOUT_FIXTURE(err.message, "cannot read manifest", row->fixture, row->problem);
	check_released(&manifest);
	manifest_release(&manifest);
}

static void manifest_should_refuse_every_malformed_fixture(void)
{
	RUN_ROWS(check_refused, refusals);
}

/* Scenarios of valid.txt selected by patterns: the names kept, or the message of a refusal
 * (which keeps them all). */
struct selection {
	const char *name;
	char *patterns[2];
	size_t pattern_count;
	const char *const *kept;
	size_t kept_count;
	const char *message;
};

static const char *const named[] = { "batch", "reply" };
static const char *const globbed[] = { "consume_json", "consume_raw", "decode_only" };

static const struct selection selections[] = {
	{ "manifest_select_should_keep_the_scenarios_named", { "reply", "batch" }, 2, named, 2, NULL },
	{ "manifest_select_should_keep_the_scenarios_a_glob_matches", { "consume_*", "*_only" }, 2,
	  globbed, 3, NULL },
	{ "manifest_select_should_keep_everything_without_patterns", { NULL, NULL }, 0, sorted_names,
	  NAME_COUNT, NULL },
	/* Nothing is dropped on the way to the error. */
	{ "manifest_select_should_reject_a_pattern_that_matches_nothing_listing_the_known_names",
	  { "reply", "consume_xml*" }, 2, sorted_names, NAME_COUNT,
	  "unknown scenario 'consume_xml*' (known: batch, consume_json, consume_raw, decode_only, "
	  "reply, spaced)" },
};

static void check_selection(const struct selection *row)
{
	struct manifest manifest = read_valid("valid.txt");
	struct gate_error err = GATE_ERROR_INIT;
	char *patterns[2] = { row->patterns[0], row->patterns[1] };
	size_t i;

	CHECK(manifest_select(&manifest, row->pattern_count ? patterns : NULL, row->pattern_count,
			      &err) == (row->message != NULL ? -1 : 0));
	CHECK_STR(err.message, row->message != NULL ? row->message : "");
	check_names(&manifest, row->kept, row->kept_count);
	for (i = 0; i < manifest.entry_count; i++) { /* each with its own path */
		const char *slash = strrchr(manifest.entries[i].path, '/');

		CHECK_STR(slash != NULL ? slash + 1 : NULL, manifest.entries[i].name);
	}
	manifest_release(&manifest);
}

static void manifest_select_should_keep_what_its_patterns_match(void)
{
	RUN_ROWS(check_selection, selections);
}

/* Reads `file`, keeps shard index of count and returns its names joined by spaces. */
static void shard_names(const char *file, unsigned index, unsigned count, char *names,
			size_t names_size)
{
	struct manifest manifest = read_valid(file);
	size_t i, used = 0;

	names[0] = '\0';
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
			struct manifest manifest = read_valid("reordered.txt");

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
	return RUN_CASES(manifest_should_read_its_scenarios_in_name_order,
			 manifest_should_refuse_every_malformed_fixture,
			 manifest_select_should_keep_what_its_patterns_match,
			 manifest_shard_should_split_by_position_in_name_order,
			 manifest_shard_should_give_the_same_subset_whatever_the_file_order,
			 manifest_shard_should_cover_every_scenario_once,
			 /* Last: it aborts a sanitizer build while the bug stands. */
			 manifest_should_read_a_build_without_scenarios,
			 manifest_should_keep_each_scenarios_build_line_and_the_harness_version,
			 manifest_should_keep_the_build_command,
			 manifest_should_take_a_build_line_before_its_scenario);
}
