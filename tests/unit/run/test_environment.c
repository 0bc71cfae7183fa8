/* Unit tests of the environment and fingerprint: collecting on this machine with the real valgrind,
 * valgrind's version asked of small fake valgrinds written to a temporary directory whose name
 * holds a space (so a shell string would split it), and the fingerprint's JSON and comparison. */
#define _GNU_SOURCE
#include "check.h"
#include "cache_geometry.h"
#include "environment.h"

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

static void check_released(const struct environment *environment)
{
	CHECK(environment->cpu == NULL);
	CHECK(environment->architecture == NULL);
	CHECK(environment->cores == NULL);
	CHECK(environment->memory == NULL);
	CHECK(environment->os == NULL);
	CHECK(environment->compiler == NULL);
	CHECK(environment->flags == NULL);
	CHECK(environment->valgrind == NULL);
	CHECK(environment->glibc == NULL);
	CHECK(environment->cjson == NULL);
	CHECK(environment->dispatch_pin == NULL);
	CHECK(environment->malloc_pin == NULL);
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

static const char *json_string(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

static void collect_should_fill_every_field_on_this_machine(void)
{
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(environment_collect(&environment, "valgrind", "GNU 12.2.0", "-O2 -g", &err) == 0);
	CHECK_STR(err.message, "");
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
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const char *version = gnu_get_libc_version();

	CHECK(environment_collect(&environment, "valgrind", "GNU 12.2.0", "-O2 -g", &err) == 0);
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
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct utsname system;
	char expected[512];
	size_t length;

	CHECK(environment_collect(&environment, "valgrind", NULL, NULL, &err) == 0);
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
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	const char *cursor;

	CHECK(environment_collect(&environment, "valgrind", NULL, NULL, &err) == 0);
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
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(environment_collect(&environment, "valgrind", NULL, NULL, &err) == 0);
	CHECK_STR(environment.compiler, "unknown");
	CHECK_STR(environment.flags, "unknown");
	environment_release(&environment);
}

static void collect_should_fail_naming_the_path_when_valgrind_does_not_exist(void)
{
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(environment_collect(&environment, "/nonexistent/costgate/valgrind", "GNU 12.2.0",
				  "-O2 -g", &err) == -1);
	CHECK_STR(err.message, "cannot run '/nonexistent/costgate/valgrind --version': "
			       "No such file or directory");
	check_released(&environment);
}

static void collect_should_strip_the_prefix_from_what_valgrind_prints(void)
{
	const char *fake = write_fake_valgrind("valgrind 3.22", "echo valgrind-3.22.0");
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(fake != NULL);
	CHECK(environment_collect(&environment, fake, NULL, NULL, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(environment.valgrind, "3.22.0");
	environment_release(&environment);
}

/* The fake prints its first argument, LC_ALL, PATH and a variable gate's own environment holds. */
static void collect_should_ask_valgrind_with_an_argv_and_a_minimal_environment(void)
{
	const char *fake = write_fake_valgrind(
		"valgrind environment",
		"printf 'valgrind-%s|%s|%s|%s|%s\\n' \"$1\" \"$#\" \"$LC_ALL\" \"$PATH\" "
		"\"${COSTGATE_TEST_LEAK:-sealed}\"");
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(fake != NULL);
	CHECK(setenv("COSTGATE_TEST_LEAK", "leaked", 1) == 0);
	CHECK(environment_collect(&environment, fake, NULL, NULL, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK_STR(environment.valgrind, "--version|1|C|/usr/bin:/bin|sealed");
	unsetenv("COSTGATE_TEST_LEAK");
	environment_release(&environment);
}

static void collect_should_fail_when_valgrind_exits_non_zero(void)
{
	const char *fake = write_fake_valgrind("valgrind failing", "echo valgrind-3.22.0; exit 3");
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char expected[sizeof(err.message)];

	CHECK(fake != NULL);
	CHECK(environment_collect(&environment, fake, NULL, NULL, &err) == -1);
	snprintf(expected, sizeof(expected), "cannot run '%s --version': exited with status 3",
		 fake != NULL ? fake : "");
	CHECK_STR(err.message, expected);
	check_released(&environment);
}

static void collect_should_fail_when_valgrind_is_killed(void)
{
	const char *fake = write_fake_valgrind("valgrind killed", "kill -9 $$");
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(fake != NULL);
	CHECK(environment_collect(&environment, fake, NULL, NULL, &err) == -1);
	CHECK_CONTAINS(err.message, "--version': killed by signal 9");
	check_released(&environment);
}

static void collect_should_fail_when_valgrind_prints_no_version(void)
{
	const char *fake = write_fake_valgrind("valgrind silent", "echo 'not valgrind'");
	struct environment environment = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char expected[sizeof(err.message)];

	CHECK(fake != NULL);
	CHECK(environment_collect(&environment, fake, NULL, NULL, &err) == -1);
	snprintf(expected, sizeof(expected),
		 "cannot run '%s --version': it printed 'not valgrind', not 'valgrind-<version>'",
		 fake != NULL ? fake : "");
	CHECK_STR(err.message, expected);
	check_released(&environment);
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
	CHECK_STR(json_string(block, "cpu"), "AMD EPYC");
	CHECK_STR(json_string(block, "architecture"), "x86_64");
	CHECK_STR(json_string(block, "cores"), "2 logical");
	CHECK_STR(json_string(block, "memory"), "23.5 GiB");
	CHECK_STR(json_string(block, "os"), "Linux 6.1.0-18-amd64 (Debian GNU/Linux 12 (bookworm))");
	CHECK_STR(json_string(block, "compiler"), "GNU 12.2.0");
	CHECK_STR(json_string(block, "valgrind"), "3.19.0");
	CHECK_STR(json_string(block, "profile"), "-O2 -g, never -march=native");
	CHECK_STR(json_string(block, "flags"), "-O2 -g");
	CHECK_STR(json_string(block, "costgate"), "0.2.0");
	CHECK_STR(json_string(block, "gate_cjson"), "1.7.15");
	CHECK_STR(json_string(block, "dispatch_pin"), GATE_DISPATCH_PIN);
	CHECK_STR(json_string(block, "malloc_pin"), GATE_MALLOC_PIN);
	cJSON_Delete(block);
	environment_release(&environment);
}

/* A fingerprint read back has no machine facts; its environment block says so instead of lying. */
static void to_json_should_write_unknown_for_absent_fields(void)
{
	struct environment environment = ENVIRONMENT_INIT;
	cJSON *block = environment_to_json(&environment);

	CHECK(block != NULL);
	CHECK_STR(json_string(block, "cpu"), "unknown");
	CHECK_STR(json_string(block, "profile"), "unknown, never -march=native");
	CHECK_STR(json_string(block, "flags"), "unknown");
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
	CHECK_STR(json_string(fingerprint, "valgrind"), "3.19.0");
	CHECK_STR(json_string(fingerprint, "dispatch_pin"), GATE_DISPATCH_PIN);
	CHECK_STR(json_string(fingerprint, "malloc_pin"), GATE_MALLOC_PIN);
	cJSON_Delete(fingerprint);
	environment_release(&environment);
}

/* Through text too, as a baseline file is written and read. */
static void fingerprint_should_equal_itself_after_a_round_trip_through_json(void)
{
	struct environment written;
	struct environment read = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char difference[512] = "untouched";
	cJSON *fingerprint;
	cJSON *parsed = NULL;
	char *text = NULL;

	fill_fingerprint(&written);
	fingerprint = environment_fingerprint_to_json(&written);
	text = fingerprint != NULL ? cJSON_PrintUnformatted(fingerprint) : NULL;
	parsed = text != NULL ? cJSON_Parse(text) : NULL;
	CHECK(parsed != NULL);
	CHECK(environment_fingerprint_from_json(&read, parsed, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(environment_fingerprint_equal(&written, &read, difference, sizeof(difference)) == 1);
	CHECK_STR(difference, "");
	CHECK_STR(read.valgrind, "3.19.0");
	CHECK_STR(read.dispatch_pin, GATE_DISPATCH_PIN);
	CHECK_STR(read.malloc_pin, GATE_MALLOC_PIN);
	CHECK(read.schema == GATE_SCHEMA_VERSION);
	CHECK(read.cpu == NULL && read.os == NULL && read.memory == NULL);
	environment_release(&read);
	cJSON_Delete(parsed);
	free(text);
	cJSON_Delete(fingerprint);
	environment_release(&written);
}

static void fingerprint_should_equal_a_freshly_collected_one_after_a_round_trip(void)
{
	struct environment collected = ENVIRONMENT_INIT;
	struct environment read = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *fingerprint;

	CHECK(environment_collect(&collected, "valgrind", "GNU 12.2.0", "-O2 -g", &err) == 0);
	fingerprint = environment_fingerprint_to_json(&collected);
	CHECK(environment_fingerprint_from_json(&read, fingerprint, &err) == 0);
	CHECK(environment_fingerprint_equal(&collected, &read, NULL, 0) == 1);
	environment_release(&read);
	cJSON_Delete(fingerprint);
	environment_release(&collected);
}

/* Changes one field of `there` (the baseline) and checks the whole difference message. */
static void check_field_difference(size_t offset, const char *there_value, const char *expected)
{
	struct environment here;
	struct environment there;
	char difference[512] = "untouched";

	fill_fingerprint(&here);
	fill_fingerprint(&there);
	replace((char **)(void *)((char *)&there + offset), there_value);
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 0);
	CHECK_STR(difference, expected);
	environment_release(&there);
	environment_release(&here);
}

static void fingerprint_should_differ_when_schema_differs(void)
{
	struct environment here;
	struct environment there;
	char difference[512] = "untouched";
	char expected[512];

	fill_fingerprint(&here);
	fill_fingerprint(&there);
	there.schema = GATE_SCHEMA_VERSION + 1;
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 0);
	snprintf(expected, sizeof(expected), "schema: %d here, %d in the baseline",
		 GATE_SCHEMA_VERSION, GATE_SCHEMA_VERSION + 1);
	CHECK_STR(difference, expected);
	environment_release(&there);
	environment_release(&here);
}

static void fingerprint_should_differ_when_valgrind_differs(void)
{
	check_field_difference(offsetof(struct environment, valgrind), "3.22.0",
			       "valgrind: 3.19.0 here, 3.22.0 in the baseline");
}

static void fingerprint_should_differ_when_compiler_differs(void)
{
	check_field_difference(offsetof(struct environment, compiler), "Clang 16.0.6",
			       "compiler: GNU 12.2.0 here, Clang 16.0.6 in the baseline");
}

static void fingerprint_should_differ_when_flags_differ(void)
{
	check_field_difference(offsetof(struct environment, flags), "-O3 -g",
			       "flags: -O2 -g here, -O3 -g in the baseline");
}

static void fingerprint_should_differ_when_glibc_differs(void)
{
	check_field_difference(offsetof(struct environment, glibc), "2.39",
			       "glibc: 2.36 here, 2.39 in the baseline");
}

static void fingerprint_should_differ_when_cjson_differs(void)
{
	check_field_difference(offsetof(struct environment, cjson), "1.7.17",
			       "cjson: 1.7.15 here, 1.7.17 in the baseline");
}

static void fingerprint_should_differ_when_dispatch_pin_differs(void)
{
	check_field_difference(offsetof(struct environment, dispatch_pin), "glibc.cpu.hwcaps=-AVX2",
			       "dispatch_pin: " GATE_DISPATCH_PIN
			       " here, glibc.cpu.hwcaps=-AVX2 in the baseline");
}

/* A baseline from before estimated cycles has no cache geometry and holds no cycles: it compares
 * on everything else; two geometries that differ never compare. */
static void fingerprint_should_compare_the_cache_geometry_only_when_both_have_it(void)
{
	struct environment here, there;
	char difference[256];

	fill_fingerprint(&here);
	fill_fingerprint(&there);
	free(there.cache);
	there.cache = NULL;
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 1);
	replace(&there.cache, "I1=32768,8,64 D1=32768,8,64 LL=4194304,16,64");
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 0);
	CHECK_STR(difference, "cache: " CACHE_GEOMETRY " here, I1=32768,8,64 D1=32768,8,64 "
		  "LL=4194304,16,64 in the baseline");
	environment_release(&here);
	environment_release(&there);
}

static void fingerprint_should_differ_when_malloc_pin_differs(void)
{
	check_field_difference(offsetof(struct environment, malloc_pin),
			       "glibc.malloc.trim_threshold=131072",
			       "malloc_pin: " GATE_MALLOC_PIN
			       " here, glibc.malloc.trim_threshold=131072 in the baseline");
}

static void fingerprint_should_differ_when_a_field_is_missing_on_one_side(void)
{
	check_field_difference(offsetof(struct environment, glibc), NULL,
			       "glibc: 2.36 here, (none) in the baseline");
}

/* Comparable across machines: the cpu, memory and the rest of the environment block do not count. */
static void fingerprint_should_ignore_the_machine_facts(void)
{
	struct environment here;
	struct environment there;
	char difference[512] = "untouched";

	fill_fingerprint(&here);
	fill_fingerprint(&there);
	replace(&there.cpu, "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz");
	replace(&there.architecture, NULL);
	replace(&there.cores, "4 logical");
	replace(&there.memory, "15.6 GiB");
	replace(&there.os, "Linux 6.5.0-1025-azure (Ubuntu 22.04.4 LTS)");
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 1);
	CHECK_STR(difference, "");
	environment_release(&there);
	environment_release(&here);
}

static void fingerprint_should_cut_a_long_difference_to_the_buffer(void)
{
	struct environment here;
	struct environment there;
	char difference[16];

	fill_fingerprint(&here);
	fill_fingerprint(&there);
	replace(&there.valgrind, "3.22.0");
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 0);
	CHECK_STR(difference, "valgrind: 3.19.");
	environment_release(&there);
	environment_release(&here);
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
	struct environment here;
	struct environment there = ENVIRONMENT_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char difference[512] = "untouched";
	cJSON *fingerprint = fingerprint_json();

	fill_fingerprint(&here);
	cJSON_DeleteItemFromObjectCaseSensitive(fingerprint, "malloc_pin");
	CHECK(environment_fingerprint_from_json(&there, fingerprint, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(there.malloc_pin == NULL);
	CHECK(environment_fingerprint_equal(&here, &there, difference, sizeof(difference)) == 0);
	CHECK_STR(difference, "malloc_pin: " GATE_MALLOC_PIN " here, (none) in the baseline");
	environment_release(&there);
	environment_release(&here);
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
	make_fake_directory();
	RUN(collect_should_fill_every_field_on_this_machine);
	RUN(collect_should_take_glibc_cjson_pin_and_schema_from_the_build);
	RUN(collect_should_report_the_machine_as_the_system_does);
	RUN(collect_should_write_memory_in_gib_with_one_decimal);
	RUN(collect_should_say_unknown_when_compiler_and_flags_are_absent);
	RUN(collect_should_fail_naming_the_path_when_valgrind_does_not_exist);
	RUN(collect_should_strip_the_prefix_from_what_valgrind_prints);
	RUN(collect_should_ask_valgrind_with_an_argv_and_a_minimal_environment);
	RUN(collect_should_fail_when_valgrind_exits_non_zero);
	RUN(collect_should_fail_when_valgrind_is_killed);
	RUN(collect_should_fail_when_valgrind_prints_no_version);
	RUN(to_json_should_write_the_environment_block_in_order);
	RUN(to_json_should_write_unknown_for_absent_fields);
	RUN(fingerprint_to_json_should_write_schema_as_a_number_and_keys_in_order);
	RUN(fingerprint_should_equal_itself_after_a_round_trip_through_json);
	RUN(fingerprint_should_equal_a_freshly_collected_one_after_a_round_trip);
	RUN(fingerprint_should_differ_when_schema_differs);
	RUN(fingerprint_should_differ_when_valgrind_differs);
	RUN(fingerprint_should_differ_when_compiler_differs);
	RUN(fingerprint_should_differ_when_flags_differ);
	RUN(fingerprint_should_differ_when_glibc_differs);
	RUN(fingerprint_should_differ_when_cjson_differs);
	RUN(fingerprint_should_differ_when_dispatch_pin_differs);
	RUN(fingerprint_should_compare_the_cache_geometry_only_when_both_have_it);
	RUN(fingerprint_should_differ_when_malloc_pin_differs);
	RUN(from_json_should_read_a_fingerprint_without_the_malloc_pin_as_not_comparable);
	RUN(fingerprint_should_differ_when_a_field_is_missing_on_one_side);
	RUN(fingerprint_should_ignore_the_machine_facts);
	RUN(fingerprint_should_cut_a_long_difference_to_the_buffer);
	RUN(from_json_should_reject_each_missing_key_naming_it);
	RUN(from_json_should_reject_each_non_string_key_naming_it);
	RUN(from_json_should_reject_a_schema_that_is_not_a_positive_integer);
	RUN(from_json_should_release_what_it_read_before_a_failure);
	RUN(from_json_should_reject_what_is_not_an_object);
	RUN(release_should_accept_null_and_leave_the_environment_empty);
	remove_fake_directory();
	return CHECK_EXIT();
}
