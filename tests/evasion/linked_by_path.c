/* Test-only evasion: loads_skip.h with the library linked by its absolute path (a library
 * without a soname: DT_NEEDED is the path); the executable has no run path. */
#define SCENARIO_NAME "linked_by_path"
#include "loads_skip.h"
