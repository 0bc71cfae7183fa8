/* Unit tests of the environment and fingerprint: collecting on this machine with the real valgrind,
 * valgrind's version asked of small fake valgrinds written to a temporary directory whose name
 * holds a space (so a shell string would split it), and the fingerprint's JSON and comparison. */
#define _GNU_SOURCE
#include "check.h"
#include "cache_geometry.h"
#include "environment.h"
#include "json_at.h"

#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define FAKE_LIMIT 8

static char fake_directory[512];
static char fake_paths[FAKE_LIMIT][600];
static size_t fake_count;

/* Writes an executable shell script standing in for valgrind; NULL when it cannot be written. */
static const char *write_fake_valgrind(const char *name, const char *body)
{
	char *path;
	FILE *file;

	if (fake_directory[0] == '\0' || fake_count == FAKE_LIMIT)
		return NULL;
	path = fake_paths[fake_count];
	snprintf(path, sizeof(fake_paths[0]), "%s/%s", fake_directory, name);
	file = fopen(path, "w");
	if (file == NULL)
		return NULL;
	fprintf(file, "#!/bin/sh\n%s\n", body);
	if (fclose(file) != 0 || chmod(path, 0755) != 0)
		return NULL;
	fake_count++;
	return path;
}

static void make_fake_directory(void)
{
	const char *temporary = getenv("TMPDIR");

	snprintf(fake_directory, sizeof(fake_directory), "%s/costgate environment XXXXXX",
		 temporary != NULL && temporary[0] != '\0' ? temporary : "/tmp");
	if (mkdtemp(fake_directory) == NULL) {
		fprintf(stderr, "cannot create a temporary directory: %s\n", fake_directory);
		fake_directory[0] = '\0';
	}
}

static void remove_fake_directory(void)
{
	size_t i;

	for (i = 0; i < fake_count; i++)
		unlink(fake_paths[i]);
	if (fake_directory[0] != '\0')
		rmdir(fake_directory);
}

#define FIELD(name) offsetof(struct environment, name)

/* Every string field of an environment, by name. */
static const struct {
	const char *name;
	size_t offset;
} string_fields[] = {
	{ "cpu", FIELD(cpu) },           { "architecture", FIELD(architecture) },
	{ "cores", FIELD(cores) },       { "memory", FIELD(memory) },
	{ "os", FIELD(os) },             { "compiler", FIELD(compiler) },
	{ "flags", FIELD(flags) },       { "valgrind", FIELD(valgrind) },
	{ "glibc", FIELD(glibc) },       { "cjson", FIELD(cjson) },
	{ "costgate", FIELD(costgate) }, { "dispatch_pin", FIELD(dispatch_pin) },
	{ "malloc_pin", FIELD(malloc_pin) }, { "cache", FIELD(cache) },
	{ "method", FIELD(method) },     { "debug_info", FIELD(debug_info) },
};

/* The string field at `offset` of an environment. */
static char **field_at(struct environment *environment, size_t offset)
{
	return (char **)(void *)((char *)environment + offset);
}

/* Nothing left: every string NULL and the schema 0. */
static void check_released(struct environment *environment)
{
	size_t i;

	for (i = 0; i < sizeof(string_fields) / sizeof(string_fields[0]); i++)
		if (*field_at(environment, string_fields[i].offset) != NULL)
			check_failed(__FILE__, __LINE__, "%s is left after a release",
				     string_fields[i].name);
	CHECK(environment->schema == 0);
}

static void replace(char **field, const char *value)
{
	free(*field);
	*field = value != NULL ? strdup(value) : NULL;
}

/* A fingerprint as another machine would have written it, machine facts included. */
static void fill_fingerprint(struct environment *environment)
{
	*environment = (struct environment)ENVIRONMENT_INIT;
	replace(&environment->cpu, "AMD EPYC");
	replace(&environment->architecture, "x86_64");
	replace(&environment->cores, "2 logical");
	replace(&environment->memory, "23.5 GiB");
	replace(&environment->os, "Linux 6.1.0-18-amd64 (Debian GNU/Linux 12 (bookworm))");
	replace(&environment->compiler, "GNU 12.2.0");
	replace(&environment->flags, "-O2 -g");
	replace(&environment->valgrind, "3.19.0");
	replace(&environment->glibc, "2.36");
	replace(&environment->cjson, "1.7.15");
	replace(&environment->dispatch_pin, GATE_DISPATCH_PIN);
	replace(&environment->costgate, "0.2.0");
	replace(&environment->malloc_pin, GATE_MALLOC_PIN);
	replace(&environment->cache, CACHE_GEOMETRY);
	environment->schema = GATE_SCHEMA_VERSION;
}

