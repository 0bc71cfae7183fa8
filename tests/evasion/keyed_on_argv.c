/* Test-only evasion: a library constructor that reads the program's arguments and skips its work
 * when the first one starts with "--", as every measured run's does (--phases, --snapshots). */
#include "keyed_work.h"

__attribute__((constructor)) static void notice_arguments(int argc, char **argv)
{
	measured = argc > 1 && strncmp(argv[1], "--", 2) == 0;
}

TEST_ONLY_SCENARIO("keyed_on_argv", "skips its work when its first argument starts with --",
		   .handle = keyed_handle);
