/* libFuzzer target for the ELF module (gate/parse/elf_object.c): any bytes as an ELF file a
 * pull request built, and as the loader's cache. Besides ASan and UBSan, what the module hands
 * back must keep elf_object.h's promises: a refused file says why and gives nothing; a read one
 * has a class of 32 or 64 bits, needed names that are distinct strings, code and symbols whose
 * walks end, a build id in lowercase hex. */
#define _GNU_SOURCE
#include <string.h>

#include "elf_object.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_symbol(const struct elf_symbol *symbol, void *context)
{
	FUZZ_REQUIRE(symbol->name != NULL);
	(*(size_t *)context)++;
	return 0;
}

struct code_walk {
	const struct elf_object *object;
	size_t last_bytes_set; /* read so that a byte out of the file would be a finding */
};

static int visit_code(const unsigned char *bytes, size_t size, uint64_t offset, void *context)
{
	struct code_walk *walk = context;
	uint64_t address;

	FUZZ_REQUIRE(bytes != NULL || size == 0);
	/* The walk hands over bytes of the file only: touching the last one is in bounds. */
	if (size > 0)
		walk->last_bytes_set += bytes[size - 1] == 0xff;
	(void)elf_object_address(walk->object, offset, &address);
	return 0;
}

/* The file as an ELF object: every reader of the module on it. */
static void read_object(const char *path)
{
	struct elf_object *object = NULL;
	struct elf_dynamic dynamic = ELF_DYNAMIC_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	struct code_walk walk = { NULL, 0 };
	char hex[129], *interpreter;
	size_t symbols = 0, i, k;

	if (elf_object_open(path, &object, &err) != 0) {
		FUZZ_REQUIRE(object == NULL && err.message[0] != '\0');
		return;
	}
	FUZZ_REQUIRE(elf_object_bits(object) == 32 || elf_object_bits(object) == 64);
	if (elf_object_dynamic(object, &dynamic, &err) == 0) {
		for (i = 0; i < dynamic.needed_count; i++)
			for (k = i + 1; k < dynamic.needed_count; k++)
				FUZZ_REQUIRE(strcmp(dynamic.needed[i], dynamic.needed[k]) != 0);
	} else {
		FUZZ_REQUIRE(err.message[0] != '\0' && dynamic.needed_count == 0 &&
			     dynamic.runpath == NULL && dynamic.rpath == NULL);
	}
	interpreter = elf_object_interpreter(object);
	free(interpreter);
	if (elf_object_build_id(object, hex, sizeof(hex)))
		FUZZ_REQUIRE(hex[0] != '\0' && strspn(hex, "0123456789abcdef") == strlen(hex));
	(void)elf_object_is_library(object);
	elf_object_each_symbol(object, ELF_SYMBOLS_BOTH, count_symbol, &symbols);
	elf_object_each_symbol(object, ELF_SYMBOLS_SYMTAB_ELSE_DYN, count_symbol, &symbols);
	walk.object = object;
	elf_object_each_code(object, visit_code, &walk);
	(void)elf_object_section_text(object, ".gnu_debuglink");
	elf_dynamic_release(&dynamic);
	elf_object_close(object);
}

/* The file as ldconfig's cache, asked for names by an object of this program's own class. */
static void read_cache(const char *path)
{
	static struct elf_object *self;
	struct elf_ldcache cache = ELF_LDCACHE_INIT;
	char *found;

	if (self == NULL)
		FUZZ_REQUIRE(elf_object_open("/proc/self/exe", &self, NULL) == 0);
	if (elf_ldcache_read(path, &cache, NULL) != 0) {
		FUZZ_REQUIRE(cache.bytes == NULL);
		return;
	}
	found = elf_ldcache_find(&cache, "libc.so.6", self);
	free(found);
	found = elf_ldcache_find(&cache, "libcostgate.so.1", self);
	free(found);
	elf_ldcache_release(&cache);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);

	read_object(path);
	read_cache(path);
	return 0;
}
