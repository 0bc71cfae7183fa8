/* The file helpers: a whole read, a whole write, directories with their parents, a path tidied. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fs.h"
#include "json_read.h"

static char directory[] = "/tmp/test_fs.XXXXXX";

static char *path_in(const char *name)
{
	char *path = NULL;

	if (asprintf(&path, "%s/%s", directory, name) < 0)
		abort();
	return path;
}

static void fs_should_write_a_file_whole_and_read_it_back(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *path = path_in("whole.txt"), *text = NULL;
	size_t length = 0;
	struct stat info;

	CHECK(fs_write_atomic(path, "one\0two", 7, NULL, &err) == 0);
	CHECK(fs_read_file(path, FS_READ_LIMIT, &text, &length) == 0);
	CHECK_U64(length, 7);
	CHECK(text != NULL && memcmp(text, "one\0two", 8) == 0); /* NUL-terminated too */
	CHECK(stat(path, &info) == 0 && (info.st_mode & 0777) == 0644);
	free(text);
	free(path);
}

static void fs_should_say_why_a_read_failed(void)
{
	char *missing = path_in("missing"), *big = path_in("big"), *text = (char *)"x";
	struct gate_error err = GATE_ERROR_INIT;
	size_t length = 1;

	CHECK(fs_read_file(missing, FS_READ_LIMIT, &text, &length) == -1 && errno == ENOENT);
	CHECK(text == NULL && length == 0);
	CHECK(fs_read_file(directory, FS_READ_LIMIT, &text, &length) == -1 && errno == EISDIR);
	CHECK(fs_write_atomic(big, "0123456789", 10, NULL, &err) == 0);
	CHECK(fs_read_file(big, 10, &text, &length) == -1 && errno == EFBIG);
	CHECK(fs_read_file(big, 11, &text, &length) == 0 && length == 10);
	free(text);
	free(missing);
	free(big);
}

static void fs_should_leave_nothing_half_written(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *path = path_in("no-such-directory/file");
	char *command = NULL;

	CHECK(fs_write_atomic(path, "x", 1, NULL, &err) == -1);
	CHECK_CONTAINS(err.message, "cannot write '");
	CHECK_CONTAINS(err.message, "No such file or directory");
	/* The directory holds only what the other cases wrote: no temporary file is left. */
	if (asprintf(&command, "test -z \"$(ls -A %s | grep tmp)\"", directory) < 0)
		abort();
	CHECK(system(command) == 0);
	free(command);
	free(path);
}

static void fs_should_make_a_directory_with_its_parents(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *deep = path_in("a/b/c"), *file = path_in("whole.txt"), *under_file = path_in("whole.txt/d");
	struct stat info;

	CHECK(fs_mkdir_p(deep, 0755, &err) == 0);
	CHECK(stat(deep, &info) == 0 && S_ISDIR(info.st_mode));
	CHECK(fs_mkdir_p(deep, 0755, &err) == 0); /* already there */
	CHECK(fs_mkdir_p(under_file, 0755, &err) == -1);
	CHECK_CONTAINS(err.message, "cannot create directory '");
	free(deep);
	free(file);
	free(under_file);
}

static void json_read_should_take_one_document_with_unique_keys(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *root = json_read_document("{\"a\": 1}\n \t", 11, &err);

	CHECK(root != NULL);
	cJSON_Delete(root);
	CHECK(json_read_document("{\"a\": 1} x", 10, &err) == NULL);
	CHECK_STR(err.message, "text after the JSON value (at byte 9)");
	CHECK(json_read_document("{\"a\": }", 7, &err) == NULL);
	CHECK_STR(err.message, "not JSON (at byte 6)");
	CHECK(json_read_document("{\"a\": {\"b\": 1, \"b\": 2}}", 23, &err) == NULL);
	CHECK_STR(err.message, "the key 'b' appears twice in one object");
}

