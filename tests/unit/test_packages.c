/* Unit tests of the packages module on real files: this test's own executable, an executable of
 * the build that loads a shared library of the build (through RUNPATH), and files that are not
 * ELF executables. */
#define _GNU_SOURCE
#include "check.h"
#include "packages.h"

#include <cjson/cJSON.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool have_dpkg(void)
{
	return access("/usr/bin/dpkg-query", X_OK) == 0;
}

static void describe_should_name_the_system_packages_this_executable_loads(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *text = NULL;

	CHECK(cJSON_Version() != NULL); /* so the link keeps libcjson among what this test loads */
	CHECK(packages_describe(&cache, "/proc/self/exe", &text, &err) == 0);
	CHECK_STR(err.message, "");
	if (have_dpkg()) {
		/* This test loads cJSON (below); it and the C library come from packages. */
		CHECK_CONTAINS(text, "libc6 ");
		CHECK_CONTAINS(text, "libcjson1 ");
		CHECK(text != NULL && strstr(text, "libc6 2") != NULL);
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
	struct gate_error err = GATE_ERROR_INIT;
	char *user = NULL, *libc = NULL;

	CHECK(packages_describe(&cache, PACKAGES_FIXTURE_USER, &user, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(packages_libc(&cache, &libc, &err) == 0);
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
	struct gate_error err = GATE_ERROR_INIT;
	char *first = NULL, *second = NULL;
	size_t looked_up;

	CHECK(packages_describe(&cache, "/proc/self/exe", &first, &err) == 0);
	looked_up = cache.count;
	CHECK(looked_up >= 2);
	CHECK(packages_describe(&cache, "/proc/self/exe", &second, &err) == 0);
	CHECK_U64(cache.count, looked_up);
	CHECK_STR(second, first);
	free(first);
	free(second);
	packages_cache_release(&cache);
	CHECK(cache.count == 0 && cache.paths == NULL);
}

static void describe_should_refuse_a_file_that_is_not_an_elf_executable(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char path[] = "/tmp/costgate-packages-XXXXXX", expected[256];
	char *text = (char *)"untouched";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, "#!/bin/sh\necho not a program\n", 29) == 29);
	close(fd);
	CHECK(packages_describe(&cache, path, &text, &err) == -1);
	CHECK(text == NULL);
	snprintf(expected, sizeof(expected), "cannot read '%s': not a 64-bit ELF file", path);
	CHECK_STR(err.message, expected);
	unlink(path);
	packages_cache_release(&cache);
}

static void describe_should_name_a_missing_executable(void)
{
	struct packages_cache cache = PACKAGES_CACHE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *text = NULL;

	CHECK(packages_describe(&cache, "/nonexistent/costgate/scenario", &text, &err) == -1);
	CHECK_STR(err.message, "cannot read '/nonexistent/costgate/scenario': No such file or directory");
	packages_cache_release(&cache);
}

int main(void)
{
	RUN(describe_should_name_the_system_packages_this_executable_loads);
	RUN(describe_should_leave_out_the_projects_own_libraries);
	RUN(describe_should_ask_once_per_library);
	RUN(describe_should_refuse_a_file_that_is_not_an_elf_executable);
	RUN(describe_should_name_a_missing_executable);
	return CHECK_EXIT();
}
