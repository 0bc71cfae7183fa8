/* `gate time`: every scenario that declares a raw counterpart, timed against that raw loop on
 * the native variants (no valgrind), as interleaved rounds; the `scenarios` section of
 * results.json. Informational: never gated. */
#ifndef GATE_CMD_TIME_H
#define GATE_CMD_TIME_H

#include "optlayer.h"

/* argv[0] is "time". Returns the exit code: 0, 2 (usage, no build, no pair), 3 (a run failed). */
int cmd_time(int argc, char **argv);

/* Its options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec time_spec;

#endif
