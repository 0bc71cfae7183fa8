/* SHA-256 (FIPS 180-4), for the seal of the built programs: small enough to keep in gate rather
 * than take a cryptographic library for one digest. */
#ifndef GATE_SHA256_H
#define GATE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define SHA256_HEX_SIZE 65 /* 64 hexadecimal digits and the NUL */

struct sha256 {
	uint32_t state[8];
	uint64_t length; /* bytes hashed so far */
	unsigned char block[64];
	size_t used;     /* bytes waiting in block */
};

void sha256_init(struct sha256 *hash);
void sha256_update(struct sha256 *hash, const void *data, size_t size);
/* The digest as 64 lowercase hexadecimal digits. The hash must be initialised again to reuse. */
void sha256_final(struct sha256 *hash, char hex[SHA256_HEX_SIZE]);

/* The digest of the file at `path`. Returns 0, or -1 with err ("cannot read 'F': ..."). */
int sha256_file(const char *path, char hex[SHA256_HEX_SIZE], struct gate_error *err);

#endif
