/* gate manifest. Writes the same lines costgate_add_scenarios() writes, so that gate reads a
 * Make or Meson build as it reads a CMake one. Deliberate: the flags are required, not guessed,
 * and recorded with every scenario (a changed flag is a different toolchain, never a regression
 * blamed on the code), and the compiler is named as CMake names it ("GNU 12.2.0"), from what it
 * predefines, so that the same compiler fingerprints alike whichever build system ran it. */
#define _GNU_SOURCE
#include "cmd_manifest.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argv_list.h"
#include "command.h"
#include "elf_object.h"
#include "exit_codes.h"
#include "fs.h"
#include "optlayer.h"
#include "runner.h"
#include "text.h"

#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

/* A global only the native harness defines (scenarios/alloc_counter.c). */
#define NATIVE_SYMBOL "costgate_alloc_counter_install"

/* The longest flags line and build line gate's manifest reader takes (manifest.c). */
#define FLAGS_MAX 1000
#define BUILD_MAX 16384

struct manifest_options {
	struct command_shared shared;
	const char *output_dir; /* where manifest.txt goes */
	const char *cc;         /* the compiler command; NULL: $CC, else cc */
	const char *cflags;     /* the compile flags; required */
	const char *ldflags;    /* the link flags */
	const char *build_command; /* how the scenarios are built; NULL: not recorded */
	bool native;            /* the EXEs are native builds (costgate-native): DIR is .../native */
	char **executables;     /* the operands (command_main's) */
	size_t count;
};

static const struct manifest_options manifest_defaults = { .ldflags = "" };

#define OWN(context) ((struct manifest_options *)(context)->own)

static int apply_output_dir(const struct opt_context *c, const char *value, struct gate_error *err)
{
	OWN(c)->output_dir = value;
	return value[0] ? 0 : gate_error_set(err, "--output-dir needs a directory");
}

static int apply_cc(const struct opt_context *c, const char *value, struct gate_error *err)
{
	OWN(c)->cc = value;
	return value[strspn(value, " ")] ? 0 : gate_error_set(err, "--cc needs a compiler");
}

static const struct opt opt_output_dir = {
	"output-dir", 'o', "DIR",
	"write DIR/manifest.txt (gate --build-dir B reads\n"
	"B/scenarios/manifest.txt)",
	OPT_CALLS(apply_output_dir) };
static const struct opt opt_cflags = {
	"cflags", 0, "TEXT",
	"the flags the scenarios and the library were compiled with\n"
	"(required; '' for none)", OPT_TEXT_FIELD(struct manifest_options, cflags) };
static const struct opt opt_ldflags = {
	"ldflags", 0, "TEXT", "the flags they were linked with (default none)", OPT_TEXT_FIELD(struct manifest_options, ldflags) };
static const struct opt opt_cc = {
	"cc", 0, "CC", "the compiler they were built with (default $CC, else cc)", OPT_CALLS(apply_cc) };

static const struct opt opt_build_command = {
	"build-command", 0, "CMD",
	"how the scenarios are built: a shell command that, run\n"
	"from the repository's top directory, builds them into\n"
	"\"$COSTGATE_BUILD_DIR\" (e.g. 'make BUILD=\"$COSTGATE_BUILD_DIR\"');\n"
	"gate builds the base's worktree with it", OPT_TEXT_FIELD(struct manifest_options, build_command) };

static const struct opt opt_native = {
	"native", 0, NULL,
	"the EXEs are the native builds (linked with pkg-config's\n"
	"costgate-native, gperftools), for the wall-clock check, gate\n"
	"time and gate profile; DIR is then BUILD/scenarios/native",
	OPT_FLAG_FIELD(struct manifest_options, native) };

static const struct opt *const manifest_opts[] = { &opt_output_dir, &opt_cflags, &opt_ldflags,
						   &opt_cc, &opt_build_command, &opt_native,
						   &opt_quiet, &opt_help, NULL };

static const struct opt_note manifest_notes[] = {
	{ &opt_quiet, "do not say where the manifest went" },
	{ NULL, NULL },
};

