#!/usr/bin/env bash
# The ELF files test_elf_object reads, made by the real toolchain into DIR:
#   libthirtytwo.so.1   32-bit x86 library, DT_RUNPATH $ORIGIN/wrong:$ORIGIN/dep, needs libdep32.so.1
#   dep/libdep32.so.1   32-bit, the one the loader takes
#   wrong/libdep32.so.1 64-bit of the same name, earlier in the run path (the loader passes it over)
#   cached/libcached.so.1   64-bit, in no run path: only ld.so.cache names it
#   ld.so.cache         written by ldconfig from a configuration naming cached/ and dep/
#   inherit/libmid.so.1, inherit/libleaf.so.1, user: user has DT_RPATH $ORIGIN/inherit and needs
#                       libmid, which has no run path and needs libleaf (found through user's)
#   libasks32.so.1      32-bit, defines costgate_measured_region and asks valgrind a client
#                       request (valgrind.h's x86 preamble) in it
#   hwuser, hw/libhw.so.1, hw/glibc-hwcaps/x86-64-v2/libhw.so.1: hwuser has DT_RUNPATH $ORIGIN/hw
#                       and defines costgate_measured_region; the loader takes the x86-64-v2 copy,
#                       which defines it too (the plain one does not)
#   chain/chainuser, chain/a/libaa.so.1, chain/b/libbb.so.1, chain/b/libcc.so.1: chainuser has
#                       DT_RPATH $ORIGIN/a, libaa DT_RPATH $ORIGIN/../b, libbb none: libbb finds
#                       libcc only through libaa's, the object that loaded it
#   symuser, sym/libs.so.1 -> ../real/libs.so.1, sym/deps/libd.so.1: symuser (DT_RUNPATH
#                       $ORIGIN/sym) and libd define costgate_measured_region; libs has DT_RUNPATH
#                       $ORIGIN/deps, which the loader takes from the link's directory (sym/), not
#                       the file's (real/, which has no deps/)
#   tworunpaths.so      two DT_RUNPATH entries, $ORIGIN/second then $ORIGIN/first (a DT_NEEDED
#                       entry's tag rewritten): the loader keeps the last
#   notelf              a shell script
# Usage: make_fixtures.sh DIR C_COMPILER LINKER LDCONFIG
set -euo pipefail
dir=$1 cc=$2 ld=$3 ldconfig=$4
rm -rf "$dir"
mkdir -p "$dir/dep" "$dir/wrong" "$dir/cached" "$dir/inherit"
cd "$dir"
printf 'int dep32(int x) { return x + 1; }\n' >dep.c
printf 'int dep32(int);\nint thirtytwo(int x) { return dep32(x) * 2; }\n' >thirtytwo.c
"$cc" -m32 -fPIC -c dep.c -o dep32.o
# A SHA-1 build id, 20 bytes, as GNU ld's --build-id makes by default (lld's default, the linker
# beside clang, is 8 bytes).
"$ld" -m elf_i386 -shared --build-id=sha1 -soname libdep32.so.1 dep32.o -o dep/libdep32.so.1
"$cc" -m32 -fPIC -c thirtytwo.c -o thirtytwo.o
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$ld" -m elf_i386 -shared --build-id=sha1 --enable-new-dtags -soname libthirtytwo.so.1 \
  -rpath '$ORIGIN/wrong:$ORIGIN/dep' thirtytwo.o dep/libdep32.so.1 -o libthirtytwo.so.1
"$cc" -shared -fPIC dep.c -Wl,-soname,libdep32.so.1 -o wrong/libdep32.so.1
printf 'int cached(void) { return 7; }\n' >cached.c
"$cc" -shared -fPIC cached.c -Wl,-soname,libcached.so.1 -o cached/libcached.so.1
printf '%s\n' "$dir/cached" "$dir/dep" >ld.so.conf
"$ldconfig" -X -C ld.so.cache -f ld.so.conf
printf 'int leaf(void) { return 3; }\n' >leaf.c
printf 'int leaf(void);\nint mid(void) { return leaf() + 1; }\n' >mid.c
printf 'int mid(void);\nint main(void) { return mid() == 4 ? 0 : 1; }\n' >user.c
"$cc" -shared -fPIC leaf.c -Wl,-soname,libleaf.so.1 -o inherit/libleaf.so.1
"$cc" -shared -fPIC mid.c -Wl,-soname,libmid.so.1 inherit/libleaf.so.1 -o inherit/libmid.so.1
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" user.c inherit/libmid.so.1 -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/inherit' \
  -Wl,-rpath-link,inherit -o user
