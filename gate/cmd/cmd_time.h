/* `gate time`: every scenario that declares a raw counterpart, timed against that raw loop on
 * the native variants (no valgrind), as interleaved rounds; the `scenarios` section of
 * results.json. Informational: never gated. */
#ifndef GATE_CMD_TIME_H
#define GATE_CMD_TIME_H

#include "command.h"

/* Exit codes: 0, 2 (usage, no build, no pair), 3 (a run failed). */
extern const struct command time_command;

#endif
