/* Reading an object for the ways it could tell a measured run apart (telltales.h). Deliberate:
 * instructions come from objdump's disassembly, never from a byte search, which would find a
 * cpuid's two bytes inside any other instruction. */
#define _GNU_SOURCE
#include "telltales.h"

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argv_list.h"
#include "array.h"
#include "elf_object.h"
#include "program.h"
#include "runner.h"

static const char *const imports[] = { "personality", "getauxval", "ptrace", "prctl" };
static const char *const everywhere[] = { "/proc/self/maps", "/proc/self/status",
					  "/proc/self/cmdline", "valgrind", "callgrind",
					  "LD_BIND_NOW", "GLIBC_TUNABLES" };
static const char *const in_libraries[] = { "--phases", "--snapshots", "--describe",
					     "--count-allocations" };

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* What one object was found to hold, appended to `found`. */
struct finding {
	char *text; /* owned; NULL until something is found */
	const char *object; /* its file name, for the text */
	bool failed;
};

/* Appends "OBJECT VERB WHAT" ("libx.so imports personality"), WHAT in quotes when `quoted`. */
static void add(struct finding *finding, const char *verb, const char *what, bool quoted)
{
	char *item = NULL, *joined = NULL;

	if (finding->failed)
		return;
	if (asprintf(&item, "%s %s %s%s%s", finding->object, verb, quoted ? "\"" : "", what,
		     quoted ? "\"" : "") < 0) {
		finding->failed = true;
		return;
	}
	/* Once: an import is in .dynsym and .symtab both. */
	if (finding->text != NULL && strstr(finding->text, item) != NULL) {
		free(item);
		return;
	}
	if (asprintf(&joined, "%s%s%s", finding->text != NULL ? finding->text : "",
		     finding->text != NULL ? "; " : "", item) < 0)
		finding->failed = true;
	else {
		free(finding->text);
		finding->text = joined;
	}
	free(item);
}

static int visit_import(const struct elf_symbol *symbol, void *context)
{
	struct finding *finding = context;
	size_t length = strcspn(symbol->name, "@"), i;

	for (i = 0; i < COUNT(imports); i++)
		if (strlen(imports[i]) == length && strncmp(symbol->name, imports[i], length) == 0)
			add(finding, "imports", imports[i], false);
	return 0;
}

/* Whether `needle` stands in `bytes` as a string of its own or its end (a NUL before it, or the
 * start of a string, is not asked: "/proc/self/maps" inside a longer path still names it). */
static bool holds(const unsigned char *bytes, size_t size, const char *needle)
{
	return memmem(bytes, size, needle, strlen(needle)) != NULL;
}

/* cpuid and rdtsc in objdump's disassembly of `path`; nothing when objdump cannot be run. */
static void find_instructions(struct finding *finding, const char *path)
{
	static const char *const instructions[] = { "\tcpuid", "\trdtsc" };
	static char *objdump;
	static bool looked;
	struct argv_list argv = ARGV_LIST_INIT;
	struct gate_error ignored = GATE_ERROR_INIT;
	char *const environment[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
	char *listing = NULL;
	size_t i;

	if (!looked) {
		objdump = runner_find_program("objdump", "/usr/bin:/bin");
		looked = true;
	}
	if (objdump == NULL)
		return;
	argv_list_add_all(&argv, (const char *const[]){ objdump, "-d", "--no-show-raw-insn", path,
							NULL });
	if (argv_list_vector(&argv) != NULL &&
	    runner_capture(argv_list_vector(&argv), "/", environment, 120, &listing, &ignored) == 0)
		for (i = 0; i < COUNT(instructions); i++)
			if (strstr(listing, instructions[i]) != NULL)
				add(finding, "has the instruction", instructions[i] + 1, false);
	free(listing);
	argv_list_release(&argv);
}

static int read_object(struct finding *finding, const char *path, bool executable,
		       struct gate_error *err)
{
	struct elf_object *object = NULL;
	const unsigned char *bytes;
	size_t size, i;

	if (elf_object_open(path, &object, err) != 0)
		return -1;
	elf_object_each_symbol(object, ELF_SYMBOLS_IMPORTS, visit_import, finding);
	bytes = elf_object_bytes(object, &size);
	for (i = 0; i < COUNT(everywhere); i++)
		if (holds(bytes, size, everywhere[i]))
			add(finding, "holds", everywhere[i], true);
	for (i = 0; !executable && i < COUNT(in_libraries); i++)
		if (holds(bytes, size, in_libraries[i]))
			add(finding, "holds", in_libraries[i], true);
	elf_object_close(object);
	find_instructions(finding, path);
	return 0;
}

int telltales_find(const char *path, char **text, struct gate_error *err)
{
	struct finding finding = { NULL, NULL, false };
	char **objects = NULL;
	size_t count = 0, i;
	int status = -1;

	*text = NULL;
	if (program_objects(path, &objects, &count, err) != 0)
		goto out;
	for (i = 0; i < count; i++) {
		char *copy = strdup(objects[i]);

		if (copy == NULL) {
			finding.failed = true;
			break;
		}
		finding.object = basename(copy);
		status = read_object(&finding, objects[i], i == 0, err);
		free(copy);
		if (status != 0)
			goto out;
	}
	if (finding.failed) {
		gate_error_oom(err);
		goto out;
	}
	*text = finding.text;
	finding.text = NULL;
	status = 0;
out:
	free(finding.text);
	array_free_strings(objects, count);
	return status;
}