printf '#include <valgrind/valgrind.h>\nint costgate_measured_region(void);\nint costgate_measured_region(void) { return RUNNING_ON_VALGRIND; }\n' >asks.c
"$cc" -m32 -fPIC -O1 -c asks.c -o asks32.o
"$ld" -m elf_i386 -shared -soname libasks32.so.1 asks32.o -o libasks32.so.1
mkdir -p hw/glibc-hwcaps/x86-64-v2 chain/a chain/b
printf 'int hw(void) { return 1; }\n' >hw.c
printf 'int hw(void) { return 2; }\nint costgate_measured_region(void);\nint costgate_measured_region(void) { return 0; }\n' >hw2.c
printf 'int hw(void);\nint costgate_measured_region(void);\nint costgate_measured_region(void) { return hw(); }\nint main(void) { return costgate_measured_region() == 2 ? 0 : 1; }\n' >hwuser.c
"$cc" -shared -fPIC hw.c -Wl,-soname,libhw.so.1 -o hw/libhw.so.1
"$cc" -shared -fPIC hw2.c -Wl,-soname,libhw.so.1 -o hw/glibc-hwcaps/x86-64-v2/libhw.so.1
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" hwuser.c hw/libhw.so.1 -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/hw' -o hwuser
printf 'int cc(void) { return 5; }\n' >cc.c
printf 'int cc(void);\nint bb(void) { return cc(); }\n' >bb.c
printf 'int bb(void);\nint aa(void) { return bb(); }\n' >aa.c
printf 'int aa(void);\nint main(void) { return aa() == 5 ? 0 : 1; }\n' >chainuser.c
"$cc" -shared -fPIC cc.c -Wl,-soname,libcc.so.1 -o chain/b/libcc.so.1
"$cc" -shared -fPIC bb.c -Wl,-soname,libbb.so.1 chain/b/libcc.so.1 -o chain/b/libbb.so.1
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" -shared -fPIC aa.c -Wl,-soname,libaa.so.1 chain/b/libbb.so.1 -Wl,--disable-new-dtags \
  -Wl,-rpath,'$ORIGIN/../b' -o chain/a/libaa.so.1
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" chainuser.c chain/a/libaa.so.1 -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/a' \
  -Wl,-rpath-link,chain/b -o chain/chainuser
mkdir -p sym/deps real
printf 'int costgate_measured_region(void);\nint costgate_measured_region(void) { return 1; }\n' >d.c
printf 'int costgate_measured_region(void);\nint s(void) { return costgate_measured_region(); }\n' >s.c
printf 'int s(void);\nint costgate_measured_region(void);\nint costgate_measured_region(void) { return 0; }\nint main(void) { return s() < 0; }\n' >symuser.c
"$cc" -shared -fPIC d.c -Wl,-soname,libd.so.1 -o sym/deps/libd.so.1
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" -shared -fPIC s.c -Wl,-soname,libs.so.1 sym/deps/libd.so.1 -Wl,--enable-new-dtags \
  -Wl,-rpath,'$ORIGIN/deps' -o real/libs.so.1
ln -s ../real/libs.so.1 sym/libs.so.1
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" symuser.c real/libs.so.1 -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/sym' \
  -Wl,-rpath-link,sym/deps -o symuser
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" -shared -fPIC cc.c -Wl,-soname,'$ORIGIN/second' -o second.so
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$cc" -shared -fPIC bb.c second.so -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/first' \
  -o tworunpaths.so
python3 - tworunpaths.so <<'PATCH'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
phoff, = struct.unpack_from("<Q", data, 0x20)
phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
for i in range(phnum):
    kind, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
    if kind == 2:  # PT_DYNAMIC
        for at in range(offset, offset + size, 16):
            tag, = struct.unpack_from("<q", data, at)
            if tag == 1:  # the DT_NEEDED of second.so becomes a DT_RUNPATH (29)
                struct.pack_into("<q", data, at, 29)
                break
open(path, "wb").write(data)
PATCH
printf '#!/bin/sh\necho not a program\n' >notelf
rm -f ./*.c ./*.o
