/*
 * procinfo: what mixprof needs to know about another process before it
 * touches it: whether it is a HotSpot JVM worth attaching (its maps), its
 * own pid, and paths as it sees them (inside its root). /proc is read and
 * parsed by common/procfs.h (struct procfs_status, procfs__read_status).
 */
#ifndef MIXPROF_PROCINFO_H
#define MIXPROF_PROCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "common/procfs.h"

/*
 * 1 when PID maps libjvm.so, 0 when it does not, -ESRCH when there is no
 * such process, -errno (e.g. -EACCES) when its maps cannot be read.
 */
int procinfo__is_jvm(pid_t pid);

/* procinfo__is_jvm() == 1, for callers that only want yes or no. */
bool procinfo__jvm(pid_t pid);

/* The pid PID has inside its own pid namespace, or -errno. */
int procinfo__nspid(pid_t pid);

/*
 * Open path as a process sees it: relative to rootfd (its /proc/PID/root,
 * opened O_PATH), with ".." and absolute symlinks kept inside that root.
 * Returns an fd (O_CLOEXEC added) or -errno.
 */
int procinfo__open_in_root(int rootfd, const char *path, int flags,
			   mode_t mode);

/* Process pid's /tmp as it sees it (O_PATH directory, resolved inside its
 * root as above), or -errno. */
int procinfo__open_tmp(pid_t pid);

#endif
