/* Unit tests of the packages module on real files: this test's own executable, an executable of
 * the build that loads a shared library of the build (through RUNPATH), and files that are not
 * ELF executables. */
#define _GNU_SOURCE
#include "check.h"
#include "packages.h"

#include <cjson/cJSON.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool have_dpkg(void)
{
	return access("/usr/bin/dpkg-query", X_OK) == 0;
}

/* What packages_describe says of `path` (owned), which it must describe. */
static char *described(struct packages_cache *cache, const char *path)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *text = NULL;

	CHECK(packages_describe(cache, path, &text, &err) == 0);
	CHECK_STR(err.message, "");
	return text;
}

/* What packages_libc says of the C library (owned). */
static char *libc_described(struct packages_cache *cache)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *text = NULL;

	CHECK(packages_libc(cache, &text, &err) == 0);
	CHECK_STR(err.message, "");
	return text;
}

static void describe_should_name_the_system_packages_this_executable_loads(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	char *text;

	CHECK(cJSON_Version() != NULL); /* so the link keeps libcjson among what this test loads */
	text = described(&cache, "/proc/self/exe");
	if (have_dpkg()) {
		/* This test loads cJSON (below); it and the C library come from packages. */
		CHECK_CONTAINS(text, "libc6 ");
		CHECK_CONTAINS(text, "libcjson1 ");
		CHECK_CONTAINS(text, "libc6 2");
	} else {
		CHECK_CONTAINS(text, "libc.so.6");
	}
	free(text);
	packages_cache_release(&cache);
}

/* The project's own library is the code under test, not the toolchain: only what it loads from
 * the system is named, and the answer is the same as for the C library alone. */
static void describe_should_leave_out_the_projects_own_libraries(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	char *user = described(&cache, PACKAGES_FIXTURE_USER), *libc = libc_described(&cache);

	CHECK(user != NULL && strstr(user, "packages_fixture") == NULL);
	if (have_dpkg())
		CHECK_STR(user, libc);
	free(user);
	free(libc);
	packages_cache_release(&cache);
}

/* Many scenarios load the same libraries: each is looked up once. */
static void describe_should_ask_once_per_library(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	char *first = described(&cache, "/proc/self/exe"), *second;
	size_t looked_up = cache.count;

	CHECK(looked_up >= 2);
	second = described(&cache, "/proc/self/exe");
	CHECK_U64(cache.count, looked_up);
	CHECK_STR(second, first);
	free(first);
	free(second);
	packages_cache_release(&cache);
	CHECK(cache.count == 0 && cache.paths == NULL);
}

/* packages_describe refuses `path` with `message`, giving no text. */
static void check_refused(const char *path, const char *message)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *text = (char *)"untouched";

	CHECK(packages_describe(&cache, path, &text, &err) == -1);
	CHECK(text == NULL);
	CHECK_STR(err.message, message);
	packages_cache_release(&cache);
}

static void describe_should_refuse_a_file_that_is_not_an_elf_executable(void)
{
	char path[] = "/tmp/costgate-packages-XXXXXX", expected[256];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, "#!/bin/sh\necho not a program\n", 29) == 29);
	close(fd);
	snprintf(expected, sizeof(expected), "'%s' is not an ELF file", path);
	check_refused(path, expected);
	unlink(path);
}

static void describe_should_name_a_missing_executable(void)
{
	check_refused("/nonexistent/costgate/scenario",
		      "cannot read '/nonexistent/costgate/scenario': No such file or directory");
}

/* One batch for a whole suite: after a prefetch, describing finds every library cached, and the
 * text is what a describe without the prefetch gives. */
static void prefetch_should_cache_every_library_and_the_c_library(void)
{
	struct packages_cache cold = PACKAGES_CACHE_INIT, warm = PACKAGES_CACHE_INIT;
	char *executables[] = { (char *)"/proc/self/exe", (char *)PACKAGES_FIXTURE_USER };
	char *alone = described(&cold, "/proc/self/exe"), *after, *libc;
	size_t cached;

	packages_prefetch(&warm, executables, 2);
	cached = warm.count;
	/* libc, libcjson and the fixture's own library at least. */
	CHECK(cached >= 3);
	after = described(&warm, "/proc/self/exe");
	libc = libc_described(&warm);
	CHECK_U64(warm.count, cached);
	CHECK_STR(after, alone);
	free(alone);
	free(after);
	free(libc);
	packages_cache_release(&cold);
	packages_cache_release(&warm);
}

static bool is_hex(const char *text)
{
	return text[0] != '\0' && strspn(text, "0123456789abcdef") == strlen(text);
}

/* What a process maps: the executable first, its libraries and its loader, each once, with the
 * build id the linker gave it (Debian builds every package with one). */
