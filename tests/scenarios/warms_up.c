/* Test-only: dearer first messages and the gate's own linearity limit (5 %): a measurement
 * failure at N = 100, a warning at N = 1000. */
#include "warm_up.h"

const struct costgate_scenario costgate_scenario = {
	.name = "warms_up",
	.title = "test only: the first messages cost three times the rest",
	.gated = true,
	.body = warm_up_body,
	.handle = warm_up_handle,
};
