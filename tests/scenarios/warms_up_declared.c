/* Test-only: the same warm-up with a declared linearity limit of 25 %: a warning at N = 100; and
 * the other declared settings a scenario may print (an allocator limit, system call floors). */
#include "warm_up.h"

TEST_ONLY_SCENARIO("warms_up_declared",
		   "the first messages cost three times the rest, 25 % declared",
		   .linearity_percent = 25, .allocator_limit_percent = 30,
		   .steady_syscalls = 0.5, .cold_syscalls = 3, .handle = warm_up_handle);