static const struct command_spec manifest_spec = {
	"gate manifest",
	"usage: gate manifest --output-dir DIR --cflags TEXT [options] EXE...",
	"Writes DIR/manifest.txt, the list of scenario executables gate measures, for a build\n"
	"without CMake (costgate_add_scenarios() writes it in a CMake build). Each EXE is a\n"
	"scenario linked with the harness (pkg-config --cflags --libs costgate), named by its\n"
	"file name, [a-z0-9_]{1,64}. The flags and the compiler are recorded with every\n"
	"scenario: a build whose flags differ from the baseline's is a different toolchain to\n"
	"gate, never a regression blamed on the code. Never -march=native. With --native, the\n"
	"same for the native builds of the scenarios (pkg-config --cflags --libs\n"
	"costgate-native), which gate runs without valgrind: the wall clock beside a\n"
	"regression, the second opinion, gate time and gate profile.\n",
	manifest_opts,
	"Exit codes: 0 written, 2 usage error, an EXE that is not an executable or not a\n"
	"scenario name (with --native: not a native build), flags refused, an unknown\n"
	"compiler, or the manifest cannot be written.\n",
	OPT_ANY_OPERANDS,
	NULL,
	NULL,
	manifest_notes,
};

/* The value of `name` in the compiler's predefined macros ("#define NAME VALUE" lines), or NULL. */
static const char *predefined(const char *macros, const char *name, char *value, size_t size)
{
	char prefix[64];
	const char *line = macros;

	snprintf(prefix, sizeof(prefix), "#define %s ", name);
	while (line != NULL && *line != '\0') {
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			line += strlen(prefix);
			snprintf(value, size, "%.*s", (int)strcspn(line, "\n"), line);
			return value;
		}
		line = strchr(line, '\n');
		line = line != NULL ? line + 1 : NULL;
	}
	return NULL;
}

/* "GNU 12.2.0" or "Clang 14.0.6", as CMake's CMAKE_C_COMPILER_ID and _VERSION say it. */
static int name_compiler(const char *macros, const char *cc, char **text, struct gate_error *err)
{
	static const char *const gnu[] = { "GNU", "__GNUC__", "__GNUC_MINOR__",
					   "__GNUC_PATCHLEVEL__" };
	static const char *const clang[] = { "Clang", "__clang_major__", "__clang_minor__",
					     "__clang_patchlevel__" };
	const char *const *which = predefined(macros, "__clang__", (char[8]){ 0 }, 8) ? clang : gnu;
	char major[16], minor[16], patch[16];

	if (!predefined(macros, which[1], major, sizeof(major)) ||
	    !predefined(macros, which[2], minor, sizeof(minor)) ||
	    !predefined(macros, which[3], patch, sizeof(patch)))
		return gate_error_set(err, "cannot tell which compiler '%s' is: neither GCC nor Clang "
				      "by its predefined macros", cc);
	if (asprintf(text, "%s %s.%s.%s", which[0], major, minor, patch) < 0) {
		*text = NULL;
		return gate_error_oom(err);
	}
	return 0;
}

/* Runs `CC -E -dM -x c /dev/null` (CC split at spaces, no shell) and names the compiler. */
static int identify_compiler(const char *cc, char **text, struct gate_error *err)
{
	char *words = strdup(cc), *macros = NULL, *program = NULL;
	struct argv_list argv = ARGV_LIST_INIT;
	char *word, *saved = NULL;
	int status = -1;

	if (words == NULL)
		return gate_error_oom(err);
	word = strtok_r(words, " ", &saved);
	program = word != NULL ? runner_find_program(word, getenv("PATH")) : NULL;
	if (program == NULL) {
		gate_error_set(err, "cannot run the compiler '%s': not found on PATH (see --cc)",
			       word != NULL ? word : cc);
		goto out;
	}
	argv_list_add(&argv, program);
	while ((word = strtok_r(NULL, " ", &saved)) != NULL)
		argv_list_add(&argv, word);
	argv_list_add_all(&argv, (const char *const[]){ "-E", "-dM", "-x", "c", "/dev/null", NULL });
	if (argv_list_vector(&argv) == NULL) {
		gate_error_oom(err);
		goto out;
	}
	if (runner_capture(argv_list_vector(&argv), NULL, environ, 60, &macros, err) != 0) {
		gate_error_prefix(err, "cannot run the compiler '%s'", cc);
		goto out;
	}
	status = name_compiler(macros, cc, text, err);
out:
	argv_list_release(&argv);
	free(macros);
	free(program);
	free(words);
	return status;
}