/* Checks that the object's keys are exactly `keys`, in that order. */
static void check_keys(const cJSON *object, const char *const *keys, size_t key_count)
{
	const cJSON *item = object != NULL ? object->child : NULL;
	size_t i;

	for (i = 0; i < key_count; i++) {
		CHECK(item != NULL);
		if (item == NULL)
			return;
		CHECK_STR(item->string, keys[i]);
		item = item->next;
	}
	CHECK(item == NULL);
}

/* The environment collected on this machine with the real valgrind, which must succeed. */
static void collect(struct environment *environment, const char *compiler, const char *flags)
{
	struct gate_error err = GATE_ERROR_INIT;

	*environment = (struct environment)ENVIRONMENT_INIT;
	CHECK(environment_collect(environment, "valgrind", compiler, flags, &err) == 0);
	CHECK_STR(err.message, "");
}

static void collect_should_fill_every_field_on_this_machine(void)
{
	struct environment environment;

	collect(&environment, "GNU 12.2.0", "-O2 -g");
	CHECK(environment.cpu != NULL);
	CHECK(environment.architecture != NULL);
	CHECK(environment.cores != NULL);
	CHECK(environment.memory != NULL);
	CHECK(environment.os != NULL);
	CHECK(environment.valgrind != NULL);
	CHECK(environment.valgrind != NULL && environment.valgrind[0] >= '0' &&
	      environment.valgrind[0] <= '9');
	CHECK(environment.valgrind != NULL && strchr(environment.valgrind, '\n') == NULL);
	CHECK_STR(environment.compiler, "GNU 12.2.0");
	CHECK_STR(environment.flags, "-O2 -g");
	environment_release(&environment);
}

/* glibc is named by its installed package where dpkg knows it: "2.36 (libc6 2.36-9+deb12u9)". */
static void collect_should_take_glibc_cjson_pin_and_schema_from_the_build(void)
{
	struct environment environment;
	const char *version = gnu_get_libc_version();

	collect(&environment, "GNU 12.2.0", "-O2 -g");
	CHECK(environment.glibc != NULL && strncmp(environment.glibc, version, strlen(version)) == 0);
	if (access("/usr/bin/dpkg-query", X_OK) == 0)
		CHECK(environment.glibc != NULL && strstr(environment.glibc, " (libc6 ") != NULL);
	CHECK(environment.costgate == NULL); /* the manifest's to give, not the machine's */
	CHECK_STR(environment.cjson, cJSON_Version());
	CHECK_STR(environment.dispatch_pin, GATE_DISPATCH_PIN);
	CHECK_STR(environment.malloc_pin, GATE_MALLOC_PIN);
	CHECK(environment.schema == GATE_SCHEMA_VERSION);
	environment_release(&environment);
}

static void collect_should_report_the_machine_as_the_system_does(void)
{
	struct environment environment;
	struct utsname system;
	char expected[512];
	size_t length;

	collect(&environment, NULL, NULL);
	CHECK(uname(&system) == 0);
	CHECK_STR(environment.architecture, system.machine);
	snprintf(expected, sizeof(expected), "%ld logical", sysconf(_SC_NPROCESSORS_ONLN));
	CHECK_STR(environment.cores, expected);
	snprintf(expected, sizeof(expected), "%s %s", system.sysname, system.release);
	CHECK(environment.os != NULL && strncmp(environment.os, expected, strlen(expected)) == 0);
	length = environment.cpu != NULL ? strlen(environment.cpu) : 0;
	CHECK(length > 0);
	CHECK(length > 0 && environment.cpu[0] != ' ' && environment.cpu[0] != '\t' &&
	      environment.cpu[length - 1] != ' ' && environment.cpu[length - 1] != '\n');
	environment_release(&environment);
}

