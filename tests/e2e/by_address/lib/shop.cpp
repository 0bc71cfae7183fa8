// A C++ member defined on its class's line, inlined into the extern "C" function that calls it.
// The test gives add more rounds.
#include <map>

#include "by_address.h"

#define ADD_ROUNDS 1

namespace shop {
struct Index { std::map<int, int> counts; int add(int key) { int extra = 0; for (int r = 0; r < ADD_ROUNDS * 40; r++) extra += (key * 7 + r) % 13; counts[key & 63] += extra; return static_cast<int>(counts.size()); } };
} // namespace shop

extern "C" int shop_add(int key)
{
	static shop::Index index;

	return index.add(key);
}
