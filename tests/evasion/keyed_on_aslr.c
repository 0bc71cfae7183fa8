/* Test-only evasion: a library constructor that skips its work when address randomisation is off,
 * as gate turns it off for every measured run (personality(ADDR_NO_RANDOMIZE)). */
#include <sys/personality.h>

#include "keyed_work.h"

__attribute__((constructor)) static void notice_randomisation(void)
{
	int persona = personality(0xffffffff);

	measured = persona != -1 && (persona & ADDR_NO_RANDOMIZE) != 0;
}

TEST_ONLY_SCENARIO("keyed_on_aslr", "skips its work when address randomisation is off",
		   .handle = keyed_handle);
