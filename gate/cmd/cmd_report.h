/* `gate report [results.json]`: the results page, one self-contained HTML file (page.h). */
#ifndef GATE_CMD_REPORT_H
#define GATE_CMD_REPORT_H

#include "optlayer.h"

/* argv[0] is "report". Returns the exit code: 0, or 2 (usage, unreadable or malformed results,
 * the page cannot be written). */
int cmd_report(int argc, char **argv);

/* Its options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec report_spec;

#endif
