/* What gate's subcommands share (command.h). */
#define _GNU_SOURCE
#include "command.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "fs.h"

/* Where the shared options land when the command does not say: the struct command_shared its
 * options begin with. */
static void share(struct command_shared *shared, struct common_targets *common)
{
	*shared = (struct command_shared){ "build", 600, 1 };
	common->build_dir = &shared->build_dir;
	common->timeout_seconds = &shared->timeout_seconds;
	common->verbosity = &shared->verbosity;
}

struct command_spec command_spec_of(const struct command *command, char **about)
{
	struct command_spec spec = *command->spec;

	*about = command->about != NULL ? command->about() : NULL;
	if (*about != NULL)
		spec.about = *about;
	return spec;
}

void command_say(void *context, const char *text)
{
	(void)context;
	fprintf(stderr, "%s\n", text);
}

static void print_help(const struct command *command)
{
	char *about = NULL;
	struct command_spec spec = command_spec_of(command, &about);

	if (command->usage != NULL)
		command->usage(stdout);
	else
		opt_usage(stdout, &spec);
	free(about);
}

int command_main(const struct command *command, int argc, char **argv)
{
	struct gate_error err = GATE_ERROR_INIT;
	struct common_targets common = { 0 };
	void *options = calloc(1, command->size);
	struct opt_context context = { options, &common };
	char **operands = NULL;
	size_t operand_count = 0;
	bool help = false;
	int code = GATE_EXIT_USAGE;

	if (options == NULL) {
		fprintf(stderr, "gate: error: out of memory\n");
		return code;
	}
	if (command->defaults != NULL)
		memcpy(options, command->defaults, command->size);
	if (command->start != NULL)
		command->start(options, &common);
	else
		share(options, &common);
	common.help = &help;
	if (opt_parse(command->spec, &context, argc, argv, &operands, &operand_count, &err) != 0 ||
	    (!help && command->finish != NULL &&
	     command->finish(options, operands, operand_count, &err) != 0))
		code = GATE_EXIT_USAGE;
	else if (help)
		code = (print_help(command), 0);
	else
		code = command->run(options, &err);
	if (code != 0 && err.message[0] != '\0')
		fprintf(stderr, "gate: error: %s\n", err.message);
	if (command->release != NULL)
		command->release(options);
	opt_release(command->spec, options);
	free(operands);
	free(options);
	return code;
}

int command_results_read(struct command_results *results, const char *path,
			 struct gate_error *err)
{
	*results = (struct command_results){ NULL, { 0 } };
	if (results_document_read(path, false, &results->document, err) != 0)
		return -1;
	if (results_verdict_read(&results->verdict, results->document, path, err) == 0)
		return 0;
	command_results_release(results);
	return -1;
}

void command_results_release(struct command_results *results)
{
	results_verdict_release(&results->verdict);
	cJSON_Delete(results->document);
	*results = (struct command_results){ NULL, { 0 } };
}

int command_output_open(struct command_output *output, struct gate_error *err)
{
	*output = (struct command_output){ NULL, NULL, 0 };
	output->stream = open_memstream(&output->text, &output->length);
	return output->stream != NULL ? 0 : gate_error_oom(err);
}

int command_output_close(struct command_output *output, const char *path, int status,
			 struct gate_error *err)
{
	if (fclose(output->stream) != 0 && status == 0)
		status = gate_error_oom(err);
	if (status == 0 && path != NULL)
		status = fs_write_atomic(path, output->text, output->length, NULL, err);
	else if (status == 0 && (fwrite(output->text, 1, output->length, stdout) != output->length ||
				 fflush(stdout) != 0))
		status = gate_error_set(err, "cannot write to stdout");
	free(output->text);
	*output = (struct command_output){ NULL, NULL, 0 };
	return status;
}

static int compare_name(const void *name, const void *entry)
{
	return strcmp(name, ((const struct manifest_entry *)entry)->name);
}

const struct manifest_entry *command_find_scenario(const struct manifest *manifest,
						   const char *name)
{
	if (manifest->entry_count == 0)
		return NULL;
	return bsearch(name, manifest->entries, manifest->entry_count, sizeof(*manifest->entries),
		       compare_name);
}
