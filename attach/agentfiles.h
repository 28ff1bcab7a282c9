/*
 * agentfiles: what sits at the two paths the agent (libjmap.so) uses in a
 * JVM's /tmp: its perf map (perf-NSPID.map) and its probe control socket
 * (.mixprof-jmap-NSPID). Any user may create files in /tmp, so another
 * user can take either path first; the agent then refuses the file, as
 * it must, and runs without a map or without probes. mixprof looks first
 * and names the file, what is wrong with it and what to do, instead of
 * leaving the user with [unknown] frames or a missing socket.
 *
 * Nothing here opens the file: lstat only (a FIFO cannot block us, a link
 * is not followed).
 */
#ifndef MIXPROF_AGENTFILES_H
#define MIXPROF_AGENTFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

enum agentfile {
	AGENTFILE_MAP, /* /tmp/perf-NSPID.map */
	AGENTFILE_SOCKET, /* /tmp/.mixprof-jmap-NSPID */
};

/*
 * Why the agent of a JVM running as jvm_uid refuses a file with stat st
 * at kind's path ("is a symbolic link", "belongs to uid 1001 (bob), not
 * to the JVM's user uid 0 (root)"...) into why; false when it would take
 * it. Pure but for user names (getpwuid_r).
 */
bool agentfile__refused(enum agentfile kind, const struct stat *st,
			uid_t jvm_uid, char *why, size_t whylen);

/*
 * Look at kind's path for host process pid. 1 when something is there
 * that the agent refuses: msg holds "PATH WHY" (PATH as the JVM sees it);
 * 0 when nothing is there (*present false) or a file the agent takes
 * (*present true); -errno (no such process, /proc unreadable).
 */
int agentfile__check(pid_t pid, enum agentfile kind, bool *present, char *msg,
		     size_t msglen);

#endif
