/* parse_query: decode a whole query into one heap block, read a value, free it: one
 * allocation per message, made by qs_query_parse. */
#include <stdlib.h>
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
	struct qs_query *parsed;
	const char *page;

	(void)service;
	parsed = qs_query_parse((const char *)body, length);
	if (parsed == NULL)
		return -1;
	page = qs_query_get(parsed, "page");
	if (page == NULL) {
		qs_query_free(parsed);
		return -1;
	}
	COSTGATE_KEEP(page[0]);
	qs_query_free(parsed);
	return 0;
}

const struct costgate_scenario costgate_scenario = {
	.name = "parse_query",
	.title = "decode a 152-byte query into one block, read a value, free it",
	.gated = true,
	.steady_allocations = 1,
	.cold_allocations = 1,
	.body = body,
	.handle = handle,
};
