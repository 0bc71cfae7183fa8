/* `gate merge FILE...`: combines the results of `gate --shard K/M` runs into the verdict, exit
 * code and reports a single run would give. */
#ifndef GATE_CMD_MERGE_H
#define GATE_CMD_MERGE_H

#include "command.h"

/* Exit codes as gate's (gate --help). */
extern const struct command merge_command;

#endif
