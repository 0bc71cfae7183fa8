/* `gate report [results.json]`: the results page, one self-contained HTML file (page.h). */
#ifndef GATE_CMD_REPORT_H
#define GATE_CMD_REPORT_H

#include "command.h"

/* Exit codes: 0, or 2 (usage, unreadable or malformed results, the page cannot be written). */
extern const struct command report_command;

#endif
