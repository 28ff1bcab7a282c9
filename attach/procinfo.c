/*
 * procinfo: is a process a JVM, its own pid, paths inside its root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "procinfo.h"

int procinfo__is_jvm(pid_t pid)
{
	const char *p, *end;
	struct procfs_map m;
	size_t len;
	char *buf;
	int found = 0, r;

	if (pid <= 0)
		return -ESRCH;
	r = procfs__read_pid(pid, "maps", PROCFS_MAPS_MAX, &buf, &len);
	if (r)
		return r;
	/* r < 0: a line that does not parse, skipped */
	for (p = buf, end = buf + len;
	     !found && (r = procfs__maps_next(&p, end, &m));)
		found = r > 0 && procfs__map_is(&m, "libjvm.so");
	free(buf);
	return found;
}

bool procinfo__jvm(pid_t pid)
{
	return procinfo__is_jvm(pid) == 1;
}

int procinfo__nspid(pid_t pid)
{
	struct procfs_status st;
	int err = pid > 0 ? procfs__read_status(pid, &st) : -ESRCH;

	return err ? err : st.nspid;
}

int procinfo__open_in_root(int rootfd, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
	    .flags = flags | O_CLOEXEC,
	    .mode = flags & O_CREAT ? mode : 0,
	    .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	while (*path == '/')
		path++;
	fd =
	    syscall(SYS_openat2, rootfd, *path ? path : ".", &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

int procinfo__open_tmp(pid_t pid)
{
	char path[64];
	int rootfd, fd;

	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	rootfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	fd = procinfo__open_in_root(rootfd, "/tmp", O_PATH | O_DIRECTORY, 0);
	close(rootfd);
	return fd;
}