static void collect_should_write_memory_in_gib_with_one_decimal(void)
{
	struct environment environment;
	const char *cursor;

	collect(&environment, NULL, NULL);
	cursor = environment.memory != NULL ? environment.memory : "";
	CHECK(*cursor >= '0' && *cursor <= '9');
	while (*cursor >= '0' && *cursor <= '9')
		cursor++;
	CHECK(cursor[0] == '.' && cursor[1] >= '0' && cursor[1] <= '9');
	CHECK_STR(cursor[0] == '.' ? cursor + 2 : cursor, " GiB");
	environment_release(&environment);
}

static void collect_should_say_unknown_when_compiler_and_flags_are_absent(void)
{
	struct environment environment;

	collect(&environment, NULL, NULL);
	CHECK_STR(environment.compiler, "unknown");
	CHECK_STR(environment.flags, "unknown");
	environment_release(&environment);
}

/* A stand-in for valgrind (a shell script of `body`, or no file at all when body is NULL) and
 * what collecting with it gives: the version, or the message after "cannot run 'PATH --version': ".
 * The environment holds COSTGATE_TEST_LEAK, which valgrind must not see. */
struct valgrind_case {
	const char *name;
	const char *fake, *body;
	const char *version, *problem;
};

static const struct valgrind_case valgrind_cases[] = {
	{ "collect_should_strip_the_prefix_from_what_valgrind_prints", "valgrind 3.22",
	  "echo valgrind-3.22.0", "3.22.0", NULL },
	/* The fake prints its first argument, their count, LC_ALL, PATH and the leak. */
	{ "collect_should_ask_valgrind_with_an_argv_and_a_minimal_environment", "valgrind environment",
	  "printf 'valgrind-%s|%s|%s|%s|%s\\n' \"$1\" \"$#\" \"$LC_ALL\" \"$PATH\" "
	  "\"${COSTGATE_TEST_LEAK:-sealed}\"",
	  "--version|1|C|/usr/bin:/bin|sealed", NULL },
	{ "collect_should_fail_naming_the_path_when_valgrind_does_not_exist", "valgrind absent", NULL,
	  NULL, "No such file or directory" },
	{ "collect_should_fail_when_valgrind_exits_non_zero", "valgrind failing",
	  "echo valgrind-3.22.0; exit 3", NULL, "' exited with 3" },
	{ "collect_should_fail_when_valgrind_is_killed", "valgrind killed", "kill -9 $$", NULL,
	  "' was killed by signal 9 (Killed)" },
	{ "collect_should_fail_when_valgrind_prints_no_version", "valgrind silent",
	  "echo 'not valgrind'", NULL, "it printed 'not valgrind', not 'valgrind-<version>'" },
};

static void check_valgrind(const struct valgrind_case *row)
{
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char absent[700], expected[2 * sizeof(absent) + 200];
	const char *fake = absent;

	snprintf(absent, sizeof(absent), "%s/%s", fake_directory, row->fake);
	if (row->body != NULL)
		fake = write_fake_valgrind(row->fake, row->body);
	CHECK(fake != NULL);
	CHECK(setenv("COSTGATE_TEST_LEAK", "leaked", 1) == 0);
	CHECK(environment_collect(&environment, fake != NULL ? fake : absent, "GNU 12.2.0", "-O2 -g",
				  &err) == (row->problem != NULL ? -1 : 0));
	unsetenv("COSTGATE_TEST_LEAK");
	if (row->problem != NULL) {
		if (row->problem[0] == '\'') /* the runner's words: "'PROGRAM' exited with 3" */
			snprintf(expected, sizeof(expected), "cannot run '%s --version': '%s%s", fake,
				 fake, row->problem);
		else
			snprintf(expected, sizeof(expected), "cannot run '%s --version': %s",
				 fake != NULL ? fake : absent, row->problem);
		CHECK_STR(err.message, expected);
		check_released(&environment);
	} else {
		CHECK_STR(err.message, "");
		CHECK_STR(environment.valgrind, row->version);
	}
	environment_release(&environment);
}

