/* The committed fixtures of a unit test, tests/fixtures/FIXTURES/: define FIXTURES, the directory
 * of the module's fixtures, before including this (FIXTURE_DIR comes from the build). Also the
 * table row of a fixture a reader refuses, and the check of gate's message about it. */
#ifndef COSTGATE_TEST_FIXTURE_H
#define COSTGATE_TEST_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "check.h"

#ifndef FIXTURES
#error "define FIXTURES, the directory of the test's fixtures, before including fixture.h"
#endif

/* The path of the fixture `name`, in a buffer that the next call reuses. */
static inline const char *fixture(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s/%s", FIXTURE_DIR, FIXTURES, name);
	return path;
}

/* A fixture that a reader refuses, as a row of a table (RUN_ROWS): a sentence that names the
 * case, the fixture, and what the message says after naming the file. */
struct refused_fixture {
	const char *name;
	const char *fixture, *problem;
};

/* Checks that `message` is gate's about the fixture `name`: "WHAT 'PATH': PROBLEM", as in
 * "cannot read manifest '.../no-path.txt': line 3: expected 'scenario NAME PATH'". */
#define CHECK_ABOUT_FIXTURE(message, what, name, problem)                                 \
	check_about_fixture(__FILE__, __LINE__, message, what, name, problem)

static inline void check_about_fixture(const char *file, int line, const char *message,
				       const char *what, const char *name, const char *problem)
{
	char expected[1024];

	snprintf(expected, sizeof(expected), "%s '%s': %s", what, fixture(name), problem);
	if (strcmp(message, expected) != 0)
		check_failed(file, line, "the message is \"%s\", expected \"%s\"", message, expected);
}

#endif
