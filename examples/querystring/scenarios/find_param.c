/* find_param: split a query and decode the one value the service needs into its own buffer.
 * Nothing is allocated: qs_split and qs_decode work in the caller's memory. */
#include <string.h>

#include <costgate/harness.h>
#include "querystring.h"

static const char query[] =
	"q=cost+gate+for+pull+requests&lang=en&page=3&per_page=50&sort=updated"
	"&order=desc&path=%2Fsrc%2Fparser.c&utm_source=newsletter&utm_campaign=winter%2Bsale";

static size_t body(unsigned char *buffer, size_t capacity)
{
	(void)capacity;
	memcpy(buffer, query, sizeof(query) - 1);
	return sizeof(query) - 1;
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	struct qs_param params[16];
	char path[sizeof(query)];
	int count, i;

	(void)service;
	count = qs_split((const char *)body, length, params, 16);
	for (i = 0; i < count; i++) {
		if (params[i].key_length == 4 && memcmp(params[i].key, "path", 4) == 0) {
			if (qs_decode(path, params[i].value, params[i].value_length) < 0)
				return -1;
			COSTGATE_KEEP(path[0]);
			return 0;
		}
	}
	return -1;
}

const struct costgate_scenario costgate_scenario = {
	.name = "find_param",
	.title = "split a 152-byte query, decode one value in place",
	.gated = true,
	.steady_allocations = 0,
	.cold_allocations = 0,
	.body = body,
	.handle = handle,
};