static void json_read_should_take_only_exact_counts(void)
{
	cJSON *numbers = cJSON_Parse("[0, 9007199254740991, 9007199254740992, -1, 1.5, \"7\"]");
	double number = 0;
	uint64_t count = 0;

	CHECK(json_read_count(cJSON_GetArrayItem(numbers, 0), &count) && count == 0);
	CHECK(json_read_count(cJSON_GetArrayItem(numbers, 1), &count) &&
	      count == 9007199254740991ULL);
	CHECK(!json_read_count(cJSON_GetArrayItem(numbers, 2), &count));
	CHECK(!json_read_count(cJSON_GetArrayItem(numbers, 3), &count));
	CHECK(!json_read_count(cJSON_GetArrayItem(numbers, 4), &count));
	CHECK(!json_read_count(cJSON_GetArrayItem(numbers, 5), &count));
	CHECK(json_read_number(cJSON_GetArrayItem(numbers, 3), false, &number) && number == -1);
	CHECK(!json_read_number(cJSON_GetArrayItem(numbers, 3), true, &number));
	CHECK(json_read_number(cJSON_GetArrayItem(numbers, 4), true, &number) && number == 1.5);
	CHECK(!json_read_number(cJSON_GetArrayItem(numbers, 2), false, &number));
	cJSON_Delete(numbers);
}

/* A second lock on the same file is refused at once, naming the holder's pid. The holder here
 * is a child, since flock locks belong to an open file and one process may open it twice. */
static void fs_lock_should_refuse_a_second_holder_naming_the_first(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *path = path_in("outputs.lock");
	int ready[2], release[2], fd;
	long holder = 0;
	pid_t child;
	char byte = 0;

	CHECK(pipe(ready) == 0 && pipe(release) == 0);
	child = fork();
	if (child == 0) {
		struct gate_error ignored = GATE_ERROR_INIT;
		long none = 0;

		fd = fs_lock(path, &none, &ignored);
		if (write(ready[1], "x", 1) != 1 || read(release[0], &byte, 1) != 1)
			_exit(1);
		_exit(fd >= 0 ? 0 : 1);
	}
	CHECK(read(ready[0], &byte, 1) == 1);
	CHECK(fs_lock(path, &holder, &err) == -1);
	CHECK(errno == EWOULDBLOCK);
	CHECK_U64((uint64_t)holder, (uint64_t)child);
	CHECK(write(release[1], "x", 1) == 1);
	waitpid(child, NULL, 0);
	fd = fs_lock(path, &holder, &err);
	CHECK(fd >= 0);
	close(fd);
	close(ready[0]);
	close(ready[1]);
	close(release[0]);
	close(release[1]);
	free(path);
}

/* A path that is a device is written in place, never replaced by a renamed file. */
static void fs_should_write_a_device_in_place(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *link = path_in("full");
	struct stat info;

	CHECK(symlink("/dev/full", link) == 0);
	CHECK(fs_write_atomic(link, "x", 1, NULL, &err) == -1);
	CHECK_CONTAINS(err.message, "No space left on device");
	CHECK(lstat(link, &info) == 0 && S_ISLNK(info.st_mode));
	CHECK(fs_write_atomic("/dev/null", "x", 1, NULL, &err) == 0);
	CHECK(stat("/dev/null", &info) == 0 && S_ISCHR(info.st_mode));
	free(link);
}

static void fs_path_tidy_should_take_back_each_dot_dot_by_the_text(void)
{
	static const char *const cases[][2] = {
		{ "/repo/builddir/../base64.c", "/repo/base64.c" },
		{ "/repo/./src//lib.c", "/repo/src/lib.c" },
		{ "/repo/a/b/../../c.c", "/repo/c.c" },
		{ "/a/..", "/" },
		{ "/../x", "/x" },
		{ "/", "/" },
		{ "dir/../file.c", "file.c" },
		{ "../up/./file.c", "../up/file.c" },
		{ "a/../../b", "../b" },
		{ "a/..", "." },
		{ "./", "." },
		{ "/repo/src/", "/repo/src" },
		{ "", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path = strdup(cases[i][0]);

		CHECK(path != NULL);
		CHECK_STR(fs_path_tidy(path), cases[i][1]);
		free(path);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (mkdtemp(directory) == NULL)
		return 1;
	RUN(fs_should_write_a_file_whole_and_read_it_back);
	RUN(fs_should_say_why_a_read_failed);
	RUN(fs_should_leave_nothing_half_written);
	RUN(fs_should_make_a_directory_with_its_parents);
	RUN(json_read_should_take_one_document_with_unique_keys);
	RUN(json_read_should_take_only_exact_counts);
	RUN(fs_lock_should_refuse_a_second_holder_naming_the_first);
	RUN(fs_should_write_a_device_in_place);
	RUN(fs_path_tidy_should_take_back_each_dot_dot_by_the_text);
	{
		char *command = NULL;

		if (asprintf(&command, "rm -rf '%s'", directory) < 0 || system(command) != 0)
			return 1;
		free(command);
	}
	return CHECK_EXIT();
}
