/* Test fixture: two helpers made by one macro (lib/macro.c). */
#include "scenario.h"

BY_ADDRESS_SCENARIO("macro", "two helpers made by one macro", lib_macro(message, length));
