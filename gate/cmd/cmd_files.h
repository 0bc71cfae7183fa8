/* `gate files [RESULTS]`: where each scenario's files of a run are (rawfiles.h). */
#ifndef GATE_CMD_FILES_H
#define GATE_CMD_FILES_H

#include "command.h"

/* Exit codes: 0 listed, 2 usage error, unreadable or malformed results, an unreadable raw
 * directory, or a scenario asked for that the results do not hold. */
extern const struct command files_command;

#endif
