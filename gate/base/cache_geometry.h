/* The cache every machine simulates for estimated cycles (core/metrics.h), whatever its own: 32 KiB
 * 8-way L1 instruction and data caches and an 8 MiB 16-way last level, 64-byte lines, as
 * valgrind's --I1, --D1 and --LL take them. Part of the fingerprint (run/environment.h):
 * estimated cycles compare only under the same geometry. */
#ifndef GATE_CACHE_GEOMETRY_H
#define GATE_CACHE_GEOMETRY_H

#define CACHE_GEOMETRY_I1 "32768,8,64"
#define CACHE_GEOMETRY_D1 "32768,8,64"
#define CACHE_GEOMETRY_LL "8388608,16,64"
#define CACHE_GEOMETRY \
	"I1=" CACHE_GEOMETRY_I1 " D1=" CACHE_GEOMETRY_D1 " LL=" CACHE_GEOMETRY_LL

#endif
