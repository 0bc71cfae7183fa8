/* The domain every JSON scenario shares: an order message, its one body generator and its
 * decode. consume_json and decode_only call the same code, so their difference is the harness. */
#ifndef COSTGATE_ORDER_H
#define COSTGATE_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include <costgate/harness.h>

struct order {
	int64_t id;
	int64_t quantity;
	char symbol[16];
};

/* Writes an order as JSON of exactly `target` bytes (padded with a note field) into `buffer`.
 * The same bytes on every call. Returns the length, or 0 when `target` cannot be met. */
size_t order_body(unsigned char *buffer, size_t capacity, size_t target);

/* Decodes a JSON body into `order` with cJSON. Returns 0, or -1 when a field is missing or has
 * the wrong type. Allocates only inside cJSON, and frees all of it before returning. */
int order_decode(struct order *order, const unsigned char *body, size_t length);

/* The handler of consume_json and of its raw counterpart: decode, read a field through a
 * compiler barrier so the decode cannot be optimized away. */
int order_handle(struct costgate_service *service, const unsigned char *body, size_t length);

#endif
