/* Test fixture: two helpers defined on one line (lib/one_line.c). */
#include "scenario.h"

BY_ADDRESS_SCENARIO("one_line", "two helpers defined on one line",
		    lib_checksum(message, length));
