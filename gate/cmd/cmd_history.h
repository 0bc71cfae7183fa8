/* `gate history`: the history of the branch's committed baseline, from git (history.h). */
#ifndef GATE_CMD_HISTORY_H
#define GATE_CMD_HISTORY_H

#include "command.h"

/* Exit codes: 0, 2 (usage, no scenario matches, an output cannot be written) or 4 (no
 * history). */
extern const struct command history_command;

#endif
