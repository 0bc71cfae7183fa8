/* Test-only: the same warm-up with a declared linearity limit of 25 %: a warning at N = 100. */
#include "warm_up.h"

const struct costgate_scenario costgate_scenario = {
	.name = "warms_up_declared",
	.title = "test only: the first messages cost three times the rest, 25 % declared",
	.gated = true,
	.linearity_percent = 25,
	.body = warm_up_body,
	.handle = warm_up_handle,
};
