/* Two helpers defined on one line, both inlined into lib_checksum. The test doubles sum_b's
 * rounds. */
#include "by_address.h"

#define SUM_B_ROUNDS 1

static inline unsigned sum_a(const unsigned char *v, size_t n) { unsigned s = 0; size_t i; for (i = 0; i < n; i++) s = s * 31u + v[i]; return s; } static inline unsigned sum_b(const unsigned char *v, size_t n) { unsigned s = 7; size_t i, r; for (r = 0; r < SUM_B_ROUNDS; r++) for (i = 0; i < n; i++) s = (s ^ v[i]) * 37u + (unsigned)r; return s; }

__attribute__((noinline)) unsigned lib_checksum(const unsigned char *bytes, size_t length)
{
	return sum_a(bytes, length) + sum_b(bytes, length);
}