static void objects_should_list_the_executable_its_libraries_and_its_loader(void)
{
	struct packages_object *objects = NULL;
	struct gate_error err = GATE_ERROR_INIT;
	size_t count = 0, i;
	char *self = realpath("/proc/self/exe", NULL);
	bool libc = false, cjson = false, loader = false;

	CHECK(packages_objects("/proc/self/exe", &objects, &count, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(count >= 4);
	CHECK(count > 0 && self != NULL && strcmp(objects[0].path, self) == 0);
	for (i = 0; i < count; i++) {
		loader = loader || strstr(objects[i].path, "ld-linux") != NULL;
		libc = libc || strstr(objects[i].path, "/libc.so.6") != NULL;
		cjson = cjson || strstr(objects[i].path, "/libcjson.so") != NULL;
		if (strstr(objects[i].path, "/libc.so.6") != NULL) {
			CHECK(is_hex(objects[i].build_id));
			CHECK_U64(strlen(objects[i].build_id), 40);
		}
	}
	/* The loader is listed once: last, or where a library named it (libasan does). */
	CHECK(libc && cjson && loader);
	packages_objects_release(objects, count);
	free(self);
	CHECK(packages_objects("/nonexistent/costgate/scenario", &objects, &count, &err) == -1);
	CHECK(objects == NULL && count == 0);
}

/* The first line dpkg-query prints for COMMAND, or "" (no package owns the file, no dpkg). */
static void dpkg_line(const char *command, char *line, size_t size)
{
	FILE *output = popen(command, "r");

	line[0] = '\0';
	if (output != NULL && fgets(line, (int)size, output) != NULL)
		line[strcspn(line, "\n")] = '\0';
	if (output != NULL)
		pclose(output);
}

static int compare_names(const void *left, const void *right)
{
	return strcmp(*(char *const *)left, *(char *const *)right);
}

/* Owners are read from dpkg's file lists, not asked of `dpkg-query -S`: the description must be
 * what dpkg-query itself says of every library this test maps (libc, its loader, cJSON, and
 * libasan and libubsan in the sanitized build). */
static void describe_should_name_the_owners_dpkg_query_names(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct packages_object *objects = NULL;
	char *text = NULL, *named[64], expected[4096] = "", command[PATH_MAX + 128], line[512];
	size_t count = 0, owned = 0, i;

	if (!have_dpkg())
		return;
	CHECK(packages_describe(&cache, "/proc/self/exe", &text, &err) == 0);
	CHECK(packages_objects("/proc/self/exe", &objects, &count, &err) == 0);
	for (i = 1; i < count && owned < 64; i++) {
		const char *path = objects[i].path;
		char *separator, *comma;

		/* dpkg lists a file under either side of a merged /usr. */
		snprintf(command, sizeof(command), "dpkg-query -S '%s' '%s%s' 2>/dev/null", path,
			 strncmp(path, "/usr/", 5) == 0 ? "" : "/usr",
			 strncmp(path, "/usr/", 5) == 0 ? path + 4 : path);
		dpkg_line(command, line, sizeof(line));
		if ((separator = strstr(line, ": /")) == NULL)
			continue;
		*separator = '\0';
		if ((comma = strchr(line, ',')) != NULL)
			*comma = '\0';
		snprintf(command, sizeof(command),
			 "dpkg-query -W -f='${Package} ${Version}\\n' '%s' 2>/dev/null", line);
		dpkg_line(command, line, sizeof(line));
		CHECK(line[0] != '\0');
		named[owned++] = strdup(line);
	}
	CHECK(owned >= 2); /* libc6 and libcjson1 at least */
	qsort(named, owned, sizeof(*named), compare_names);
	for (i = 0; i < owned; i++) {
		if (i == 0 || strcmp(named[i], named[i - 1]) != 0)
			snprintf(expected + strlen(expected), sizeof(expected) - strlen(expected), "%s%s",
				 expected[0] != '\0' ? ", " : "", named[i]);
	}
	CHECK_STR(text, expected);
	for (i = 0; i < owned; i++)
		free(named[i]);
	free(text);
	packages_objects_release(objects, count);
	packages_cache_release(&cache);
}

int main(void)
{
	return RUN_CASES(describe_should_name_the_system_packages_this_executable_loads,
			 describe_should_leave_out_the_projects_own_libraries,
			 describe_should_ask_once_per_library,
			 describe_should_refuse_a_file_that_is_not_an_elf_executable,
			 describe_should_name_a_missing_executable,
			 prefetch_should_cache_every_library_and_the_c_library,
			 objects_should_list_the_executable_its_libraries_and_its_loader,
			 describe_should_name_the_owners_dpkg_query_names);
}