/* The flags as gate's reader takes them: one printable line each, and never tuned to this CPU. */
static int check_flags(const char *flags, const char *option, size_t max, struct gate_error *err)
{
	const char *problem = text_line_problem(flags, max);

	if (problem != NULL)
		return gate_error_set(err, "cannot record %s: it %s", option, problem);
	if (strstr(flags, "-march=native") != NULL || strstr(flags, "-mtune=native") != NULL)
		return gate_error_set(err, "cannot record %s '%s': scenarios must not be built with "
				      "-march=native (valgrind cannot run what a newer CPU advertises, "
				      "and counts would not travel)", option, flags);
	return 0;
}

static int find_native_symbol(const struct elf_symbol *symbol, void *context)
{
	if (strcmp(symbol->name, NATIVE_SYMBOL) != 0)
		return 0;
	*(bool *)context = true;
	return 1;
}

/* Whether `path` holds the native harness: its allocation counter, which only the native build
 * (COSTGATE_NATIVE, with gperftools) defines. */
static bool is_native_build(const char *path)
{
	struct gate_error err = GATE_ERROR_INIT;
	struct elf_object *object = NULL;
	bool found = false;

	if (elf_object_open(path, &object, &err) != 0)
		return false;
	elf_object_each_symbol(object, ELF_SYMBOLS_SYMTAB_ELSE_DYN, find_native_symbol, &found);
	elf_object_close(object);
	return found;
}

/* The last component of a directory's path, trailing slashes ignored ("out/scenarios/native/"
 * gives "native"), in a static buffer. */
static const char *base_name(const char *path)
{
	static char last[256];
	size_t length = strlen(path), start;

	while (length > 1 && path[length - 1] == '/')
		length--;
	start = length;
	while (start > 0 && path[start - 1] != '/')
		start--;
	snprintf(last, sizeof(last), "%.*s", (int)(length - start), path + start);
	return last;
}

/* One "scenario NAME PATH" and its "build NAME TEXT": the name is the file's, the path absolute. */
static int write_scenario(FILE *out, const char *executable, char *const *executables,
			  size_t index, const struct manifest_options *options,
			  struct gate_error *err)
{
	const char *name = strrchr(executable, '/') ? strrchr(executable, '/') + 1 : executable;
	char quoted[300], *path;
	struct stat status;
	size_t i;

	if (!text_is_name(name))
		return gate_error_set(err, "cannot list '%s': a scenario's name (its file name) is "
				      "[a-z0-9_]{1,64}", text_quote(quoted, sizeof(quoted), executable));
	for (i = 0; i < index; i++) {
		const char *other = strrchr(executables[i], '/');

		if (strcmp(other != NULL ? other + 1 : executables[i], name) == 0)
			return gate_error_set(err, "cannot list '%s': scenario '%s' is '%s' already",
					      executable, name, executables[i]);
	}
	if (stat(executable, &status) != 0) {
		int saved = errno;

		return gate_error_set(err, "cannot list '%s': %s", executable,
				      saved == ENOENT ? "no such file (build it first)"
						      : strerror(saved));
	}
	if (!S_ISREG(status.st_mode) || access(executable, X_OK) != 0)
		return gate_error_set(err, "cannot list '%s': not an executable file", executable);
	if (options->native != is_native_build(executable))
		return options->native
			       ? gate_error_set(err, "cannot list '%s' with --native: it is not linked "
						"with the native harness (build it with pkg-config "
						"--cflags --libs costgate-native, with its symbols)",
						executable)
			       : gate_error_set(err, "cannot list '%s': it is linked with the native "
						"harness, which gate runs without valgrind (list it "
						"with --native in BUILD/scenarios/native; a measured "
						"scenario links pkg-config --libs costgate)",
						executable);
	path = realpath(executable, NULL);
	if (path == NULL || text_line_problem(path, 4096) != NULL) {
		free(path);
		return gate_error_set(err, "cannot list '%s': its path cannot go in a manifest line",
				      executable);
	}
	fprintf(out, "scenario %s %s\nbuild %s%s%s | link:%s%s\n", name, path, name,
		options->cflags[0] ? " " : "", options->cflags, options->ldflags[0] ? " " : "",
		options->ldflags);
	free(path);
	return 0;
}

