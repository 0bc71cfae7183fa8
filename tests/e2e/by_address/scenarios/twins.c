/* Test fixture: two static functions of one name in two files (lib/twins_a.c, lib/twins_b.c). */
#include "scenario.h"

BY_ADDRESS_SCENARIO("twins", "two static functions of one name", twins_a(message, length) ^
		    twins_b(message, length));
