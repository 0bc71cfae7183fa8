/* Base64 (RFC 4648, with padding) into the caller's buffer; nothing is allocated. */
#ifndef BASE64_H
#define BASE64_H

#include <stddef.h>

/* The encoded length of `length` bytes, without a terminating NUL. */
size_t base64_encoded_length(size_t length);

/* Encodes `length` bytes of `in` into `out` and NUL-terminates it. Returns the encoded length,
 * or 0 when `capacity` is shorter than that plus one. */
size_t base64_encode(const unsigned char *in, size_t length, char *out, size_t capacity);

#endif
