/* What a scenario executable may not contain, checked in its ELF file before it is measured: a
 * second function with the measured region's name (callgrind's --toggle-collect would switch
 * collection on every one of them, or off inside the wrong one) and valgrind client requests
 * (code that knows it runs under valgrind can skip or hide work). The executable is read, and
 * every shared library it may load from outside the system's directories: its DT_NEEDED ones
 * (by an absolute path too), every library in its run path's directories (dlopen by soname
 * finds them there), and after the runs every object valgrind reports. The region's name is
 * looked for in every symbol table valgrind reads: .symtab, .dynsym and a separate debug file's. */
#ifndef GATE_PROGRAM_H
#define GATE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The instruction sequence valgrind.h puts before every client request on amd64:
 * rolq $3,%rdi; rolq $13,%rdi; rolq $61,%rdi; rolq $51,%rdi (valgrind's "special preamble"). */
#define PROGRAM_AMD64_PREAMBLE "\x48\xc1\xc7\x03\x48\xc1\xc7\x0d\x48\xc1\xc7\x3d\x48\xc1\xc7\x33"
#define PROGRAM_AMD64_PREAMBLE_SIZE 16
/* The same on 32-bit x86: roll $3,%edi; roll $13,%edi; roll $29,%edi; roll $19,%edi. An object
 * of another machine is searched for the amd64 sequence (valgrind's preambles for other
 * machines are not known here). */
#define PROGRAM_X86_PREAMBLE "\xc1\xc7\x03\xc1\xc7\x0d\xc1\xc7\x1d\xc1\xc7\x13"
#define PROGRAM_X86_PREAMBLE_SIZE 12

/* Checks the executable at `path`: exactly one function named `region` among it and its libraries
 * from its run path, and no client-request preamble in any of them. Returns 0, or -1 with err
 * naming the file and the symbol or address (a measurement failure). */
int program_check(const char *path, const char *region, struct gate_error *err);

/* The objects program_check reads for the executable at `path` (itself first; real paths,
 * owned, in *objects), without checking them: what the seal hashes beside what the loader maps
 * at start. Returns 0, or -1 with err (a file that cannot be read or is not ELF). */
int program_objects(const char *path, char ***objects, size_t *count, struct gate_error *err);

/* After the runs: every object valgrind reports the program loaded (callgrind's ob= and cob=
 * lines, DHAT's frames' objects, in the files `outputs`; NULL entries skipped) that is not the
 * system's is checked as program_check checks the executable's, together with it: a library
 * opened with dlopen from anywhere, once its code ran in the region or allocated. Returns 0, or
 * -1 with err naming the file (a measurement failure). */
int program_check_reported(const char *path, const char *const *outputs, size_t output_count,
			   const char *region, struct gate_error *err);

#endif
