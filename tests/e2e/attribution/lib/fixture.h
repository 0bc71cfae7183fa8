#ifndef FIXTURE_H
#define FIXTURE_H

#include <stddef.h>

unsigned fixture_parse(const char *text, size_t length);
size_t fixture_count(const char *text);
unsigned fixture_spin(unsigned rounds);
int fixture_allocate(size_t size);

#endif
