/* SHA-256 as FIPS 180-4 gives it, one 64-byte block at a time. */
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotate_right(uint32_t value, unsigned bits)
{
	return (value >> bits) | (value << (32 - bits));
}

static void compress(uint32_t state[8], const unsigned char block[64])
{
	uint32_t schedule[64], a, b, c, d, e, f, g, h;
	size_t i;

	for (i = 0; i < 16; i++)
		schedule[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
			      (uint32_t)block[4 * i + 2] << 8 | (uint32_t)block[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = rotate_right(schedule[i - 15], 7) ^ rotate_right(schedule[i - 15], 18) ^
			      (schedule[i - 15] >> 3);
		uint32_t s1 = rotate_right(schedule[i - 2], 17) ^ rotate_right(schedule[i - 2], 19) ^
			      (schedule[i - 2] >> 10);

		schedule[i] = schedule[i - 16] + s0 + schedule[i - 7] + s1;
	}
	a = state[0], b = state[1], c = state[2], d = state[3];
	e = state[4], f = state[5], g = state[6], h = state[7];
	for (i = 0; i < 64; i++) {
		uint32_t t1 = h + (rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25)) +
			      ((e & f) ^ (~e & g)) + round_constants[i] + schedule[i];
		uint32_t t2 = (rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));

		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	state[0] += a, state[1] += b, state[2] += c, state[3] += d;
	state[4] += e, state[5] += f, state[6] += g, state[7] += h;
}

void sha256_init(struct sha256 *hash)
{
	static const uint32_t initial[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(hash->state, initial, sizeof(initial));
	hash->length = 0;
	hash->used = 0;
}

void sha256_update(struct sha256 *hash, const void *data, size_t size)
{
	const unsigned char *bytes = data;

	hash->length += size;
	while (size > 0) {
		size_t take = sizeof(hash->block) - hash->used;

		if (take > size)
			take = size;
		memcpy(hash->block + hash->used, bytes, take);
		hash->used += take;
		bytes += take;
		size -= take;
		if (hash->used == sizeof(hash->block)) {
			compress(hash->state, hash->block);
			hash->used = 0;
		}
	}
}

void sha256_final(struct sha256 *hash, char hex[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	uint64_t bits = hash->length * 8;
	unsigned char tail[8];
	size_t i;

	hash->block[hash->used++] = 0x80;
	if (hash->used > 56) {
		memset(hash->block + hash->used, 0, sizeof(hash->block) - hash->used);
		compress(hash->state, hash->block);
		hash->used = 0;
	}
	memset(hash->block + hash->used, 0, 56 - hash->used);
	for (i = 0; i < 8; i++)
		tail[i] = (unsigned char)(bits >> (56 - 8 * i));
	memcpy(hash->block + 56, tail, sizeof(tail));
	compress(hash->state, hash->block);
	for (i = 0; i < 32; i++) {
		unsigned char byte = (unsigned char)(hash->state[i / 4] >> (24 - 8 * (i % 4)));

		hex[2 * i] = digits[byte >> 4];
		hex[2 * i + 1] = digits[byte & 15];
	}
	hex[64] = '\0';
}

int sha256_file(const char *path, char hex[SHA256_HEX_SIZE], struct gate_error *err)
{
	unsigned char buffer[65536];
	struct sha256 hash;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return gate_error_set(err, "cannot read '%s': %s", path, strerror(errno));
	sha256_init(&hash);
	while ((got = read(fd, buffer, sizeof(buffer))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int saved = errno;

			close(fd);
			return gate_error_set(err, "cannot read '%s': %s", path, strerror(saved));
		}
		sha256_update(&hash, buffer, (size_t)got);
	}
	close(fd);
	sha256_final(&hash, hex);
	return 0;
}
