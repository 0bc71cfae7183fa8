/* Unit tests of the ELF module on real files: this test's own executable and the C library it
 * loads, and the fixtures tests/unit/parse/elf/make_fixtures.sh makes with the real toolchain
 * (32-bit libraries, a run path a library inherits, a cache ldconfig wrote). Where the loader
 * itself can say where a library is, the module's answer is compared with the loader's. */
#define _GNU_SOURCE
#include "check.h"
#include "elf_object.h"

#include <elf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE(name) ELF_FIXTURES "/" name

static struct elf_object *open_or_null(const char *path)
{
	struct elf_object *object = NULL;
	struct gate_error err = GATE_ERROR_INIT;

	if (elf_object_open(path, &object, &err) != 0)
		fprintf(stderr, "%s\n", err.message);
	return object;
}

static bool dynamic_needs(const struct elf_dynamic *dynamic, const char *name)
{
	size_t i;

	for (i = 0; i < dynamic->needed_count; i++)
		if (strcmp(dynamic->needed[i], name) == 0)
			return true;
	return false;
}

/* Where the loader itself puts `library` for `program` (LD_TRACE_LOADED_OBJECTS, what ldd
 * reads), its real path, owned; NULL when it names none. */
static char *loader_answer(const char *program, const char *library)
{
	char *command = NULL, line[PATH_MAX + 128], *found = NULL;
	size_t length = strlen(library);
	FILE *pipe;

	if (asprintf(&command, "env -i LD_TRACE_LOADED_OBJECTS=1 '%s'", program) < 0)
		return NULL;
	pipe = popen(command, "r");
	free(command);
	while (pipe != NULL && fgets(line, sizeof(line), pipe) != NULL) {
		char *start = line + strspn(line, "\t "), *arrow = strstr(start, " => ");

		if (found == NULL && arrow != NULL && strncmp(start, library, length) == 0 &&
		    start + length == arrow) {
			arrow[4 + strcspn(arrow + 4, " ")] = '\0';
			found = realpath(arrow + 4, NULL);
		}
	}
	if (pipe != NULL)
		pclose(pipe);
	return found;
}

/* elf_library_find's answer, resolved to its real path as the loader's is; owned. */
static char *find_real(const char *name, const struct elf_object *needing,
		       const struct elf_dynamic *dynamic, const struct elf_search *search)
{
	char *found = elf_library_find(name, needing, dynamic, search);
	char *real = found != NULL ? realpath(found, NULL) : NULL;

	free(found);
	return real;
}

static void open_should_read_this_executable(void)
{
	struct elf_object *self = open_or_null("/proc/self/exe");
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *interpreter;

	CHECK(self != NULL);
	if (self == NULL)
		return;
	CHECK_U64(elf_object_bits(self), sizeof(void *) * 8);
	CHECK(!elf_object_is_library(self));
	interpreter = elf_object_interpreter(self);
	CHECK(interpreter != NULL && interpreter[0] == '/' && strstr(interpreter, "ld-") != NULL);
	CHECK(elf_object_dynamic(self, &dynamic, &err) == 0);
	CHECK(dynamic_needs(&dynamic, "libc.so.6"));
	CHECK(dynamic_needs(&dynamic, "libelf.so.1"));
	free(interpreter);
	elf_dynamic_release(&dynamic);
	CHECK(dynamic.needed == NULL && dynamic.needed_count == 0);
	elf_object_close(self);
}

/* The C library's build id names its debug file in libc6-dbg (the suite installs it): the
 * module's hex is the one the distribution filed it under. */
static void build_id_should_name_the_c_librarys_debug_file(void)
{
	struct elf_ldcache cache = ELF_LDCACHE_INIT;
	struct elf_dynamic none = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct elf_object *self = open_or_null("/proc/self/exe"), *libc = NULL;
	struct elf_search search = { &cache, NULL, NULL, 0 };
	char *path = NULL, *debug = NULL, hex[129] = "", *loader = NULL;
	char *self_path = realpath("/proc/self/exe", NULL);

	CHECK(elf_ldcache_read("/etc/ld.so.cache", &cache, &err) == 0);
	if (self != NULL)
		path = find_real("libc.so.6", self, &none, &search);
	CHECK(path != NULL);
	if (self_path != NULL) /* not /proc/self/exe: in the child that would be env itself */
		loader = loader_answer(self_path, "libc.so.6");
	CHECK(path != NULL && loader != NULL && strcmp(path, loader) == 0);
	libc = path != NULL ? open_or_null(path) : NULL;
	CHECK(libc != NULL && elf_object_build_id(libc, hex, sizeof(hex)));
	CHECK_U64(strlen(hex), 40);
	CHECK(strspn(hex, "0123456789abcdef") == strlen(hex));
	CHECK(asprintf(&debug, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2) > 0);
	CHECK(debug != NULL && access(debug, R_OK) == 0);
	CHECK(!elf_object_build_id(libc, hex, 8)); /* 20 bytes do not fit in 8 */
	free(debug);
	free(self_path);
	free(loader);
	free(path);
	elf_object_close(libc);
	elf_object_close(self);
	elf_ldcache_release(&cache);
}

