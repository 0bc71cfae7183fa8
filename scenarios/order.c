/* The order message: one generator, one decode. */
#include "order.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

size_t order_body(unsigned char *buffer, size_t capacity, size_t target)
{
	static const char head[] = "{\"id\":1048577,\"quantity\":250,\"symbol\":\"ACME\","
				   "\"side\":\"buy\",\"price\":101.25,\"note\":\"";
	static const char tail[] = "\"}";
	size_t fixed = sizeof(head) - 1 + sizeof(tail) - 1;
	size_t i;

	if (target > capacity || target < fixed)
		return 0;
	memcpy(buffer, head, sizeof(head) - 1);
	for (i = sizeof(head) - 1; i < target - (sizeof(tail) - 1); i++)
		buffer[i] = (unsigned char)('a' + i % 26);
	memcpy(buffer + i, tail, sizeof(tail) - 1);
	return target;
}

static int read_integer(const cJSON *root, const char *key, int64_t *value)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);

	if (!cJSON_IsNumber(item))
		return -1;
	*value = (int64_t)item->valuedouble;
	return 0;
}

int order_decode(struct order *order, const unsigned char *body, size_t length)
{
	cJSON *root = cJSON_ParseWithLength((const char *)body, length);
	const cJSON *symbol;
	int status = -1;

	if (root == NULL)
		return -1;
	symbol = cJSON_GetObjectItemCaseSensitive(root, "symbol");
	if (read_integer(root, "id", &order->id) != 0 ||
	    read_integer(root, "quantity", &order->quantity) != 0 || !cJSON_IsString(symbol) ||
	    strlen(symbol->valuestring) >= sizeof(order->symbol))
		goto out;
	strcpy(order->symbol, symbol->valuestring);
	status = 0;
out:
	cJSON_Delete(root);
	return status;
}

int order_handle(struct costgate_service *service, const unsigned char *body, size_t length)
{
	struct order order;

	(void)service;
	if (order_decode(&order, body, length) != 0)
		return -1;
	COSTGATE_KEEP(order.quantity);
	return 0;
}