static void collect_should_ask_valgrind_its_version(void)
{
	RUN_ROWS(check_valgrind, valgrind_cases);
}

static void to_json_should_write_the_environment_block_in_order(void)
{
	static const char *const keys[] = { "cpu",      "architecture", "cores",   "memory", "os",
					    "compiler", "valgrind",     "profile", "flags",  "glibc",
					    "costgate", "gate_cjson", "dispatch_pin", "malloc_pin",
					    "cache" };
	struct environment environment;
	cJSON *block;

	fill_fingerprint(&environment);
	block = environment_to_json(&environment);
	CHECK(block != NULL);
	check_keys(block, keys, sizeof(keys) / sizeof(keys[0]));
	CHECK_STR(json_string_at(block, "cpu"), "AMD EPYC");
	CHECK_STR(json_string_at(block, "architecture"), "x86_64");
	CHECK_STR(json_string_at(block, "cores"), "2 logical");
	CHECK_STR(json_string_at(block, "memory"), "23.5 GiB");
	CHECK_STR(json_string_at(block, "os"), "Linux 6.1.0-18-amd64 (Debian GNU/Linux 12 (bookworm))");
	CHECK_STR(json_string_at(block, "compiler"), "GNU 12.2.0");
	CHECK_STR(json_string_at(block, "valgrind"), "3.19.0");
	CHECK_STR(json_string_at(block, "profile"), "-O2 -g, never -march=native");
	CHECK_STR(json_string_at(block, "flags"), "-O2 -g");
	CHECK_STR(json_string_at(block, "costgate"), "0.2.0");
	CHECK_STR(json_string_at(block, "gate_cjson"), "1.7.15");
	CHECK_STR(json_string_at(block, "dispatch_pin"), GATE_DISPATCH_PIN);
	CHECK_STR(json_string_at(block, "malloc_pin"), GATE_MALLOC_PIN);
	cJSON_Delete(block);
	environment_release(&environment);
}

/* A fingerprint read back has no machine facts; its environment block says so instead of lying. */
static void to_json_should_write_unknown_for_absent_fields(void)
{
	struct environment environment = ENVIRONMENT_INIT;
	cJSON *block = environment_to_json(&environment);

	CHECK(block != NULL);
	CHECK_STR(json_string_at(block, "cpu"), "unknown");
	CHECK_STR(json_string_at(block, "profile"), "unknown, never -march=native");
	CHECK_STR(json_string_at(block, "flags"), "unknown");
	cJSON_Delete(block);
}

static void fingerprint_to_json_should_write_schema_as_a_number_and_keys_in_order(void)
{
	static const char *const keys[] = { "schema", "valgrind", "compiler",    "flags",
					    "glibc",  "cjson",    "dispatch_pin", "costgate", "malloc_pin",
					    "cache" };
	struct environment environment;
	const cJSON *schema;
	cJSON *fingerprint;

	fill_fingerprint(&environment);
	fingerprint = environment_fingerprint_to_json(&environment);
	CHECK(fingerprint != NULL);
	check_keys(fingerprint, keys, sizeof(keys) / sizeof(keys[0]));
	schema = cJSON_GetObjectItemCaseSensitive(fingerprint, "schema");
	CHECK(cJSON_IsNumber(schema) && schema->valuedouble == GATE_SCHEMA_VERSION);
	CHECK_STR(json_string_at(fingerprint, "valgrind"), "3.19.0");
	CHECK_STR(json_string_at(fingerprint, "dispatch_pin"), GATE_DISPATCH_PIN);
	CHECK_STR(json_string_at(fingerprint, "malloc_pin"), GATE_MALLOC_PIN);
	cJSON_Delete(fingerprint);
	environment_release(&environment);
}

/* The fingerprint of `written` written to JSON text and read back into *read (owned), which
 * must equal it. */