static void a_32_bit_library_should_be_read_and_its_run_path_searched_for_32_bit_files(void)
{
	struct elf_object *library = open_or_null(FIXTURE("libthirtytwo.so.1"));
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct elf_search search = { NULL, NULL, NULL, 0 };
	char *found, *expected = realpath(FIXTURE("dep/libdep32.so.1"), NULL), hex[129] = "";

	CHECK(library != NULL);
	if (library == NULL)
		return;
	CHECK_U64(elf_object_bits(library), 32);
	CHECK_U64(elf_object_machine(library), EM_386);
	CHECK(elf_object_is_library(library));
	CHECK(elf_object_interpreter(library) == NULL);
	CHECK(elf_object_build_id(library, hex, sizeof(hex)) && strlen(hex) == 40);
	CHECK(elf_object_dynamic(library, &dynamic, &err) == 0);
	CHECK_U64(dynamic.needed_count, 1);
	CHECK(dynamic_needs(&dynamic, "libdep32.so.1"));
	CHECK_STR(dynamic.runpath, "$ORIGIN/wrong:$ORIGIN/dep");
	CHECK(dynamic.rpath == NULL);
	/* $ORIGIN/wrong holds a 64-bit file of that name: the loader passes it over. */
	found = find_real("libdep32.so.1", library, &dynamic, &search);
	CHECK(found != NULL && expected != NULL && strcmp(found, expected) == 0);
	free(found);
	CHECK(find_real("libnowhere.so.9", library, &dynamic, &search) == NULL);
	free(expected);
	elf_dynamic_release(&dynamic);
	elf_object_close(library);
}

/* ldconfig's own cache: its 64-bit entry for a 64-bit object, its 32-bit one for a 32-bit
 * object, never the other way round; a library in no run path is found through it. */
static void the_cache_should_give_what_ldconfig_wrote_for_the_objects_class(void)
{
	struct elf_ldcache cache = ELF_LDCACHE_INIT;
	struct elf_dynamic none = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct elf_object *self = open_or_null("/proc/self/exe");
	struct elf_object *library = open_or_null(FIXTURE("libthirtytwo.so.1"));
	struct elf_search search = { &cache, NULL, NULL, 0 };
	char *cached = realpath(FIXTURE("cached/libcached.so.1"), NULL);
	char *dep = realpath(FIXTURE("dep/libdep32.so.1"), NULL), *found;

	CHECK(elf_ldcache_read(FIXTURE("ld.so.cache"), &cache, &err) == 0);
	CHECK_STR(err.message, "");
	CHECK(cache.bytes != NULL);
	if (self == NULL || library == NULL || cached == NULL || dep == NULL)
		goto out;
	found = elf_ldcache_find(&cache, "libcached.so.1", self);
	CHECK(found != NULL && strcmp(found, cached) == 0);
	free(found);
	CHECK(elf_ldcache_find(&cache, "libcached.so.1", library) == NULL);
	found = elf_ldcache_find(&cache, "libdep32.so.1", library);
	CHECK(found != NULL && strcmp(found, dep) == 0);
	free(found);
	CHECK(elf_ldcache_find(&cache, "libdep32.so.1", self) == NULL);
	found = find_real("libcached.so.1", self, &none, &search);
	CHECK(found != NULL && strcmp(found, cached) == 0);
	free(found);
	search.cache = NULL;
	CHECK(find_real("libcached.so.1", self, &none, &search) == NULL);
out:
	free(cached);
	free(dep);
	elf_object_close(self);
	elf_object_close(library);
	elf_ldcache_release(&cache);
}

