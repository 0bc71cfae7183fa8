/* `gate manifest --output-dir DIR EXE...`: writes DIR/manifest.txt for a build without CMake
 * (plain Make, Meson, ...), the file costgate_add_scenarios() writes in a CMake build. */
#ifndef GATE_CMD_MANIFEST_H
#define GATE_CMD_MANIFEST_H

#include "command.h"

/* Exit codes: 0, or 2 (usage, an executable or flags refused, an unknown compiler, the
 * manifest cannot be written). */
extern const struct command manifest_command;

#endif
