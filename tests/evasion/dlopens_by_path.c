/* Test-only evasion: loads_skip.h with the library dlopened by its absolute path (LOAD_BY_PATH_FILE,
 * from the build); the executable has no run path. */
#define LOAD_BY_PATH LOAD_BY_PATH_FILE
#define SCENARIO_NAME "dlopens_by_path"
#include "loads_skip.h"
