/* SHA-256 against the FIPS 180-4 examples, across block boundaries, and of a file. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sha256.h"

static void digest_of(const char *text, size_t length, char hex[SHA256_HEX_SIZE])
{
	struct sha256 hash;

	sha256_init(&hash);
	sha256_update(&hash, text, length);
	sha256_final(&hash, hex);
}

static void sha256_should_match_the_standard_examples(void)
{
	char hex[SHA256_HEX_SIZE];

	digest_of("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	digest_of("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* A million 'a' fed in uneven pieces: the padding and the length over many blocks. */
static void sha256_should_take_its_input_in_any_pieces(void)
{
	char piece[997], hex[SHA256_HEX_SIZE];
	struct sha256 hash;
	size_t left = 1000000;

	memset(piece, 'a', sizeof(piece));
	sha256_init(&hash);
	while (left > 0) {
		size_t take = left < sizeof(piece) ? left : sizeof(piece);

		sha256_update(&hash, piece, take);
		left -= take;
	}
	sha256_final(&hash, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void sha256_should_hash_a_file_and_say_why_it_cannot(void)
{
	char path[] = "/tmp/test_sha256.XXXXXX", hex[SHA256_HEX_SIZE];
	struct gate_error err = GATE_ERROR_INIT;
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, "abc", 3) == 3);
	close(fd);
	CHECK(sha256_file(path, hex, &err) == 0);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	CHECK(sha256_file(path, hex, &err) != 0);
	CHECK_CONTAINS(err.message, "No such file or directory");
}

int main(void)
{
	return RUN_CASES(sha256_should_match_the_standard_examples,
			 sha256_should_take_its_input_in_any_pieces,
			 sha256_should_hash_a_file_and_say_why_it_cannot);
}
