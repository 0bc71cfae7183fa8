/* `gate manifest --output-dir DIR EXE...`: writes DIR/manifest.txt for a build without CMake
 * (plain Make, Meson, ...), the file costgate_add_scenarios() writes in a CMake build. */
#ifndef GATE_CMD_MANIFEST_H
#define GATE_CMD_MANIFEST_H

#include "optlayer.h"

/* argv[0] is "manifest". Returns the exit code. */
int cmd_manifest(int argc, char **argv);

/* Its options, for gate(1) and the completion (optdoc.h). */
extern const struct command_spec manifest_spec;

#endif
