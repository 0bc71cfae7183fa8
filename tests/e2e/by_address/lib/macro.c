/* Two helpers made by one macro, each instance on its own line, both inlined into lib_macro. The
 * test gives sum_y more rounds. */
#include "by_address.h"

#define SUM_Y_ROUNDS 1

#define SUMMER(name, rounds, factor)                                                  \
	static inline unsigned name(const unsigned char *v, size_t n)                  \
	{                                                                              \
		unsigned s = factor;                                                   \
		size_t i, r;                                                           \
		for (r = 0; r < (rounds); r++)                                         \
			for (i = 0; i < n; i++)                                        \
				s = s * (factor) + v[i] + (unsigned)r;                 \
		return s;                                                              \
	}

SUMMER(sum_x, 1, 31u)
SUMMER(sum_y, SUM_Y_ROUNDS, 37u)

__attribute__((noinline)) unsigned lib_macro(const unsigned char *bytes, size_t length)
{
	return sum_x(bytes, length) ^ sum_y(bytes, length);
}
