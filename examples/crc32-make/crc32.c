/* Table-driven, one byte at a time; the table is made on the first call, nothing is allocated. */
#include "crc32.h"

static unsigned long table[256];
static int table_made;

static void make_table(void)
{
	unsigned long value;
	int n, bit;

	for (n = 0; n < 256; n++) {
		value = (unsigned long)n;
		for (bit = 0; bit < 8; bit++)
			value = value & 1 ? 0xedb88320UL ^ (value >> 1) : value >> 1;
		table[n] = value;
	}
	table_made = 1;
}

unsigned long crc32_update(unsigned long crc, const void *data, size_t length)
{
	const unsigned char *byte = data;
	size_t i;

	if (!table_made)
		make_table();
	crc = crc ^ 0xffffffffUL;
	for (i = 0; i < length; i++)
		crc = table[(crc ^ byte[i]) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffUL;
}
