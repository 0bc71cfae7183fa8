/* gate: parse the options, then run the named steps of a session: prepare, load the baseline,
 * measure, decide, report. `gate merge`, `gate time`, `gate profile` and `gate report` are
 * subcommands of their own (cmd_*.c). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd_export.h"
#include "cmd_history.h"
#include "cmd_merge.h"
#include "cmd_profile.h"
#include "cmd_report.h"
#include "cmd_time.h"
#include "debugview.h"
#include "exit_codes.h"
#include "options.h"
#include "runner.h"
#include "session.h"
#include "worktree.h"

#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

static int run(const struct gate_options *options, const char *program)
{
	struct session session = { .options = options, .program = program };
	struct measure_options measure_options;
	int code = session_check_outputs(options);

	if (code == 0)
		code = session_prepare(&session);

	if (code == 0)
		code = session_load_acceptance(&session);
	if (code == 0)
		code = session_load_baseline(&session);
	if (code == 0)
		code = session_measure(&session, &measure_options);
	if (code == 0)
		code = session_make_comparable(&session, &measure_options);
	if (code == 0)
		code = session_decide_and_report(&session);
	session_release(&session);
	return code;
}

/* Ctrl-C or a CI cancel: no valgrind run and no temporary worktree outlives gate. */
static void on_termination(int signal_number)
{
	runner_kill_all();
	worktree_abandon();
	debugview_abandon();
	signal(signal_number, SIG_DFL);
	raise(signal_number);
}

static void handle_termination(void)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction action;
	size_t i;

	memset(&action, 0, sizeof(action));
	action.sa_handler = on_termination;
	sigemptyset(&action.sa_mask);
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaction(signals[i], &action, NULL);
}

int main(int argc, char **argv)
{
	struct gate_options options;
	struct gate_error err = GATE_ERROR_INIT;
	int code;

	handle_termination();
	if (argc > 1 && strcmp(argv[1], "merge") == 0)
		return cmd_merge(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "time") == 0)
		return cmd_time(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "profile") == 0)
		return cmd_profile(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "history") == 0)
		return cmd_history(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "export") == 0)
		return cmd_export(argc - 1, argv + 1);
	if (options_parse(&options, argc, argv, &err) != 0) {
		options_release(&options);
		return session_fail(GATE_EXIT_USAGE, &err);
	}
	if (options.help || options.version) {
		if (options.help)
			options_usage(stdout);
		else
			printf("gate %s\n", GATE_VERSION);
		options_release(&options);
		return 0;
	}
	code = run(&options, argv[0]);
	options_release(&options);
	return code;
}
