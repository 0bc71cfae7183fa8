/* `gate profile SCENARIO`: a CPU profile of one scenario's drain with gperftools' profiler, on
 * its native variant, written to a file, with the top functions printed by google-pprof --text.
 * Informational, like every wall-clock figure. */
#ifndef GATE_CMD_PROFILE_H
#define GATE_CMD_PROFILE_H

#include "optlayer.h"

/* argv[0] is "profile". Returns the exit code: 0, 2 (usage, unknown scenario), 3 (the run or
 * google-pprof failed, or google-pprof is missing). */
int cmd_profile(int argc, char **argv);

/* Its options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec profile_spec;

#endif
