/* gate check: gate's options (options.c) parsed by command_main like every command's, then the
 * session's steps: the outputs checked, prepared, run. */
#define _GNU_SOURCE
#include "cmd_check.h"

#include <stdio.h>

#include "options.h"
#include "session.h"

#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

void check_start(void *own, struct common_targets *common)
{
	options_start(own, common);
}

int check_finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	(void)operands;
	(void)operand_count; /* gate_spec takes none: opt_parse refused any */
	return options_finish(own, err);
}

int check_run(void *own, struct gate_error *err)
{
	const struct gate_options *options = own;
	struct session session = { .options = options };
	struct measure_options measure_options;
	int code;

	(void)err; /* each step says why it stopped */
	if (options->version) {
		printf("gate %s\n", GATE_VERSION);
		return 0;
	}
	code = session_check_outputs(options);
	if (code == 0)
		code = session_prepare(&session);
	if (code == 0)
		code = session_run(&session, &measure_options, true);
	session_release(&session);
	return code;
}

void check_release(void *own)
{
	options_release(own);
}