/* user has DT_RPATH $ORIGIN/inherit; libmid, which it needs, has no run path of its own and
 * needs libleaf: the loader finds libleaf through user's DT_RPATH, and so does the module. */
static void a_library_without_a_run_path_should_inherit_the_programs_rpath(void)
{
	struct elf_object *user = open_or_null(FIXTURE("user"));
	struct elf_object *mid = open_or_null(FIXTURE("inherit/libmid.so.1"));
	struct elf_dynamic user_dynamic = ELF_DYNAMIC_INIT, mid_dynamic = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *directory = realpath(ELF_FIXTURES, NULL);
	struct elf_search search = { NULL, directory, NULL, 0 };
	struct elf_rpath program = { NULL, directory };
	char *found = NULL, *loader = NULL;

	CHECK(user != NULL && mid != NULL && directory != NULL);
	if (user == NULL || mid == NULL || directory == NULL)
		goto out;
	CHECK(elf_object_dynamic(user, &user_dynamic, &err) == 0);
	CHECK(elf_object_dynamic(mid, &mid_dynamic, &err) == 0);
	CHECK(user_dynamic.runpath == NULL);
	CHECK_STR(user_dynamic.rpath, "$ORIGIN/inherit");
	CHECK(mid_dynamic.runpath == NULL && mid_dynamic.rpath == NULL);
	program.rpath = user_dynamic.rpath;
	search.loaders = &program;
	search.loader_count = 1;
	found = find_real("libmid.so.1", user, &user_dynamic, &search);
	loader = loader_answer(FIXTURE("user"), "libmid.so.1");
	CHECK(found != NULL && loader != NULL && strcmp(found, loader) == 0);
	free(found);
	free(loader);
	found = find_real("libleaf.so.1", mid, &mid_dynamic, &search);
	loader = loader_answer(FIXTURE("user"), "libleaf.so.1");
	CHECK(found != NULL && loader != NULL && strcmp(found, loader) == 0);
	free(found);
	search.loader_count = 0;
	CHECK(find_real("libleaf.so.1", mid, &mid_dynamic, &search) == NULL);
	/* A name with a slash is taken as it is, a relative one from the program's directory. */
	found = find_real("inherit/libleaf.so.1", mid, &mid_dynamic, &search);
	CHECK(found != NULL && loader != NULL && strcmp(found, loader) == 0);
	free(found);
	free(loader);
out:
	free(directory);
	elf_dynamic_release(&user_dynamic);
	elf_dynamic_release(&mid_dynamic);
	elf_object_close(user);
	elf_object_close(mid);
}

/* The loader's answer for `library` of `program`, and the module's for the object `needing`
 * (with its loaders, the program first) must agree. */
static void check_as_the_loader(const char *program, const char *library, const char *needing,
				const char *const *loaders, size_t loader_count)
{
	struct elf_object *object = open_or_null(needing), *loader_objects[4] = { NULL };
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT, loader_dynamic[4] = { ELF_DYNAMIC_INIT };
	struct elf_rpath rpaths[4];
	struct gate_error err = GATE_ERROR_INIT;
	char *directory = realpath(ELF_FIXTURES, NULL), *origins[4] = { NULL };
	struct elf_search search = { NULL, directory, rpaths, loader_count };
	char *found = NULL, *answer = loader_answer(program, library);
	size_t i;

	CHECK(object != NULL && answer != NULL && loader_count <= 4);
	for (i = 0; object != NULL && i < loader_count && i < 4; i++) {
		loader_objects[i] = open_or_null(loaders[i]);
		CHECK(loader_objects[i] != NULL &&
		      elf_object_dynamic(loader_objects[i], &loader_dynamic[i], &err) == 0);
		origins[i] = strndup(loaders[i], (size_t)(strrchr(loaders[i], '/') - loaders[i]));
		rpaths[i] = (struct elf_rpath){ loader_dynamic[i].runpath == NULL ? loader_dynamic[i].rpath
										 : NULL, origins[i] };
	}
	if (object != NULL && elf_object_dynamic(object, &dynamic, &err) == 0)
		found = find_real(library, object, &dynamic, &search);
	CHECK_STR(err.message, "");
	CHECK(found != NULL && answer != NULL && strcmp(found, answer) == 0);
	if (found != NULL && answer != NULL && strcmp(found, answer) != 0)
		printf("module: %s, loader: %s\n", found, answer);
	for (i = 0; i < 4; i++) {
		elf_dynamic_release(&loader_dynamic[i]);
		elf_object_close(loader_objects[i]);
		free(origins[i]);
	}
	elf_dynamic_release(&dynamic);
	elf_object_close(object);
	free(found);
	free(answer);
	free(directory);
}

