/* A declaration made in a header and defined in test_debuginfo.c, as the harness header declares
 * `costgate_scenario` and a scenario's source defines it. An installed header is a system header
 * to the compiler (an imported target's include directory), and then gcc writes the definition
 * with no file or line of its own, only a reference to this declaration. */
#pragma GCC system_header
extern int debuginfo_declared_variable;
