/* The machine and toolchain a measurement was taken with: the environment block people read,
 * and the fingerprint that decides whether two measurements may be compared at all. */
#ifndef GATE_ENVIRONMENT_H
#define GATE_ENVIRONMENT_H

#include <cjson/cJSON.h>

#include "error.h"

/* The glibc tunable every measured run gets: the baseline string and memory routines, whatever
 * the CPU offers, so a runner with another CPU counts the same instructions. */
#define GATE_DISPATCH_PIN                                                                  \
	"glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX2,-AVX,-FMA,-BMI1,-BMI2,-LZCNT,"  \
	"-MOVBE,-POPCNT,-SSE4_2,-SSE4_1,-SSSE3,-ERMS,-FSRM,-AVX_Fast_Unaligned_Load,"        \
	"-Fast_Unaligned_Copy,-Fast_Unaligned_Load,-Fast_Rep_String"

/* The glibc malloc tunables every measured run gets, so the heap's work per message does not
 * depend on how much was allocated before the region (docs/reliability.md, "A steady heap"):
 * never trim the top of the heap (256 MiB), grow it 64 MiB at a time, and a fixed mmap
 * threshold (32 MiB, the largest glibc takes), which also turns off the dynamic threshold. */
#define GATE_MALLOC_PIN                                                                    \
	"glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864:"             \
	"glibc.malloc.mmap_threshold=33554432"

/* GLIBC_TUNABLES of every measured run: both pins. */
#define GATE_TUNABLES GATE_DISPATCH_PIN ":" GATE_MALLOC_PIN

/* How the figures are counted, when that changed without a change of tool: a baseline counted
 * another way is re-measured, never compared (its fingerprint lacks this or differs). */
#define GATE_METHOD                                                                            \
	"instructions without the C library allocator's, system calls in the region, symbols "    \
	"bound at load, one process per tool with snapshots at 1, N and 2N, the process's exit "  \
	"counted apart, the whole process counted by callgrind"

/* Version of the results and baseline documents gate writes (its own, beside schema 3's). */
#define GATE_SCHEMA_VERSION 1

/* Everything is an owned string; "unknown" when the machine does not say (never guessed). */
struct environment {
	char *cpu;          /* /proc/cpuinfo "model name" */
	char *architecture; /* uname machine, e.g. "x86_64" */
	char *cores;        /* "2 logical" (online processors) */
	char *memory;       /* MemTotal in GiB with one decimal, e.g. "23.5 GiB" */
	char *os;           /* "Linux 6.1.0-18-amd64 (Debian GNU/Linux 12 (bookworm))" */
	char *compiler;     /* as the build's manifest says, e.g. "GNU 12.2.0" */
	char *flags;        /* the scenarios' compile flags from the manifest, e.g. "-O2 -g" */
	char *valgrind;     /* `valgrind --version` without the "valgrind-" prefix, e.g. "3.19.0" */
	char *glibc;        /* the C library's installed package, "libc6 2.36-9+deb12u9" (without
			     * dpkg: gnu_get_libc_version(), "2.36") */
	char *cjson;        /* gate's own JSON library, cJSON_Version(): never the project's */
	char *costgate;     /* the harness the scenarios were built with, as the manifest says
			     * ("0.2.0"); NULL when it does not say */
	char *dispatch_pin; /* GATE_DISPATCH_PIN */
	char *malloc_pin;   /* GATE_MALLOC_PIN; NULL in a fingerprint written before the pin */
	char *cache;        /* CACHE_GEOMETRY, the simulated cache of estimated cycles; NULL in a
			     * fingerprint written before gate measured them, which then compares
			     * equal on this field (it holds no cycles to compare) */
	char *method;       /* GATE_METHOD; NULL in a fingerprint written before it, which then
			     * differs from every fingerprint that has it */
	char *debug_info;   /* what the runs read of the system's debug files (debugview.h); not
			     * part of the fingerprint: it changes no count. NULL when unknown */
	int schema;         /* GATE_SCHEMA_VERSION when collected; as read from a fingerprint */
};

#define ENVIRONMENT_INIT { 0 }

/* Fills every field. `valgrind_path` is the valgrind executable gate runs (its version is asked
 * with an argv, no shell); `compiler` and `flags` come from the manifest. Returns -1 only when
 * out of memory or valgrind cannot be run; unreadable machine facts become "unknown". */
int environment_collect(struct environment *environment, const char *valgrind_path,
			const char *compiler, const char *flags, struct gate_error *err);

/* The `environment` block of results.json: cpu, architecture, cores, memory, os, compiler,
 * valgrind, profile ("-O2 -g, never -march=native"), flags, dispatch_pin, malloc_pin. NULL when
 * out of memory. */
cJSON *environment_to_json(const struct environment *environment);

/* The fingerprint object: schema, valgrind, compiler, flags, glibc, cjson, dispatch_pin,
 * malloc_pin and costgate. Two measurements are comparable exactly when their fingerprints are
 * equal and each scenario they share was built alike (measurement.build). */
cJSON *environment_fingerprint_to_json(const struct environment *environment);

/* Reads a fingerprint object back (every key a string, except schema a number). malloc_pin and
 * costgate may be absent (a baseline measured before they were recorded): they stay NULL, and
 * such a fingerprint is never equal to one that has them. */
int environment_fingerprint_from_json(struct environment *environment, const cJSON *fingerprint,
				      struct gate_error *err);

/* 1 when both fingerprints are equal; otherwise 0 and `difference` (may be NULL) names the first
 * field that differs with both values, e.g. "valgrind: 3.19.0 here, 3.22.0 in the baseline". */
int environment_fingerprint_equal(const struct environment *here, const struct environment *there,
				  char *difference, size_t difference_size);

void environment_release(struct environment *environment); /* NULL-safe */

#endif
