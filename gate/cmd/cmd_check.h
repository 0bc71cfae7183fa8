/* `gate check`, which `gate` alone runs: every scenario measured under valgrind and decided against
 * the baseline (docs/design.md). Its steps are session*.c, its decisions core/policy.c; the table
 * (commands.c) makes these its command, with gate's --help. Exit codes: docs/design.md. */
#ifndef GATE_CMD_CHECK_H
#define GATE_CMD_CHECK_H

#include "command.h"
#include "options.h"

void check_start(void *options, struct common_targets *common);
int check_finish(void *options, char **operands, size_t operand_count, struct gate_error *err);
int check_run(void *options, struct gate_error *err);
void check_release(void *options);

#endif
