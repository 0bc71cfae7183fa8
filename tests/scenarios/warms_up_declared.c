/* Test-only: the same warm-up with a declared linearity limit of 25 %: a warning at N = 100. */
#include "warm_up.h"

TEST_ONLY_SCENARIO("warms_up_declared",
		   "the first messages cost three times the rest, 25 % declared",
		   .linearity_percent = 25, .handle = warm_up_handle);
