/* gate: the command its first word names (commands.c), else gate check with every word its
 * options; and whatever command runs, no valgrind run nor temporary worktree outlives a Ctrl-C. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "debugview.h"
#include "exit_codes.h"
#include "runner.h"
#include "worktree.h"

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
	const struct command *command = argc > 1 ? commands_find(argv[1]) : NULL;

	handle_termination();
	if (command != NULL)
		return command_main(command, argc - 1, argv + 1);
	if (argc == 4 && strcmp(argv[1], "--generate") == 0)
		return commands_generate(argv[2], argv[3]);
	if (argc > 1 && commands_nearest(argv[1]) != NULL) {
		fprintf(stderr, "gate: error: unknown command '%s': did you mean '%s'? (see gate "
			"--help)\n", argv[1], commands_nearest(argv[1]));
		return GATE_EXIT_USAGE;
	}
	/* gate alone is gate check, its options after it. */
	return command_main(&check_command, argc, argv);
}