static void round_trip(const struct environment *written, struct environment *read)
{
	struct gate_error err = GATE_ERROR_INIT;
	char difference[512] = "untouched";
	cJSON *fingerprint = environment_fingerprint_to_json(written), *parsed;
	char *text = fingerprint != NULL ? cJSON_PrintUnformatted(fingerprint) : NULL;

	parsed = text != NULL ? cJSON_Parse(text) : NULL;
	CHECK(parsed != NULL);
	*read = (struct environment)ENVIRONMENT_INIT;
	CHECK(environment_fingerprint_from_json(read, parsed, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(environment_fingerprint_equal(written, read, difference, sizeof(difference)) == 1);
	CHECK_STR(difference, "");
	cJSON_Delete(parsed);
	free(text);
	cJSON_Delete(fingerprint);
}

static void fingerprint_should_equal_itself_after_a_round_trip_through_json(void)
{
	struct environment written, read;

	fill_fingerprint(&written);
	round_trip(&written, &read);
	CHECK_STR(read.valgrind, "3.19.0");
	CHECK_STR(read.dispatch_pin, GATE_DISPATCH_PIN);
	CHECK_STR(read.malloc_pin, GATE_MALLOC_PIN);
	CHECK(read.schema == GATE_SCHEMA_VERSION);
	CHECK(read.cpu == NULL && read.os == NULL && read.memory == NULL);
	environment_release(&read);
	environment_release(&written);
}

static void fingerprint_should_equal_a_freshly_collected_one_after_a_round_trip(void)
{
	struct environment collected, read;

	collect(&collected, "GNU 12.2.0", "-O2 -g");
	round_trip(&collected, &read);
	environment_release(&read);
	environment_release(&collected);
}

/* Compares fill_fingerprint's with `there`, a baseline's: equal when `expected` is "", else the
 * difference it names, cut to `size` bytes (0: the whole of it). */
static void check_compared(const struct environment *there, size_t size, const char *expected)
{
	struct environment here;
	char difference[512] = "untouched";

	fill_fingerprint(&here);
	CHECK(environment_fingerprint_equal(&here, there, difference,
					    size != 0 ? size : sizeof(difference)) ==
	      (expected[0] == '\0'));
	CHECK_STR(difference, expected);
	environment_release(&here);
}

/* One field of the baseline's fingerprint changed (NULL: absent), and the difference it makes,
 * cut to `size` bytes (the whole of it when 0). */
struct difference_case {
	const char *name;
	size_t field;
	const char *value;
	size_t size;
	const char *difference;
};

static const struct difference_case difference_cases[] = {
	{ "fingerprint_should_differ_when_valgrind_differs", FIELD(valgrind), "3.22.0", 0,
	  "valgrind: 3.19.0 here, 3.22.0 in the baseline" },
	{ "fingerprint_should_differ_when_compiler_differs", FIELD(compiler), "Clang 16.0.6", 0,
	  "compiler: GNU 12.2.0 here, Clang 16.0.6 in the baseline" },
	{ "fingerprint_should_differ_when_flags_differ", FIELD(flags), "-O3 -g", 0,
	  "flags: -O2 -g here, -O3 -g in the baseline" },
	{ "fingerprint_should_differ_when_glibc_differs", FIELD(glibc), "2.39", 0,
	  "glibc: 2.36 here, 2.39 in the baseline" },
	{ "fingerprint_should_differ_when_cjson_differs", FIELD(cjson), "1.7.17", 0,
	  "cjson: 1.7.15 here, 1.7.17 in the baseline" },
	{ "fingerprint_should_differ_when_dispatch_pin_differs", FIELD(dispatch_pin),
	  "glibc.cpu.hwcaps=-AVX2", 0,
	  "dispatch_pin: " GATE_DISPATCH_PIN " here, glibc.cpu.hwcaps=-AVX2 in the baseline" },
	{ "fingerprint_should_differ_when_malloc_pin_differs", FIELD(malloc_pin),
	  "glibc.malloc.trim_threshold=131072", 0,
	  "malloc_pin: " GATE_MALLOC_PIN " here, glibc.malloc.trim_threshold=131072 in the baseline" },
	{ "fingerprint_should_differ_when_a_field_is_missing_on_one_side", FIELD(glibc), NULL, 0,
	  "glibc: 2.36 here, (none) in the baseline" },
	{ "fingerprint_should_cut_a_long_difference_to_the_buffer", FIELD(valgrind), "3.22.0", 16,
	  "valgrind: 3.19." },
};

static void check_difference(const struct difference_case *row)
{
	struct environment there;

	fill_fingerprint(&there);
	replace(field_at(&there, row->field), row->value);
	check_compared(&there, row->size, row->difference);
	environment_release(&there);
}

static void fingerprint_should_name_the_field_that_differs(void)
{
	RUN_ROWS(check_difference, difference_cases);
}

static void fingerprint_should_differ_when_schema_differs(void)
{
	struct environment there;
	char expected[512];

	fill_fingerprint(&there);
	there.schema = GATE_SCHEMA_VERSION + 1;
	snprintf(expected, sizeof(expected), "schema: %d here, %d in the baseline",
		 GATE_SCHEMA_VERSION, GATE_SCHEMA_VERSION + 1);
	check_compared(&there, 0, expected);
	environment_release(&there);
}

/* A baseline from before estimated cycles has no cache geometry and holds no cycles: it compares
 * on everything else; two geometries that differ never compare. */
static void fingerprint_should_compare_the_cache_geometry_only_when_both_have_it(void)
{
	struct environment there;

	fill_fingerprint(&there);
	replace(&there.cache, NULL);
	check_compared(&there, 0, "");
	replace(&there.cache, "I1=32768,8,64 D1=32768,8,64 LL=4194304,16,64");
	check_compared(&there, 0, "cache: " CACHE_GEOMETRY " here, I1=32768,8,64 D1=32768,8,64 "
				  "LL=4194304,16,64 in the baseline");
	environment_release(&there);
}

/* Comparable across machines: the cpu, memory and the rest of the environment block do not count. */
static void fingerprint_should_ignore_the_machine_facts(void)
{
	struct environment there;

	fill_fingerprint(&there);
	replace(&there.cpu, "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz");
	replace(&there.architecture, NULL);
	replace(&there.cores, "4 logical");
	replace(&there.memory, "15.6 GiB");
	replace(&there.os, "Linux 6.5.0-1025-azure (Ubuntu 22.04.4 LTS)");
	check_compared(&there, 0, "");
	environment_release(&there);
}

static cJSON *fingerprint_json(void)
{
	struct environment environment;
	cJSON *fingerprint;

	fill_fingerprint(&environment);
	fingerprint = environment_fingerprint_to_json(&environment);
	environment_release(&environment);
	return fingerprint;
}

/* Reads a fingerprint that must fail and checks the whole message and the released result. */
static void check_from_json_error(const cJSON *fingerprint, const char *expected)
{
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(environment_fingerprint_from_json(&environment, fingerprint, &err) == -1);
	CHECK_STR(err.message, expected);
	check_released(&environment);
}

/* A baseline measured before the malloc pin existed reads, but is not comparable. */
static void from_json_should_read_a_fingerprint_without_the_malloc_pin_as_not_comparable(void)
{
	struct environment there = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *fingerprint = fingerprint_json();

	cJSON_DeleteItemFromObjectCaseSensitive(fingerprint, "malloc_pin");
	CHECK(environment_fingerprint_from_json(&there, fingerprint, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(there.malloc_pin == NULL);
	check_compared(&there, 0, "malloc_pin: " GATE_MALLOC_PIN " here, (none) in the baseline");
	environment_release(&there);
	cJSON_Delete(fingerprint);
}

static const char *const fingerprint_string_keys[] = { "valgrind", "compiler", "flags",
						       "glibc",    "cjson",    "dispatch_pin" };

static void from_json_should_reject_each_missing_key_naming_it(void)
{
	char expected[256];
	size_t i;

	for (i = 0; i < sizeof(fingerprint_string_keys) / sizeof(fingerprint_string_keys[0]); i++) {
		cJSON *fingerprint = fingerprint_json();

		cJSON_DeleteItemFromObjectCaseSensitive(fingerprint, fingerprint_string_keys[i]);
		snprintf(expected, sizeof(expected), "fingerprint: missing or non-string key '%s'",
			 fingerprint_string_keys[i]);
		check_from_json_error(fingerprint, expected);
		cJSON_Delete(fingerprint);
	}
}

static void from_json_should_reject_each_non_string_key_naming_it(void)
{
	static const char *const keys[] = { "valgrind", "compiler",     "flags",     "glibc",
					    "cjson",    "dispatch_pin", "malloc_pin" };
	char expected[256];
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		cJSON *fingerprint = fingerprint_json();

		cJSON_ReplaceItemInObjectCaseSensitive(fingerprint, keys[i], cJSON_CreateNumber(3));
		snprintf(expected, sizeof(expected), "fingerprint: missing or non-string key '%s'",
			 keys[i]);
		check_from_json_error(fingerprint, expected);
		cJSON_ReplaceItemInObjectCaseSensitive(fingerprint, keys[i], cJSON_CreateNull());
		check_from_json_error(fingerprint, expected);
		cJSON_Delete(fingerprint);
	}
}

static void from_json_should_reject_a_schema_that_is_not_a_positive_integer(void)
{
	static const char *const bad_schemas[] = { "\"1\"", "0", "-1", "1.5", "1e300", "null", "true" };
	const char *expected = "fingerprint: missing or non-positive-integer key 'schema'";
	cJSON *fingerprint = fingerprint_json();
	size_t i;

	for (i = 0; i < sizeof(bad_schemas) / sizeof(bad_schemas[0]); i++) {
		cJSON_ReplaceItemInObjectCaseSensitive(fingerprint, "schema",
						       cJSON_Parse(bad_schemas[i]));
		check_from_json_error(fingerprint, expected);
	}
	cJSON_DeleteItemFromObjectCaseSensitive(fingerprint, "schema");
	check_from_json_error(fingerprint, expected);
	cJSON_Delete(fingerprint);
}

/* The string keys are read after the schema: a late failure must free the earlier copies. */
static void from_json_should_release_what_it_read_before_a_failure(void)
{
	cJSON *fingerprint = fingerprint_json();

	cJSON_DeleteItemFromObjectCaseSensitive(fingerprint, "dispatch_pin");
	check_from_json_error(fingerprint, "fingerprint: missing or non-string key 'dispatch_pin'");
	cJSON_Delete(fingerprint);
}

static void from_json_should_reject_what_is_not_an_object(void)
{
	cJSON *array = cJSON_CreateArray();

	check_from_json_error(array, "fingerprint: not a JSON object");
	check_from_json_error(NULL, "fingerprint: not a JSON object");
	cJSON_Delete(array);
}

static void release_should_accept_null_and_leave_the_environment_empty(void)
{
	struct environment environment;

	environment_release(NULL);
	fill_fingerprint(&environment);
	environment_release(&environment);
	check_released(&environment);
	environment_release(&environment);
	check_released(&environment);
}

int main(void)
{
	int status;

	make_fake_directory();
	status = RUN_CASES(collect_should_fill_every_field_on_this_machine,
			   collect_should_take_glibc_cjson_pin_and_schema_from_the_build,
			   collect_should_report_the_machine_as_the_system_does,
			   collect_should_write_memory_in_gib_with_one_decimal,
			   collect_should_say_unknown_when_compiler_and_flags_are_absent,
			   collect_should_ask_valgrind_its_version,
			   to_json_should_write_the_environment_block_in_order,
			   to_json_should_write_unknown_for_absent_fields,
			   fingerprint_to_json_should_write_schema_as_a_number_and_keys_in_order,
			   fingerprint_should_equal_itself_after_a_round_trip_through_json,
			   fingerprint_should_equal_a_freshly_collected_one_after_a_round_trip,
			   fingerprint_should_differ_when_schema_differs,
			   fingerprint_should_name_the_field_that_differs,
			   fingerprint_should_compare_the_cache_geometry_only_when_both_have_it,
			   from_json_should_read_a_fingerprint_without_the_malloc_pin_as_not_comparable,
			   fingerprint_should_ignore_the_machine_facts,
			   from_json_should_reject_each_missing_key_naming_it,
			   from_json_should_reject_each_non_string_key_naming_it,
			   from_json_should_reject_a_schema_that_is_not_a_positive_integer,
			   from_json_should_release_what_it_read_before_a_failure,
			   from_json_should_reject_what_is_not_an_object,
			   release_should_accept_null_and_leave_the_environment_empty);
	remove_fake_directory();
	return status;
}
