/* A scratch directory for a unit test that writes files: made fresh under $TMPDIR (else /tmp),
 * named after the test, and removed with all it holds. Needs _GNU_SOURCE (asprintf). */
#ifndef COSTGATE_TEST_SCRATCH_H
#define COSTGATE_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

/* A new directory TMPDIR/costgate-test-NAME-XXXXXX (owned); aborts when it cannot be made. */
static inline char *scratch_make(const char *name)
{
	const char *temporary = getenv("TMPDIR");
	char *directory = NULL;

	if (asprintf(&directory, "%s/costgate-test-%s-XXXXXX",
		     temporary != NULL && temporary[0] != '\0' ? temporary : "/tmp", name) < 0 ||
	    mkdtemp(directory) == NULL) {
		fprintf(stderr, "cannot make a scratch directory for %s\n", name);
		abort();
	}
	return directory;
}

/* Removes `directory` with all it holds, and frees its name. */
static inline void scratch_remove(char *directory)
{
	char *command = NULL;

	if (asprintf(&command, "rm -rf '%s'", directory) < 0 || system(command) != 0)
		fprintf(stderr, "cannot remove %s\n", directory);
	free(command);
	free(directory);
}

#endif
