/* `gate profile SCENARIO`: a CPU profile of one scenario's drain with gperftools' profiler, on
 * its native variant, written to a file, with the top functions printed by google-pprof --text.
 * Informational, like every wall-clock figure. */
#ifndef GATE_CMD_PROFILE_H
#define GATE_CMD_PROFILE_H

#include "command.h"

/* Exit codes: 0, 2 (usage, unknown scenario), 3 (the run or google-pprof failed, or
 * google-pprof is missing). */
extern const struct command profile_command;

#endif
