/* The machine and toolchain behind a measurement. Machine facts come from /proc, uname and
 * /etc/os-release and become "unknown" when unreadable, never a guess; valgrind's version is asked
 * with an argv in a minimal environment, and failing to get it is an error: no fingerprint without it. */
#define _GNU_SOURCE
#include "environment.h"

#include "cache_geometry.h"

#include "packages.h"
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <unistd.h>

#define ENVIRONMENT_UNKNOWN "unknown"
#define ENVIRONMENT_VERSION_PREFIX "valgrind-"
#define ENVIRONMENT_KIB_PER_GIB 1048576.0
#define ENVIRONMENT_NONE "(none)"        /* how a missing fingerprint field is shown */

/* The fingerprint's string fields, in the order they are written and compared (schema first). */
struct environment_field {
	const char *key;
	size_t offset;
	bool optional; /* absent from older documents: read as NULL */
	bool when_both; /* compared only when both fingerprints have it */
};

static const struct environment_field environment_fingerprint_fields[] = {
	{ "valgrind", offsetof(struct environment, valgrind), false, false },
	{ "compiler", offsetof(struct environment, compiler), false, false },
	{ "flags", offsetof(struct environment, flags), false, false },
	{ "glibc", offsetof(struct environment, glibc), false, false },
	{ "cjson", offsetof(struct environment, cjson), false, false },
	{ "dispatch_pin", offsetof(struct environment, dispatch_pin), false, false },
	{ "costgate", offsetof(struct environment, costgate), true, false },
	{ "malloc_pin", offsetof(struct environment, malloc_pin), true, false },
	{ "cache", offsetof(struct environment, cache), true, true },
	{ "method", offsetof(struct environment, method), true, false },
};

#define ENVIRONMENT_FIELD_COUNT \
	(sizeof(environment_fingerprint_fields) / sizeof(environment_fingerprint_fields[0]))

static const char *environment_field_value(const struct environment *environment,
					   const struct environment_field *field)
{
	return *(char *const *)(const void *)((const char *)environment + field->offset);
}

static char **environment_field_slot(struct environment *environment,
				     const struct environment_field *field)
{
	return (char **)(void *)((char *)environment + field->offset);
}

/* A copy of `text`, or of "unknown" when there is none. NULL only when out of memory. */
static char *environment_copy(const char *text)
{
	return strdup(text != NULL ? text : ENVIRONMENT_UNKNOWN);
}

__attribute__((format(printf, 1, 2)))
static char *environment_format(const char *format, ...)
{
	char *text = NULL;
	va_list args;
	int length;

	va_start(args, format);
	length = vasprintf(&text, format, args);
	va_end(args);
	return length < 0 ? NULL : text;
}

static char *environment_trim(char *text)
{
	size_t length;

	while (*text == ' ' || *text == '\t')
		text++;
	length = strlen(text);
	while (length > 0 && (text[length - 1] == ' ' || text[length - 1] == '\t' ||
			      text[length - 1] == '\n' || text[length - 1] == '\r'))
		text[--length] = '\0';
	return text;
}

/* The trimmed value of the first "key<separator>value" line of `path` whose trimmed key is `key`.
 * Returns 1 and sets *value (owned) when found, 0 when the file or key is not there, -1 when out
 * of memory. */
static int environment_read_key(const char *path, const char *key, char separator, char **value)
{
	char *line = NULL;
	size_t capacity = 0;
	FILE *file;
	int result = 0;

	*value = NULL;
	file = fopen(path, "r");
	if (file == NULL)
		return 0;
	while (getline(&line, &capacity, file) >= 0) {
		char *split = strchr(line, separator);

		if (split == NULL)
			continue;
		*split = '\0';
		if (strcmp(environment_trim(line), key) != 0)
			continue;
		*value = strdup(environment_trim(split + 1));
		result = *value != NULL ? 1 : -1;
		break;
	}
	free(line);
	fclose(file);
	return result;
}

static char *environment_cpu(void)
{
	char *model = NULL;
	char *cpu;

	if (environment_read_key("/proc/cpuinfo", "model name", ':', &model) < 0)
		return NULL;
	cpu = environment_copy(model != NULL && model[0] != '\0' ? model : NULL);
	free(model);
	return cpu;
}

static char *environment_cores(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (online < 1)
		return environment_copy(NULL);
	return environment_format("%ld logical", online);
}

