/* Code that can tell a measured run from another, read from a scenario's objects (the executable
 * and the project libraries program_objects lists): a reviewer's call, never a failure alone
 * (docs/threat-model.md, "Red flags"). The second opinion (crosscheck.h) catches a program keyed
 * on what gate controls; what it cannot is a program that detects valgrind itself or names
 * costgate's own channels, and these are the ways to:
 *   - imports of personality, getauxval, ptrace and prctl;
 *   - cpuid and rdtsc (rdtscp) instructions, from objdump's disassembly;
 *   - strings naming /proc/self/maps, status or cmdline, valgrind or callgrind, LD_BIND_NOW or
 *     GLIBC_TUNABLES, and in a library (the executable holds the harness's own) costgate's
 *     options: --phases, --snapshots, --describe, --count-allocations. */
#ifndef GATE_TELLTALES_H
#define GATE_TELLTALES_H

#include "error.h"

/* What the objects of the executable at `path` hold, "; "-joined into *text (owned; NULL when
 * nothing): "libparse.so imports personality; libparse.so holds \"/proc/self/maps\"". Returns 0,
 * or -1 with err when an object cannot be read or out of memory. */
int telltales_find(const char *path, char **text, struct gate_error *err);

#endif
