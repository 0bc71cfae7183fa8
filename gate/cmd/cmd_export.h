/* `gate export --format bmf|junit|csv [RESULTS]`: one run's results for other tools (export.h). */
#ifndef GATE_CMD_EXPORT_H
#define GATE_CMD_EXPORT_H

#include "command.h"

/* Exit codes: 0, or 2 (usage, unreadable or malformed results, the output cannot be written). */
extern const struct command export_command;

#endif