/* MemTotal is "24683548 kB"; anything else is not guessed at. */
static char *environment_memory(void)
{
	unsigned long long kib;
	char *total = NULL;
	char *end = NULL;
	char *memory = NULL;

	if (environment_read_key("/proc/meminfo", "MemTotal", ':', &total) < 0)
		return NULL;
	if (total == NULL || total[0] < '0' || total[0] > '9')
		goto unknown;
	errno = 0;
	kib = strtoull(total, &end, 10);
	if (errno != 0 || end == total || strcmp(environment_trim(end), "kB") != 0 || kib == 0)
		goto unknown;
	memory = environment_format("%.1f GiB", (double)kib / ENVIRONMENT_KIB_PER_GIB);
	free(total);
	return memory;
unknown:
	free(total);
	return environment_copy(NULL);
}

/* os-release values may be quoted; the quotes are not part of the name. */
static void environment_unquote(char *value)
{
	size_t length = strlen(value);

	if (length >= 2 && (value[0] == '"' || value[0] == '\'') && value[length - 1] == value[0]) {
		memmove(value, value + 1, length - 2);
		value[length - 2] = '\0';
	}
}

static char *environment_os(const struct utsname *system, bool have_system)
{
	char *pretty = NULL;
	char *os;

	if (!have_system)
		return environment_copy(NULL);
	if (environment_read_key("/etc/os-release", "PRETTY_NAME", '=', &pretty) < 0)
		return NULL;
	if (pretty != NULL)
		environment_unquote(pretty);
	if (pretty != NULL && pretty[0] != '\0')
		os = environment_format("%s %s (%s)", system->sysname, system->release, pretty);
	else
		os = environment_format("%s %s", system->sysname, system->release);
	free(pretty);
	return os;
}

/* What `valgrind --version` printed, as "3.19.0": the first line without its prefix. */
static int environment_parse_version(const char *valgrind_path, char *output, char **version,
				     struct gate_error *err)
{
	size_t prefix_length = strlen(ENVIRONMENT_VERSION_PREFIX);
	char *newline = strchr(output, '\n');
	const char *number = output + prefix_length;

	if (newline != NULL)
		*newline = '\0';
	if (strncmp(output, ENVIRONMENT_VERSION_PREFIX, prefix_length) != 0 || number[0] == '\0')
		return gate_error_set(err, "cannot run '%s --version': it printed '%s', not '%s<version>'",
				      valgrind_path, output, ENVIRONMENT_VERSION_PREFIX);
	*version = strdup(number);
	if (*version == NULL)
		return gate_error_set(err, "cannot run '%s --version': out of memory", valgrind_path);
	return 0;
}

/* Runs `valgrind_path --version` (searched in PATH when it holds no slash, as a shell would)
 * through the runner, with stdin and stderr on /dev/null and only PATH and LC_ALL in its
 * environment. */
static int environment_valgrind_version(const char *valgrind_path, char **version,
					struct gate_error *err)
{
	static char version_flag[] = "--version";
	static char minimal_path[] = "PATH=/usr/bin:/bin";
	static char minimal_locale[] = "LC_ALL=C";
	char *envp[] = { minimal_path, minimal_locale, NULL };
	char *program, *output = NULL;
	int result;

	if (valgrind_path == NULL || valgrind_path[0] == '\0')
		return gate_error_set(err, "cannot run valgrind: no valgrind path given");
	program = strchr(valgrind_path, '/') != NULL ? strdup(valgrind_path)
						     : runner_find_program(valgrind_path,
									   getenv("PATH"));
	if (program == NULL || access(program, X_OK) != 0) {
		int saved = program == NULL ? ENOENT : errno;

		free(program);
		return gate_error_set(err, "cannot run '%s --version': %s", valgrind_path,
				      strerror(saved));
	}
	{
		char *argv[] = { program, version_flag, NULL };

		result = runner_capture(argv, NULL, envp, 60, &output, err);
	}
	if (result != 0)
		gate_error_prefix(err, "cannot run '%s --version'", valgrind_path);
	else
		result = environment_parse_version(valgrind_path, output, version, err);
	free(output);
	free(program);
	return result;
}

/* The C library by its installed package; its version number alone where there is no dpkg. */
static char *environment_glibc(void)
{
	struct gate_error ignored = GATE_ERROR_INIT;
	char *package = NULL;
	char *glibc;

	if (packages_libc(packages_shared_cache(), &package, &ignored) != 0 || strncmp(package, "libc.so", 7) == 0)
		glibc = environment_copy(gnu_get_libc_version());
	else
		glibc = environment_format("%s (%s)", gnu_get_libc_version(), package);
	free(package);
	return glibc;
}

