/* Test-only: a declaration whose title holds every character JSON must escape, in a scenario that
 * links nothing but the harness. --describe must still print one valid JSON object that reads
 * back to the same text, and the executable must load nothing but the C library. */
#include <costgate/harness.h>

#include "test_only.h"

TEST_ONLY_SCENARIO("odd_title", "say \"hi\" \\ tab\there, bell\a, line\nbreak, caf\xc3\xa9",
		   .steady_allocations = 0.5, .cold_allocations = 3, .handle = ignore_message);
