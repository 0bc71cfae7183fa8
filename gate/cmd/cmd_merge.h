/* `gate merge FILE...`: combines the results of `gate --shard K/M` runs into the verdict, exit
 * code and reports a single run would give. */
#ifndef GATE_CMD_MERGE_H
#define GATE_CMD_MERGE_H

/* argv[0] is "merge". Returns the exit code. */
int cmd_merge(int argc, char **argv);

#endif
