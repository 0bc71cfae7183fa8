/* What a scenario executable may not contain, checked in its ELF file before it is measured: a
 * second function with the measured region's name (callgrind's --toggle-collect would switch
 * collection on every one of them, or off inside the wrong one) and valgrind client requests
 * (code that knows it runs under valgrind can skip or hide work). The executable and the shared
 * libraries it loads through its own run path (the project's build tree) are read; libraries
 * found in the system's directories are not. */
#ifndef GATE_PROGRAM_H
#define GATE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The instruction sequence valgrind.h puts before every client request on amd64:
 * rolq $3,%rdi; rolq $13,%rdi; rolq $61,%rdi; rolq $51,%rdi (valgrind's "special preamble"). */
#define PROGRAM_AMD64_PREAMBLE "\x48\xc1\xc7\x03\x48\xc1\xc7\x0d\x48\xc1\xc7\x3d\x48\xc1\xc7\x33"
#define PROGRAM_AMD64_PREAMBLE_SIZE 16

/* Checks the executable at `path`: exactly one function named `region` among it and its libraries
 * from its run path, and no client-request preamble in any of them. Returns 0, or -1 with err
 * naming the file and the symbol or address (a measurement failure). */
int program_check(const char *path, const char *region, struct gate_error *err);

#endif
