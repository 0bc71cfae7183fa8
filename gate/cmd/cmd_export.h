/* `gate export --format bmf|junit|csv [RESULTS]`: one run's results for other tools (export.h). */
#ifndef GATE_CMD_EXPORT_H
#define GATE_CMD_EXPORT_H

#include "optlayer.h"

/* argv[0] is "export". Returns the exit code: 0, or 2 (usage, unreadable or malformed results,
 * the output cannot be written). */
int cmd_export(int argc, char **argv);

/* Its options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec export_spec;

#endif
