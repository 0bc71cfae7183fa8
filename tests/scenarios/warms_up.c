/* Test-only: dearer first messages and the gate's own linearity limit (5 %): a measurement
 * failure at N = 100, a warning at N = 1000. */
#include "warm_up.h"

TEST_ONLY_SCENARIO("warms_up", "the first messages cost three times the rest",
		   .handle = warm_up_handle);
