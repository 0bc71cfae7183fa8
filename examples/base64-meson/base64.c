#include "base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encoded_length(size_t length)
{
	return (length + 2) / 3 * 4;
}

size_t base64_encode(const unsigned char *in, size_t length, char *out, size_t capacity)
{
	size_t needed = base64_encoded_length(length), i = 0, o = 0;

	if (capacity < needed + 1)
		return 0;
	for (; i + 3 <= length; i += 3) {
		unsigned long v = (unsigned long)in[i] << 16 | (unsigned long)in[i + 1] << 8 | in[i + 2];

		out[o++] = alphabet[(v >> 18) & 63];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = alphabet[(v >> 6) & 63];
		out[o++] = alphabet[v & 63];
	}
	if (i < length) {
		unsigned long v = (unsigned long)in[i] << 16;

		if (i + 1 < length)
			v |= (unsigned long)in[i + 1] << 8;
		out[o++] = alphabet[(v >> 18) & 63];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < length ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}
