/* `gate history`: the history of the branch's committed baseline, from git (history.h). */
#ifndef GATE_CMD_HISTORY_H
#define GATE_CMD_HISTORY_H

#include "optlayer.h"

/* argv[0] is "history". Returns the exit code: 0, 2 (usage, no scenario matches, an output
 * cannot be written) or 4 (no history). */
int cmd_history(int argc, char **argv);

/* Its options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec history_spec;

#endif
