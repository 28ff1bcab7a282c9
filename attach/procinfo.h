/*
 * procinfo: what mixprof needs to know about another process before it
 * touches it, read from /proc/PID (status, maps). Used by the attacher and
 * by the profiler to decide whether a PID is a HotSpot JVM worth attaching.
 *
 * The parsers take text so unit tests can feed them fixtures; the
 * procinfo_read_* wrappers add the /proc I/O.
 */
#ifndef MIXPROF_PROCINFO_H
#define MIXPROF_PROCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct proc_status {
	char name[64]; /* "Name:" (comm), for messages */
	pid_t nspid; /* innermost NStgid: the pid the JVM sees */
	uid_t euid; /* second field of "Uid:" */
	gid_t egid; /* second field of "Gid:" */
	char state; /* "State:" letter: R, S, T (stopped), Z... */
	bool quit_caught; /* SIGQUIT has a handler (SigCgt, signal 3) */
};

/*
 * Parse the text of /proc/PID/status. Returns 0, or -EINVAL when Uid:,
 * Gid: or Tgid:/NStgid: is missing or malformed. Kernels without NStgid
 * (before 4.1) give nspid = Tgid, which is right when there is no pid
 * namespace and the best we can do otherwise.
 */
int procinfo_parse_status(const char *text, struct proc_status *st);

/* True when one line of /proc/PID/maps maps HotSpot's libjvm.so. */
bool procinfo_maps_line_is_libjvm(const char *line);

/* Read and parse /proc/PID/status: 0, -ESRCH (no such process), -errno. */
int procinfo_read_status(pid_t pid, struct proc_status *st);

/*
 * 1 when PID maps libjvm.so, 0 when it does not, -ESRCH when there is no
 * such process, -errno (e.g. -EACCES) when its maps cannot be read.
 */
int procinfo_is_jvm(pid_t pid);

/* procinfo_is_jvm() == 1, for callers that only want yes or no. */
bool proc_is_jvm(pid_t pid);

/* The pid PID has inside its own pid namespace, or -errno. */
int proc_nspid(pid_t pid);

/*
 * Open path as a process sees it: relative to rootfd (its /proc/PID/root,
 * opened O_PATH), with ".." and absolute symlinks kept inside that root.
 * Returns an fd (O_CLOEXEC added) or -errno.
 */
int procinfo_open_in_root(int rootfd, const char *path, int flags, mode_t mode);

/* Process pid's /tmp as it sees it (O_PATH directory, resolved inside its
 * root as above), or -errno. */
int procinfo_open_tmp(pid_t pid);

#endif
