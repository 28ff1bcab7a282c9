/*
 * procfs: the one reader of another process's /proc/PID files (stat,
 * status, maps, comm) and the one place that says where its perf map is.
 *
 * The parsers are pure: they take the text and its length (no NUL
 * needed, never read past the end), so unit tests feed fixtures and a
 * target cannot make them overrun. The procfs__read* wrappers add the
 * I/O: every file is opened as what the target controls
 * (common/safefile.h: no link followed, regular file, never blocks) and
 * read up to a size limit, since stat cannot tell a /proc file's size.
 *
 * Errors are negative errno; a process that is gone (its /proc/PID
 * missing) is -ESRCH from the per-pid readers.
 */
#ifndef MIXPROF_COMMON_PROCFS_H
#define MIXPROF_COMMON_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/safename.h"
#include <sys/types.h>

#define PROCFS_SMALL_MAX (64 << 10) /* stat, status, comm: a few KB */
#define PROCFS_MAPS_MAX (64 << 20) /* a maps text bigger is not read */
#define PROCFS_PERF_MAP_DIR "/tmp" /* where JITs write perf-PID.map */

/* /proc/PID/stat, the fields mixprof uses. */
struct procfs_stat {
	char state; /* R, S, D, T, Z (zombie), X (dead)... */
	uint32_t ppid; /* field 4 */
	uint64_t cpu_ticks; /* fields 14 + 15: user and system CPU, ticks */
	uint64_t start_ticks; /* field 22: since boot, in clock ticks */
	/* field 23: the address space's size in bytes, 0 when absent; any
	 * mmap, munmap or exec changes it (a cheap "did its mappings
	 * change?" before reading /proc/PID/maps) */
	uint64_t vsize;
};

/* /proc/PID/status, the fields mixprof uses. */
struct procfs_status {
	char name[64]; /* "Name:" (comm), for messages */
	char state; /* "State:" letter */
	pid_t tgid; /* "Tgid:" */
	pid_t nspid; /* innermost NStgid: the pid the process sees itself
		      * as; Tgid on kernels without it (before 4.1) */
	uid_t euid; /* second field of "Uid:" */
	gid_t egid; /* second field of "Gid:" */
	bool quit_caught; /* SIGQUIT has a handler (SigCgt, signal 3) */
	uint64_t vm_exe_kb, vm_lib_kb; /* "VmExe:", "VmLib:"; 0 if absent */
};

/* One line of /proc/PID/maps. path points into the text (not
 * NUL-terminated: path_len bytes; "" for an anonymous mapping). */
struct procfs_map {
	uint64_t start, end, offset;
	uint64_t dev; /* makedev(major, minor) */
	uint64_t inode;
	char perms[4]; /* "r-xp" */
	const char *path;
	size_t path_len;
};

/*
 * Parse the text of /proc/PID/stat. The comm (field 2) may hold spaces
 * and parentheses: the fields are counted from its last ')'. 0, or
 * -EINVAL when a field up to the start time is missing.
 */
int procfs__parse_stat(const char *text, size_t len, struct procfs_stat *st);

/*
 * Parse the text of /proc/PID/status. 0, or -EINVAL when Tgid:, Uid: or
 * Gid: is missing or malformed.
 */
int procfs__parse_status(const char *text, size_t len,
			 struct procfs_status *st);

/*
 * The next line of maps text at *p (before end), *p moved past it.
 * 1: *m is that line; 0: no line left; -1: the line does not parse (it
 * is skipped: call again for the next one).
 */
int procfs__maps_next(const char **p, const char *end, struct procfs_map *m);

/* Whether m's file (" (deleted)" ignored) has the base name base. */
bool procfs__map_is(const struct procfs_map *m, const char *base);

/*
 * Read a whole file (a /proc file's size is unknown until read) into a
 * NUL-terminated malloc'd *buf of *len bytes, at most max bytes (more is
 * -EFBIG). Opened as what a target controls. 0 or -errno.
 */
int procfs__read(const char *path, size_t max, char **buf, size_t *len);

/*
 * Read /proc/PID/name (name one component: "stat", "maps") as
 * procfs__read does; -ESRCH when the process is gone.
 */
int procfs__read_pid(uint32_t pid, const char *name, size_t max, char **buf,
		     size_t *len);

/* Read and parse /proc/PID/stat or status: 0, -ESRCH, -EINVAL, -errno. */
int procfs__read_stat(uint32_t pid, struct procfs_stat *st);
int procfs__read_status(uint32_t pid, struct procfs_status *st);

/* /proc/PID/comm without its newline into comm (16 bytes). 0 or -errno. */
int procfs__read_comm(uint32_t pid, char *comm);
/*
 * pid's comm as a message shows it: made safe (common/safename.h: a
 * process names itself), "" when unreadable. Returns out, which holds
 * PROCFS_COMM_SHOW bytes.
 */
#define PROCFS_COMM_SHOW SAFENAME_SIZE(16)
const char *procfs__comm_show(uint32_t pid, char *out);
/* true when pid runs (exists and is not a zombie). */
bool procfs__alive(uint32_t pid);
/* The thread group (process) of thread pid: > 0, or -errno. */
int procfs__tgid(uint32_t pid);

/* Clock ticks (start_ticks) as ns. */
uint64_t procfs__ticks_ns(uint64_t ticks);
/* How long pid has run, in ns; 0 when that cannot be read. */
uint64_t procfs__age_ns(uint32_t pid);
/* The same from its stat as read (procfs__read_stat). */
uint64_t procfs__stat_age_ns(const struct procfs_stat *st);

/*
 * The path, as root sees it, of the perf map of process pid whose own
 * pid is nspid: "/proc/PID/root" + map_dir (NULL: PROCFS_PERF_MAP_DIR) +
 * "/perf-NSPID.map". A JIT names its map after the pid it sees, in the
 * /tmp of its own mount namespace. 0, or -ENAMETOOLONG.
 */
int procfs__perf_map_path(char *out, size_t cap, uint32_t pid, uint32_t nspid,
			  const char *map_dir);

#endif
