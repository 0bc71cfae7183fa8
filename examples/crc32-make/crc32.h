/* CRC-32 (IEEE 802.3, the one zlib and PNG use), incrementally: crc32_update(0, data, n) over
 * the whole input, or chained over its pieces. */
#ifndef CRC32_H
#define CRC32_H

#include <stddef.h>

unsigned long crc32_update(unsigned long crc, const void *data, size_t length);

#endif
