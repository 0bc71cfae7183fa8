/* The fixture's libraries: each function is a checksum of a message, written so that a line
 * cannot say which function an instruction is of. */
#ifndef BY_ADDRESS_H
#define BY_ADDRESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

unsigned lib_checksum(const unsigned char *bytes, size_t length);
unsigned lib_macro(const unsigned char *bytes, size_t length);
int shop_add(int key);
unsigned lto_checksum(const unsigned char *bytes, size_t length);
unsigned twins_a(const unsigned char *bytes, size_t length);
unsigned twins_b(const unsigned char *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