/* hwuser's run path holds libhw.so.1 and, in glibc-hwcaps/x86-64-v2, a copy the loader takes
 * first on a CPU of that level. */
static void a_cpu_subdirectory_of_the_run_path_should_come_first(void)
{
	check_as_the_loader(FIXTURE("hwuser"), "libhw.so.1", FIXTURE("hwuser"), NULL, 0);
}

/* libbb has no run path; libcc is only where libaa's DT_RPATH points, libaa being the object
 * that loaded libbb: the loader looks there, after libbb's own and before the program's. */
static void a_library_should_inherit_the_rpath_of_each_object_above_it(void)
{
	static const char *const loaders[] = { FIXTURE("chain/chainuser"), FIXTURE("chain/a/libaa.so.1") };

	check_as_the_loader(FIXTURE("chain/chainuser"), "libbb.so.1", FIXTURE("chain/a/libaa.so.1"),
			    loaders, 1);
	check_as_the_loader(FIXTURE("chain/chainuser"), "libcc.so.1", FIXTURE("chain/b/libbb.so.1"),
			    loaders, 2);
}

/* Of two DT_RUNPATH entries the loader keeps the last, and so does the module. */
static void the_last_of_two_run_paths_should_count(void)
{
	struct elf_object *object = open_or_null(FIXTURE("tworunpaths.so"));
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(object != NULL && elf_object_dynamic(object, &dynamic, &err) == 0);
	CHECK_STR(dynamic.runpath, "$ORIGIN/first");
	elf_dynamic_release(&dynamic);
	elf_object_close(object);
}

/* libs is found through the link sym/libs.so.1 to real/libs.so.1; its $ORIGIN/deps is sym/deps. */
static void origin_should_be_the_directory_a_library_was_found_in(void)
{
	static const char *const loaders[] = { FIXTURE("symuser") };

	check_as_the_loader(FIXTURE("symuser"), "libd.so.1", FIXTURE("sym/libs.so.1"), loaders, 1);
}

static void open_should_name_a_file_that_is_not_elf_or_missing(void)
{
	struct elf_object *object = NULL;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(elf_object_open(FIXTURE("notelf"), &object, &err) == -1);
	CHECK(object == NULL);
	CHECK_STR(err.message, "'" FIXTURE("notelf") "' is not an ELF file");
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(elf_object_open(FIXTURE("nothing"), &object, &err) == -1);
	CHECK_STR(err.message, "cannot read '" FIXTURE("nothing") "': No such file or directory");
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(elf_object_open(ELF_FIXTURES, &object, &err) == -1);
	CHECK_STR(err.message, "cannot read '" ELF_FIXTURES "': not a regular file of a plausible size");
}

/* A file cut short keeps its header and loses the tables it points to: refused, naming them
 * (what gate cannot read it does not pass), with no read outside the file. */
static void a_truncated_file_should_be_refused_for_its_tables_out_of_the_file(void)
{
	char path[] = "/tmp/costgate-elf-XXXXXX", expected[128];
	struct elf_object *object = NULL;
	struct gate_error err = GATE_ERROR_INIT;
	FILE *self = fopen("/proc/self/exe", "rb");
	char bytes[200];
	int fd = mkstemp(path);

	CHECK(self != NULL && fd >= 0);
	CHECK(self != NULL && fread(bytes, 1, sizeof(bytes), self) == sizeof(bytes));
	CHECK(fd >= 0 && write(fd, bytes, sizeof(bytes)) == (ssize_t)sizeof(bytes));
	if (fd >= 0)
		close(fd);
	CHECK(elf_object_open(path, &object, &err) == -1);
	CHECK(object == NULL);
	snprintf(expected, sizeof(expected), "'%s': the section header table is out of the file", path);
	CHECK_STR(err.message, expected);
	unlink(path);
	if (self != NULL)
		fclose(self);
}

/* The dynamic section of tests/fixtures/elf/NAME is refused with "cannot read 'F': WHY", and
 * nothing half-read is handed back. */
