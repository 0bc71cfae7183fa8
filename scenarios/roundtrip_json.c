/* roundtrip_json: a ~300-byte JSON order parsed with cJSON, one field added, printed back
 * unformatted, everything freed: the read-modify-write a gateway does. Its allocations (a node
 * per value, the printer's growing buffer) are the ones glibc malloc's own state would make
 * depend on N without the malloc pin (docs/reliability.md). */
#include <cjson/cJSON.h>
#include <string.h>

#include <costgate/harness.h>

static size_t body(unsigned char *buffer, size_t capacity)
{
	static const char order[] =
		"{\"id\":1048577,\"account\":\"ACC-0042-7781\",\"symbol\":\"ACME\",\"side\":\"buy\","
		"\"type\":\"limit\",\"quantity\":250,\"price\":101.25,\"stop\":99.5,"
		"\"time_in_force\":\"day\",\"venue\":\"XNAS\",\"flags\":[\"post_only\",\"hidden\"],"
		"\"legs\":[{\"symbol\":\"ACME\",\"ratio\":1},{\"symbol\":\"ACMF\",\"ratio\":-2}],"
		"\"client\":{\"name\":\"desk seven\",\"region\":\"emea\",\"limit\":1500000.75},"
		"\"note\":\"rebalance\"}";

	if (sizeof(order) - 1 > capacity)
		return 0;
	memcpy(buffer, order, sizeof(order) - 1);
	return sizeof(order) - 1;
}

static int handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	cJSON *root = cJSON_ParseWithLength((const char *)body, length);
	char *printed = NULL;
	int status = -1;

	(void)service;
	if (root == NULL || cJSON_AddStringToObject(root, "status", "accepted") == NULL)
		goto out;
	printed = cJSON_PrintUnformatted(root);
	if (printed == NULL || printed[0] != '{')
		goto out;
	COSTGATE_KEEP(printed[1]);
	status = 0;
out:
	cJSON_free(printed);
	cJSON_Delete(root);
	return status;
}

const struct costgate_scenario costgate_scenario = {
	.name = "roundtrip_json",
	.title = "consume a 300 B JSON order, add a field, print it unformatted, free",
	.gated = true,
	/* DHAT under the region at 1/1000/2000 deliveries: 73 / 73000 / 146000 blocks, so 73 per
	 * message (a node per value, a copy per key and string, the added field, the printer's
	 * buffer) and 73 cold: the service has no state of its own. */
	.steady_allocations = 73,
	.cold_allocations = 73,
	.body = body,
	.handle = handle,
};
