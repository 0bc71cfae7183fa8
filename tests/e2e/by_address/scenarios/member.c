/* Test fixture: a C++ member defined in its class (lib/shop.cpp). Its map's one node is
 * allocated by the first message: the cold run's one block. */
#include "scenario.h"

BY_ADDRESS_SCENARIO("member", "a C++ member defined in its class",
		    shop_add((int)length + message[0]), .cold_allocations = 1);
