/* Deprecated: the harness under its costgate 0.2 names, for code that still says
 * `#include "harness.h"`, `struct scenario`, `struct service` and `harness_main`. Kept for one
 * more minor release; new code includes <costgate/harness.h> and uses the costgate_ names.
 *
 * The old names are macros for the new ones, so both spellings are one type: a scenario written
 * against either links with the same harness. A side effect to know: every identifier `scenario`
 * or `service` in a file that includes this one is renamed (a local `scenario` then shadows the
 * global costgate_scenario under -Wshadow). */
#ifndef COSTGATE_HARNESS_COMPAT_H
#define COSTGATE_HARNESS_COMPAT_H

#include <costgate/harness.h>

#include "queue.h"

#define scenario costgate_scenario
#define service costgate_service
#define harness_main costgate_harness_main

#endif
