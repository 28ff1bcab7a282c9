/*
 * procinfo: /proc/PID/status and /proc/PID/maps, parsed from text.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "common/safefile.h"
#include "procinfo.h"

/* /proc files: read as what the target controls (common/safefile.h) */
static const struct safe_in proc_file = {.uid = SAFE_ANY_UID};

/* The value of "Key:" at the start of a line, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != ':')
		return NULL;
	return line + n + 1;
}

/* Field number idx (0-based) of a tab/space separated list, as a long. */
static int nth_number(const char *s, int idx, long *out)
{
	char *end;
	long v;

	for (int i = 0;; i++) {
		while (*s == ' ' || *s == '\t')
			s++;
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno || v < 0)
			return -EINVAL;
		if (i == idx)
			break;
		s = end;
	}
	*out = v;
	return 0;
}

/* The last number of a list: nested pid namespaces list outermost first. */
static int last_number(const char *s, long *out)
{
	long v = -1;
	char *end;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\n' || !*s)
			break;
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno || v <= 0)
			return -EINVAL;
		s = end;
	}
	if (v <= 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Copy the rest of the line (the process name) without the newline. */
static void copy_line(char *dst, size_t size, const char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strcspn(s, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* SigCgt is a hex mask with bit (signo - 1) set for each caught signal. */
static bool sig_in_mask(const char *s, int signo)
{
	unsigned long long mask = strtoull(s, NULL, 16);

	return mask & (1ULL << (signo - 1));
}

int procinfo_parse_status(const char *text, struct proc_status *st)
{
	long tgid = -1, nspid = -1, uid = -1, gid = -1, v;
	const char *line, *val;

	memset(st, 0, sizeof(*st));
	for (line = text; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if ((val = field(line, "Name")))
			copy_line(st->name, sizeof(st->name), val);
		else if ((val = field(line, "State")))
			st->state = val[strspn(val, " \t")];
		else if ((val = field(line, "Tgid")) && !nth_number(val, 0, &v))
			tgid = v;
		else if ((val = field(line, "NStgid")) && !last_number(val, &v))
			nspid = v;
		else if ((val = field(line, "Uid")) && !nth_number(val, 1, &v))
			uid = v;
		else if ((val = field(line, "Gid")) && !nth_number(val, 1, &v))
			gid = v;
		else if ((val = field(line, "SigCgt")))
			st->quit_caught = sig_in_mask(val, SIGQUIT);
	}
	if (nspid < 0)
		nspid = tgid;
	if (nspid <= 0 || uid < 0 || gid < 0)
		return -EINVAL;
	st->nspid = nspid;
	st->euid = uid;
	st->egid = gid;
	return 0;
}

bool procinfo_maps_line_is_libjvm(const char *line)
{
	const char *path = strchr(line, '/');
	const char *base;
	size_t n;

	if (!path)
		return false;
	n = strcspn(path, "\n");
	/* a replaced library shows as "/path/libjvm.so (deleted)" */
	if (n > 10 && !strncmp(path + n - 10, " (deleted)", 10))
		n -= 10;
	for (base = path + n; base > path && base[-1] != '/'; base--)
		;
	return path + n - base == 9 && !strncmp(base, "libjvm.so", 9);
}

/* Read a small /proc file into a NUL-terminated buffer the caller frees. */
static int read_proc_file(pid_t pid, const char *name, char **out)
{
	char path[64];
	size_t len = 0, size = 4096;
	char *buf = NULL, *nbuf;
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = safe_open_in(AT_FDCWD, path, &proc_file);
	if (fd < 0)
		return fd == -ENOENT ? -ESRCH : fd;
	for (;;) {
		if (!buf || len + 1 >= size) {
			nbuf = realloc(buf, buf ? size *= 2 : size);
			if (!nbuf) {
				err = -ENOMEM;
				goto out_close;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno == ESRCH ? -ESRCH : -errno;
			goto out_close;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
out_close:
	free(buf);
	close(fd);
	return err;
}

int procinfo_read_status(pid_t pid, struct proc_status *st)
{
	char *text = NULL;
	int err;

	if (pid <= 0)
		return -ESRCH;
	err = read_proc_file(pid, "status", &text);
	if (err)
		return err;
	err = procinfo_parse_status(text, st);
	free(text);
	return err;
}

int procinfo_is_jvm(pid_t pid)
{
	char path[64], *line = NULL;
	size_t size = 0;
	int found = 0;
	FILE *f;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = safe_fopen_in(AT_FDCWD, path, &proc_file);
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!found && getline(&line, &size, f) > 0)
		found = procinfo_maps_line_is_libjvm(line);
	free(line);
	fclose(f);
	return found;
}

bool proc_is_jvm(pid_t pid)
{
	return procinfo_is_jvm(pid) == 1;
}

int proc_nspid(pid_t pid)
{
	struct proc_status st;
	int err = procinfo_read_status(pid, &st);

	return err ? err : st.nspid;
}

int procinfo_open_in_root(int rootfd, const char *path, int flags, mode_t mode)
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

int procinfo_open_tmp(pid_t pid)
{
	char path[64];
	int rootfd, fd;

	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	rootfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	fd = procinfo_open_in_root(rootfd, "/tmp", O_PATH | O_DIRECTORY, 0);
	close(rootfd);
	return fd;
}