static int finish(void *own, char **operands, size_t operand_count, struct gate_error *err)
{
	struct manifest_options *options = own;

	options->executables = operands;
	options->count = operand_count;
	if (options->output_dir == NULL)
		return gate_error_set(err, "gate manifest needs --output-dir DIR (see gate manifest --help)");
	if (options->native && strcmp(base_name(options->output_dir), "native") != 0)
		return gate_error_set(err, "with --native, --output-dir is BUILD/scenarios/native, where "
				      "gate looks for the native builds, not '%s'", options->output_dir);
	if (options->cflags == NULL)
		return gate_error_set(err, "gate manifest needs --cflags TEXT, the flags the scenarios "
				      "were compiled with ('' for none; see gate manifest --help)");
	if (operand_count == 0)
		return gate_error_set(err, "gate manifest needs the scenario executables to list "
				      "(see gate manifest --help)");
	if (options->cc == NULL)
		options->cc = getenv("CC") != NULL && getenv("CC")[strspn(getenv("CC"), " ")] != '\0'
				      ? getenv("CC") : "cc";
	if (options->build_command != NULL) {
		const char *problem = text_line_problem(options->build_command, BUILD_MAX);

		if (problem == NULL && options->build_command[strspn(options->build_command, " ")] == '\0')
			problem = "is empty";
		if (problem != NULL)
			return gate_error_set(err, "cannot record --build-command: it %s", problem);
	}
	if (check_flags(options->cflags, "--cflags", FLAGS_MAX, err) != 0 ||
	    check_flags(options->ldflags, "--ldflags", FLAGS_MAX, err) != 0)
		return -1;
	return 0;
}

/* The whole manifest drawn in memory, written only when every scenario is listed. */
static int write_manifest(const struct manifest_options *options, const char *compiler,
			  const char *path, struct gate_error *err)
{
	struct command_output manifest;
	size_t i;
	int status = 0;

	if (command_output_open(&manifest, err) != 0)
		return -1;
	fprintf(manifest.stream, "# costgate scenario manifest: written by gate manifest, read by "
		"gate\ncostgate %s\ncompiler %s\nflags %s\n", GATE_VERSION, compiler,
		options->cflags);
	if (options->build_command != NULL)
		fprintf(manifest.stream, "build-command %s\n", options->build_command);
	for (i = 0; status == 0 && i < options->count; i++)
		status = write_scenario(manifest.stream, options->executables[i],
					options->executables, i, options, err);
	if (status == 0)
		status = fs_mkdir_p(options->output_dir, 0755, err);
	return command_output_close(&manifest, path, status, err);
}

static int run(void *own, struct gate_error *err)
{
	const struct manifest_options *options = own;
	char *compiler = NULL, *path = NULL;
	int code = GATE_EXIT_USAGE;

	if (asprintf(&path, "%s/manifest.txt", options->output_dir) < 0) {
		gate_error_oom(err);
		return code;
	}
	if (identify_compiler(options->cc, &compiler, err) == 0 &&
	    write_manifest(options, compiler, path, err) == 0) {
		code = 0;
		if (options->shared.verbosity > 0)
			fprintf(stderr, "gate: manifest: wrote %s (%zu scenario%s)\n", path,
				options->count, options->count == 1 ? "" : "s");
	}
	free(compiler);
	free(path);
	return code;
}

const struct command manifest_command = {
	.spec = &manifest_spec, .size = sizeof(struct manifest_options),
	.defaults = &manifest_defaults, .finish = finish, .run = run,
};
