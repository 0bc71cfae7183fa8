/* What valgrind sees of the system's separate debug files. At every start valgrind reads the
 * debug file of each object the program maps, DWARF line tables included, from
 * /usr/lib/debug/.build-id (Debian's libc6-dbg, which the valgrind package recommends, puts the C
 * library's there): about half of a counting run's start-up. The counts need none of it and the
 * attribution needs only the function names, so each counting run can be given, in place of
 * /usr/lib/debug, a directory of copies of those files that keep their symbol tables and drop
 * their DWARF (objcopy --strip-debug): the same names, no line numbers in system libraries, and
 * the same counts to the instruction.
 *
 * The directory replaces /usr/lib/debug inside the run's own user and mount namespaces (a bind
 * mount no other process sees, no privilege needed). Where the system refuses those namespaces,
 * where there is no objcopy, or where no object has a debug file, runs read /usr/lib/debug as it
 * is: slower, the same counts and names. */
#ifndef GATE_DEBUGVIEW_H
#define GATE_DEBUGVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Where the system keeps separate debug files; valgrind looks nowhere else by default. */
#define DEBUGVIEW_SYSTEM_DIRECTORY "/usr/lib/debug"

struct debugview {
	char *directory; /* the symbol-only copies (a .build-id tree), owned; NULL: runs see the
			  * system's directory as it is */
	size_t files;    /* debug files copied into it */
	char *mode;      /* for the environment block: what the runs read, and why; owned */
	bool disabled;   /* asked for the full files (--full-debug-info) */
};

#define DEBUGVIEW_INIT { 0 }

/* Adds the debug files of every object these executables map (packages_objects) to the view,
 * making its directory the first time one is found. Anything that keeps the view from working
 * (no namespaces, no objcopy, a copy that fails) leaves runs reading the system's directory, said
 * in view->mode; only running out of memory is an error. */
int debugview_add(struct debugview *view, char *const *executables, size_t count,
		  struct gate_error *err);

/* The build tree as a run sees it: the directories of the sealed programs read-only (a
 * scenario cannot replace its own executable or a library between the checks of its hashes),
 * and the one directory the runs write (the raw files) writable even inside one of them. */
struct debugview_sealed {
	char *const *read_only; /* absolute directories, NULL-terminated */
	const char *writable;   /* absolute, or NULL */
};

/* In a child about to exec (async-signal-safe calls only): enters new user and mount namespaces,
 * mapping the caller's own uid and gid, mounts `directory` over /usr/lib/debug (unless NULL) and
 * makes `sealed`'s directories read-only (unless NULL). Returns 0, or -1 with errno set. */
int debugview_enter(const char *directory, const struct debugview_sealed *sealed, unsigned uid,
		    unsigned gid);

/* What a run's child enters before it starts: debugview_enter's arguments, for the runner's
 * hook (runner_options.child_enter). */
struct debugview_child {
	const char *directory;                 /* the view's directory, or NULL: the system's */
	const struct debugview_sealed *sealed; /* or NULL: the build tree as it is */
	unsigned uid, gid;                     /* the caller's own */
};

/* A runner_options.child_enter: debugview_enter with a struct debugview_child's arguments; does
 * nothing when it names neither a directory nor a sealed tree. */
int debugview_child_enter(const void *child);

/* Whether a child can enter the namespaces with `sealed` mounted: 0, or the errno of the
 * failure (unprivileged user namespaces refused, say). */
int debugview_probe_sealed(const struct debugview_sealed *sealed);

/* For a signal handler (async-signal-safe calls only): removes the view's directory, if one is
 * made, with rm -rf. */
void debugview_abandon(void);

/* Removes the directory and frees the view. NULL-safe. */
void debugview_release(struct debugview *view);

#endif