/* Every field but valgrind's version, which may fail for a reason worth its own message. */
static bool environment_collect_facts(struct environment *collected, const char *compiler,
				      const char *flags)
{
	struct utsname system;
	bool have_system = uname(&system) == 0;

	collected->cpu = environment_cpu();
	collected->architecture = environment_copy(have_system ? system.machine : NULL);
	collected->cores = environment_cores();
	collected->memory = environment_memory();
	collected->os = environment_os(&system, have_system);
	collected->compiler = environment_copy(compiler);
	collected->flags = environment_copy(flags);
	collected->glibc = environment_glibc();
	collected->cjson = environment_copy(cJSON_Version());
	collected->dispatch_pin = environment_copy(GATE_DISPATCH_PIN);
	collected->malloc_pin = environment_copy(GATE_MALLOC_PIN);
	collected->cache = environment_copy(CACHE_GEOMETRY);
	collected->method = environment_copy(GATE_METHOD);
	collected->schema = GATE_SCHEMA_VERSION;
	return collected->cpu != NULL && collected->architecture != NULL &&
	       collected->cores != NULL && collected->memory != NULL && collected->os != NULL &&
	       collected->compiler != NULL && collected->flags != NULL && collected->glibc != NULL &&
	       collected->cjson != NULL && collected->dispatch_pin != NULL &&
	       collected->malloc_pin != NULL && collected->cache != NULL &&
	       collected->method != NULL;
}

/* `environment` need not be initialised; on error it is left as ENVIRONMENT_INIT. */
int environment_collect(struct environment *environment, const char *valgrind_path,
			const char *compiler, const char *flags, struct gate_error *err)
{
	struct environment collected = ENVIRONMENT_INIT;
	int result = -1;

	*environment = (struct environment)ENVIRONMENT_INIT;
	if (!environment_collect_facts(&collected, compiler, flags)) {
		gate_error_set(err, "cannot collect the environment: out of memory");
		goto out;
	}
	if (environment_valgrind_version(valgrind_path, &collected.valgrind, err) != 0)
		goto out;
	*environment = collected;
	collected = (struct environment)ENVIRONMENT_INIT;
	result = 0;
out:
	environment_release(&collected);
	return result;
}

/* Absent fields are written as "unknown", as the machine facts are. */
static bool environment_add_string(cJSON *object, const char *key, const char *value)
{
	return cJSON_AddStringToObject(object, key,
				       value != NULL ? value : ENVIRONMENT_UNKNOWN) != NULL;
}

cJSON *environment_to_json(const struct environment *environment)
{
	cJSON *block = cJSON_CreateObject();
	char *profile;
	bool complete;

	if (block == NULL)
		return NULL;
	profile = environment_format("%s, never -march=native",
				     environment->flags != NULL ? environment->flags
								: ENVIRONMENT_UNKNOWN);
	complete = profile != NULL && environment_add_string(block, "cpu", environment->cpu) &&
		   environment_add_string(block, "architecture", environment->architecture) &&
		   environment_add_string(block, "cores", environment->cores) &&
		   environment_add_string(block, "memory", environment->memory) &&
		   environment_add_string(block, "os", environment->os) &&
		   environment_add_string(block, "compiler", environment->compiler) &&
		   environment_add_string(block, "valgrind", environment->valgrind) &&
		   environment_add_string(block, "profile", profile) &&
		   environment_add_string(block, "flags", environment->flags) &&
		   environment_add_string(block, "glibc", environment->glibc) &&
		   environment_add_string(block, "costgate", environment->costgate) &&
		   environment_add_string(block, "gate_cjson", environment->cjson) &&
		   environment_add_string(block, "dispatch_pin", environment->dispatch_pin) &&
		   environment_add_string(block, "malloc_pin", environment->malloc_pin) &&
		   environment_add_string(block, "cache", environment->cache) &&
		   (environment->debug_info == NULL ||
		    environment_add_string(block, "debug_info", environment->debug_info));
	free(profile);
	if (!complete) {
		cJSON_Delete(block);
		return NULL;
	}
	return block;
}

