/* Test-only evasion: the work of each message is skipped when evasion_skip() (a library's client
 * request) says valgrind is there. How the library is loaded is the build's choice:
 * LOAD_BY_NAME dlopens it by file name (found through the run path), LOAD_BY_PATH by its absolute
 * path, and without either the executable links it (DT_NEEDED by absolute path). The scenario's
 * name is the including file's (SCENARIO_NAME). gate must read the library and fail (exit 3). */
#include <dlfcn.h>

#include "harness.h"
#include "unseen_work.h"

#if defined(LOAD_BY_NAME) || defined(LOAD_BY_PATH)
static int (*evasion_skip)(void);
#else
int evasion_skip(void);
#endif

static int start(struct service *service)
{
	service->state = NULL;
#if defined(LOAD_BY_NAME) || defined(LOAD_BY_PATH)
#ifdef LOAD_BY_NAME
	void *library = dlopen("libevasion_skip.so", RTLD_NOW);
#else
	void *library = dlopen(LOAD_BY_PATH, RTLD_NOW);
#endif

	if (library == NULL)
		return -1;
	*(void **)&evasion_skip = dlsym(library, "evasion_skip");
	if (evasion_skip == NULL)
		return -1;
#endif
	return 0;
}

static int handle(struct service *service, const unsigned char *message, size_t length)
{
	(void)service;
	if (!evasion_skip())
		COSTGATE_KEEP(checksum(message, length));
	return 0;
}

TEST_ONLY_SCENARIO(SCENARIO_NAME, "a library tells it to skip its work under valgrind",
		   .start = start, .handle = handle);
