/* Test fixture: a function inlined across units by -flto (lib/lto_sum.c, lib/lto_checksum.c). */
#include "scenario.h"

BY_ADDRESS_SCENARIO("lto", "a function inlined across units by -flto",
		    lto_checksum(message, length));
