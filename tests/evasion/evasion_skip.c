/* Test-only: a shared library that tells its caller whether it runs under valgrind
 * (RUNNING_ON_VALGRIND, a client request), so the caller can skip work there. Loaded three ways
 * that the executable's DT_NEEDED-through-the-run-path does not show: dlopen by file name found
 * through the run path, dlopen by absolute path, and DT_NEEDED by absolute path (no soname). */
#include <valgrind/valgrind.h>

int evasion_skip(void);

int evasion_skip(void)
{
	return RUNNING_ON_VALGRIND != 0;
}