static void check_dynamic_refused(const char *name, const char *why)
{
	char path[512], expected[1024];
	struct elf_object *object;
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	snprintf(path, sizeof(path), "%s/elf/%s", FIXTURE_DIR, name);
	snprintf(expected, sizeof(expected), "cannot read '%s': %s", path, why);
	object = open_or_null(path);
	CHECK(object != NULL);
	if (object == NULL)
		return;
	CHECK(elf_object_dynamic(object, &dynamic, &err) == -1);
	CHECK_STR(err.message, expected);
	CHECK(dynamic.needed == NULL && dynamic.needed_count == 0 && dynamic.runpath == NULL &&
	      dynamic.rpath == NULL);
	elf_object_close(object);
}

/* needed-offset-wraps.so: tests/fuzz/corpus/elf/library-64-bit with its DT_NEEDED name at offset
 * 0xffffffffffffff00 of the string table (fuzz_elf found the pointer arithmetic overflowing
 * there). */
static void a_name_offset_past_the_string_table_should_be_refused(void)
{
	check_dynamic_refused("needed-offset-wraps.so",
			      "a name of its dynamic section is out of its string table");
}

/* dynamic-offset-moved.so: library-64-bit with its PT_DYNAMIC's file offset moved past its
 * DT_NEEDED entry while its address stays: the loader reads the entry at the address, so a
 * reader of the offset would miss the library. */
static void a_dynamic_segment_whose_offset_and_address_disagree_should_be_refused(void)
{
	check_dynamic_refused("dynamic-offset-moved.so", "its dynamic segment is not where its address says");
}

static void a_cache_should_be_refused_unless_it_is_ldconfigs_and_bounded_when_it_lies(void)
{
	struct elf_ldcache cache = ELF_LDCACHE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct elf_object *self = open_or_null("/proc/self/exe");
	char path[] = "/tmp/costgate-ldcache-XXXXXX", header[48] = "glibc-ld.so.cache1.1";
	uint32_t lie = 1000000;
	int fd;

	CHECK(elf_ldcache_read(FIXTURE("nothing"), &cache, &err) == 0);
	CHECK(cache.bytes == NULL);
	CHECK(self != NULL && elf_ldcache_find(&cache, "libc.so.6", self) == NULL);
	CHECK(elf_ldcache_read(FIXTURE("notelf"), &cache, &err) == -1);
	CHECK_STR(err.message, "cannot read the loader's cache '" FIXTURE("notelf") "': not "
		  "ldconfig's format \"glibc-ld.so.cache1.1\"");
	CHECK(cache.bytes == NULL);
	/* A header that counts a million entries in a file that has none. */
	memcpy(header + 20, &lie, sizeof(lie));
	fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, header, sizeof(header)) == (ssize_t)sizeof(header));
	if (fd >= 0)
		close(fd);
	err = (struct gate_error)GATE_ERROR_INIT;
	CHECK(elf_ldcache_read(path, &cache, &err) == 0);
	CHECK(self != NULL && elf_ldcache_find(&cache, "libc.so.6", self) == NULL);
	elf_ldcache_release(&cache);
	elf_ldcache_release(NULL);
	elf_object_close(self);
	unlink(path);
}

int main(void)
{
	RUN(open_should_read_this_executable);
	RUN(build_id_should_name_the_c_librarys_debug_file);
	RUN(a_32_bit_library_should_be_read_and_its_run_path_searched_for_32_bit_files);
	RUN(the_cache_should_give_what_ldconfig_wrote_for_the_objects_class);
	RUN(a_library_without_a_run_path_should_inherit_the_programs_rpath);
	RUN(a_cpu_subdirectory_of_the_run_path_should_come_first);
	RUN(a_library_should_inherit_the_rpath_of_each_object_above_it);
	RUN(origin_should_be_the_directory_a_library_was_found_in);
	RUN(the_last_of_two_run_paths_should_count);
	RUN(open_should_name_a_file_that_is_not_elf_or_missing);
	RUN(a_truncated_file_should_be_refused_for_its_tables_out_of_the_file);
	RUN(a_name_offset_past_the_string_table_should_be_refused);
	RUN(a_dynamic_segment_whose_offset_and_address_disagree_should_be_refused);
	RUN(a_cache_should_be_refused_unless_it_is_ldconfigs_and_bounded_when_it_lies);
	return CHECK_EXIT();
}
