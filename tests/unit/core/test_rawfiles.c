/* Unit tests of the raw files of a scenario (rawfiles.h), on a scratch directory holding the names
 * gate writes for two scenarios, one named as the start of the other's name. */
#define _GNU_SOURCE
#include "check.h"
#include "rawfiles.h"
#include "scratch.h"

#include <stdio.h>
#include <string.h>

static void touch(const char *directory, const char *name)
{
	char *path = NULL;
	FILE *file;

	CHECK(asprintf(&path, "%s/%s", directory, name) >= 0);
	file = fopen(path, "w");
	CHECK(file != NULL);
	if (file != NULL)
		fclose(file);
	free(path);
}

static void rawfiles_should_list_a_scenarios_files_the_per_message_profile_first(void)
{
	static const char *const names[] = {
		"callgrind.out.reply.0-1", "callgrind.out.reply.1-200", "callgrind.out.reply.200-400",
		"callgrind.out.reply.start", "callgrind.out.reply.outside-start",
		"callgrind.out.reply.400.end", "callgrind.log.reply.400", "dhat.out.reply.1",
		"dhat.out.reply.400", "flame.reply.svg", "describe.reply.json",
		/* Another scenario's, whose name starts with this one's, and a stray file. */
		"callgrind.out.reply_all.200-400", "flame.reply_all.svg", "notes.txt", ".gate.lock",
	};
	char *directory = scratch_make("rawfiles");
	struct measurement measurement = { .info = { .name = "reply" }, .messages = 200 };
	struct gate_error err = GATE_ERROR_INIT;
	struct rawfiles files;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		touch(directory, names[i]);
	CHECK(rawfiles_list(&files, directory, &measurement, &err) == 0);
	CHECK_U64(files.count, 11);
	if (files.count == 11) {
		CHECK_STR(files.files[0].name, "callgrind.out.reply.200-400");
		CHECK(files.files[0].per_message);
		CHECK_STR(files.files[0].what, "callgrind: one message x 200, deliveries 201 to 400 "
					       "(callgrind_annotate, KCachegrind: its total / 200 is "
					       "the instructions and the allocator's per message)");
		/* Then by name. */
		CHECK_STR(files.files[1].name, "callgrind.log.reply.400");
		CHECK_STR(files.files[2].name, "callgrind.out.reply.0-1");
		CHECK_STR(files.files[2].what, "callgrind: the first delivery");
		CHECK_STR(files.files[3].what, "callgrind: deliveries 2 to 200");
		CHECK_STR(files.files[4].what, "callgrind: the process's end");
		CHECK_STR(files.files[7].name, "describe.reply.json");
		CHECK_STR(files.files[8].what, "DHAT: the counts up to 1 delivery (DHAT's viewer)");
		CHECK_STR(files.files[10].name, "flame.reply.svg");
		for (i = 1; i < files.count; i++)
			CHECK(!files.files[i].per_message);
	}
	rawfiles_release(&files);
	CHECK(files.count == 0 && files.files == NULL);

	/* A scenario with no file there: an empty list, no error. */
	measurement.info.name = "absent";
	CHECK(rawfiles_list(&files, directory, &measurement, &err) == 0 && files.count == 0);
	scratch_remove(directory);
}

static void rawfiles_should_name_a_directory_it_cannot_read(void)
{
	struct measurement measurement = { .info = { .name = "reply" }, .messages = 200 };
	struct gate_error err = GATE_ERROR_INIT;
	struct rawfiles files;

	CHECK(rawfiles_list(&files, "/nonexistent/raw", &measurement, &err) == -1);
	CHECK_STR(err.message, "cannot read the raw directory '/nonexistent/raw': No such file or "
			       "directory");
	CHECK(files.count == 0);
}

int main(void)
{
	return RUN_CASES(rawfiles_should_list_a_scenarios_files_the_per_message_profile_first,
			 rawfiles_should_name_a_directory_it_cannot_read);
}
