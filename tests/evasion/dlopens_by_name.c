/* Test-only evasion: loads_skip.h with the library dlopened by file name, found through the
 * executable's run path (the build gives it one without linking the library). */
#define LOAD_BY_NAME
#define SCENARIO_NAME "dlopens_by_name"
#include "loads_skip.h"
