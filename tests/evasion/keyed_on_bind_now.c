/* Test-only evasion: a library constructor that skips its work when LD_BIND_NOW is set, as it is
 * in every measured run's environment. */
#include "keyed_work.h"

__attribute__((constructor)) static void notice_environment(void)
{
	measured = getenv("LD_BIND_NOW") != NULL;
}

TEST_ONLY_SCENARIO("keyed_on_bind_now", "skips its work when LD_BIND_NOW is set",
		   .handle = keyed_handle);