cJSON *environment_fingerprint_to_json(const struct environment *environment)
{
	cJSON *fingerprint = cJSON_CreateObject();
	size_t i;

	if (fingerprint == NULL)
		return NULL;
	if (cJSON_AddNumberToObject(fingerprint, "schema", environment->schema) == NULL)
		goto fail;
	for (i = 0; i < ENVIRONMENT_FIELD_COUNT; i++) {
		const struct environment_field *field = &environment_fingerprint_fields[i];

		const char *value = environment_field_value(environment, field);

		if (value == NULL && field->optional)
			continue;
		if (!environment_add_string(fingerprint, field->key, value))
			goto fail;
	}
	return fingerprint;
fail:
	cJSON_Delete(fingerprint);
	return NULL;
}

/* A schema is a positive integer that an int holds; a double like 1.5 or 1e300 is not one. */
static bool environment_read_schema(const cJSON *item, int *schema)
{
	double number;

	if (!cJSON_IsNumber(item))
		return false;
	number = item->valuedouble;
	if (!(number >= 1.0 && number <= (double)INT_MAX)) /* written so NaN fails too */
		return false;
	*schema = (int)number;
	return (double)*schema == number;
}

/* `environment` need not be initialised; the machine facts stay NULL, and on error every field
 * is released and left as ENVIRONMENT_INIT. */
int environment_fingerprint_from_json(struct environment *environment, const cJSON *fingerprint,
				      struct gate_error *err)
{
	struct environment parsed = ENVIRONMENT_INIT;
	int result = -1;
	size_t i;

	*environment = (struct environment)ENVIRONMENT_INIT;
	if (!cJSON_IsObject(fingerprint))
		return gate_error_set(err, "fingerprint: not a JSON object");
	if (!environment_read_schema(cJSON_GetObjectItemCaseSensitive(fingerprint, "schema"),
				     &parsed.schema)) {
		gate_error_set(err, "fingerprint: missing or non-positive-integer key 'schema'");
		goto out;
	}
	for (i = 0; i < ENVIRONMENT_FIELD_COUNT; i++) {
		const struct environment_field *field = &environment_fingerprint_fields[i];
		const cJSON *item = cJSON_GetObjectItemCaseSensitive(fingerprint, field->key);
		char **slot = environment_field_slot(&parsed, field);

		if (item == NULL && field->optional)
			continue;
		if (!cJSON_IsString(item) || item->valuestring == NULL) {
			gate_error_set(err, "fingerprint: missing or non-string key '%s'", field->key);
			goto out;
		}
		*slot = strdup(item->valuestring);
		if (*slot == NULL) {
			gate_error_set(err, "fingerprint: out of memory");
			goto out;
		}
	}
	*environment = parsed;
	parsed = (struct environment)ENVIRONMENT_INIT;
	result = 0;
out:
	environment_release(&parsed);
	return result;
}

static bool environment_same_text(const char *here, const char *there)
{
	if (here == NULL || there == NULL)
		return here == there;
	return strcmp(here, there) == 0;
}

int environment_fingerprint_equal(const struct environment *here, const struct environment *there,
				  char *difference, size_t difference_size)
{
	bool have_difference = difference != NULL && difference_size > 0;
	size_t i;

	if (have_difference)
		difference[0] = '\0';
	if (here->schema != there->schema) {
		if (have_difference)
			snprintf(difference, difference_size, "schema: %d here, %d in the baseline",
				 here->schema, there->schema);
		return 0;
	}
	for (i = 0; i < ENVIRONMENT_FIELD_COUNT; i++) {
		const struct environment_field *field = &environment_fingerprint_fields[i];
		const char *here_value = environment_field_value(here, field);
		const char *there_value = environment_field_value(there, field);

		if (environment_same_text(here_value, there_value) ||
		    (field->when_both && (here_value == NULL || there_value == NULL)))
			continue;
		if (have_difference)
			snprintf(difference, difference_size, "%s: %s here, %s in the baseline",
				 field->key, here_value != NULL ? here_value : ENVIRONMENT_NONE,
				 there_value != NULL ? there_value : ENVIRONMENT_NONE);
		return 0;
	}
	return 1;
}

void environment_release(struct environment *environment)
{
	if (environment == NULL)
		return;
	free(environment->cpu);
	free(environment->architecture);
	free(environment->cores);
	free(environment->memory);
	free(environment->os);
	free(environment->compiler);
	free(environment->flags);
	free(environment->valgrind);
	free(environment->glibc);
	free(environment->cjson);
	free(environment->costgate);
	free(environment->dispatch_pin);
	free(environment->malloc_pin);
	free(environment->cache);
	free(environment->method);
	free(environment->debug_info);
	*environment = (struct environment)ENVIRONMENT_INIT;
}
