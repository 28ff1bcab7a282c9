/*
 * procfs: /proc/PID/{stat,status,maps,comm} parsed from text, and the
 * bounded reads behind them. See procfs.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "common/parse_util.h"
#include "common/safefile.h"
#include "common/procfs.h"
#include "common/nsec.h"

#define STAT_START_FIELD 22

/* The text after "key:" when line (up to end) starts with it, or NULL. */
static const char *field(const char *line, const char *end, const char *key)
{
	size_t n = strlen(key);

	if ((size_t)(end - line) <= n || memcmp(line, key, n) || line[n] != ':')
		return NULL;
	return line + n + 1;
}

/* The idx-th (0-based) blank-separated decimal of [p, end). 0 or -1. */
static int nth_dec(const char *p, const char *end, int idx, uint64_t *out)
{
	for (int i = 0;; i++) {
		parse_util__skip_blanks(&p, end);
		if (parse_util__dec(&p, end, out))
			return -1;
		if (i == idx)
			return 0;
	}
}

/* The last decimal of a list: nested pid namespaces list outermost
 * first. 0 or -1 (none, or a zero). */
static int last_dec(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	for (;;) {
		parse_util__skip_blanks(&p, end);
		if (p == end)
			break;
		if (parse_util__dec(&p, end, &v))
			return -1;
	}
	if (!v)
		return -1;
	*out = v;
	return 0;
}

static void copy_name(char *dst, size_t size, const char *p, const char *end)
{
	size_t n;

	parse_util__skip_blanks(&p, end);
	n = (size_t)(end - p) < size - 1 ? (size_t)(end - p) : size - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/* SigCgt is a hex mask with bit (signo - 1) set for each caught signal. */
static bool sig_in_mask(const char *p, const char *end, int signo)
{
	uint64_t mask = 0;

	parse_util__skip_blanks(&p, end);
	return !parse_util__hex(&p, end, &mask, false) &&
	       mask & (1ULL << (signo - 1));
}

/* A pid or an id: below 2^31 (pid_t, and uid -1 is not an owner). */
static bool id_ok(uint64_t v)
{
	return v < 0x7fffffffULL;
}

/* One line of status text into st; id[] (Tgid, NStgid, Uid, Gid) as
 * found. */
static void status_line(const char *l, const char *le, struct procfs_status *st,
			uint64_t *id)
{
	const char *v;
	uint64_t n;

	if ((v = field(l, le, "Name")))
		copy_name(st->name, sizeof(st->name), v, le);
	else if ((v = field(l, le, "State"))) {
		parse_util__skip_blanks(&v, le);
		st->state = v < le ? *v : 0;
	} else if ((v = field(l, le, "Tgid")) && !nth_dec(v, le, 0, &n))
		id[0] = n;
	else if ((v = field(l, le, "NStgid")) && !last_dec(v, le, &n))
		id[1] = n;
	else if ((v = field(l, le, "Uid")) && !nth_dec(v, le, 1, &n))
		id[2] = n;
	else if ((v = field(l, le, "Gid")) && !nth_dec(v, le, 1, &n))
		id[3] = n;
	else if ((v = field(l, le, "SigCgt")))
		st->quit_caught = sig_in_mask(v, le, SIGQUIT);
	else if ((v = field(l, le, "VmExe")) && !nth_dec(v, le, 0, &n))
		st->vm_exe_kb = n;
	else if ((v = field(l, le, "VmLib")) && !nth_dec(v, le, 0, &n))
		st->vm_lib_kb = n;
}

int procfs__parse_status(const char *text, size_t len, struct procfs_status *st)
{
	/* Tgid, NStgid, Uid, Gid; UINT64_MAX: not seen */
	uint64_t id[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
	const char *p = text, *end = text + len;

	memset(st, 0, sizeof(*st));
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;

		status_line(p, le, st, id);
		p = le + 1;
	}
	if (id[1] == UINT64_MAX)
		id[1] = id[0];
	for (int i = 0; i < 4; i++)
		if (!id_ok(id[i]))
			return -EINVAL;
	if (!id[0] || !id[1])
		return -EINVAL;
	st->tgid = id[0];
	st->nspid = id[1];
	st->euid = id[2];
	st->egid = id[3];
	return 0;
}

int procfs__parse_stat(const char *text, size_t len, struct procfs_stat *st)
{
	const char *p = text + len, *end = p;
	uint64_t v;

	while (p > text && p[-1] != ')') /* the comm may hold ") " itself */
		p--;
	if (p == text || end - p < 3 || *p++ != ' ')
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->state = *p++;
	for (int f = 4; f <= STAT_START_FIELD; f++) {
		if (p == end || *p++ != ' ')
			return -EINVAL;
		/* tpgid, priority, nice may be negative */
		if (p < end && *p == '-')
			p++;
		if (parse_util__dec(&p, end, &v))
			return -EINVAL;
		if (f == 4)
			st->ppid = v > UINT32_MAX ? 0 : (uint32_t)v;
		if (f == 14 || f == 15)
			st->cpu_ticks += v;
	}
	st->start_ticks = v;
	/* vsize: after the start time on every kernel; optional here */
	if (end - p > 1 && *p == ' ') {
		p++;
		if (!parse_util__dec(&p, end, &v))
			st->vsize = v;
	}
	return 0;
}

/* "start-end perms offset major:minor inode   path" */
static int maps_line(const char *p, const char *end, struct procfs_map *m)
{
	uint64_t maj, min;

	if (parse_util__hex(&p, end, &m->start, false) || p >= end ||
	    *p++ != '-' || parse_util__hex(&p, end, &m->end, false) ||
	    p >= end || *p++ != ' ')
		return -1;
	if (end - p < 5 || p[4] != ' ' || m->end <= m->start)
		return -1;
	memcpy(m->perms, p, 4);
	p += 5;
	if (parse_util__hex(&p, end, &m->offset, false) || p >= end ||
	    *p++ != ' ' || parse_util__hex(&p, end, &maj, false) || p >= end ||
	    *p++ != ':' || parse_util__hex(&p, end, &min, false) || p >= end ||
	    *p++ != ' ' || parse_util__dec(&p, end, &m->inode))
		return -1;
	if (maj > 0xfff || min > 0xfffff)
		return -1;
	m->dev = makedev(maj, min);
	parse_util__skip_blanks(&p, end);
	m->path = p;
	m->path_len = end - p;
	return 1;
}

int procfs__maps_next(const char **p, const char *end, struct procfs_map *m)
{
	const char *nl, *le;

	while (*p < end && **p == '\n') /* an empty line is no line */
		(*p)++;
	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', end - *p);
	le = nl ? nl : end;
	m->path = "";
	m->path_len = 0;
	if (maps_line(*p, le, m) < 0) {
		*p = nl ? nl + 1 : end;
		return -1;
	}
	*p = nl ? nl + 1 : end;
	return 1;
}

bool procfs__map_is(const struct procfs_map *m, const char *base)
{
	static const char del[] = " (deleted)";
	size_t n = m->path_len, bn = strlen(base), dn = sizeof(del) - 1;

	/* a replaced library shows as "/path/libjvm.so (deleted)" */
	if (n > dn && !memcmp(m->path + n - dn, del, dn))
		n -= dn;
	return n > bn && m->path[n - bn - 1] == '/' &&
	       !memcmp(m->path + n - bn, base, bn);
}

int procfs__read(const char *path, size_t max, char **buf, size_t *len)
{
	static const struct safe_in proc_file = {.uid = SAFE_ANY_UID};
	int fd = safefile__open_in(AT_FDCWD, path, &proc_file), err = 0;
	size_t cap = 4096, n = 0;
	char *b = NULL, *nb;

	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t r;

		if (!b || cap - n < 2) {
			if (b && cap > max) {
				err = -EFBIG;
				break;
			}
			cap = b ? cap * 2 : cap;
			nb = realloc(b, cap);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		n += r;
	}
	close(fd);
	if (!err && n > max)
		err = -EFBIG;
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int procfs__read_pid(uint32_t pid, const char *name, size_t max, char **buf,
		     size_t *len)
{
	char path[64];
	int err;

	if (!pid || pid > INT32_MAX)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%u/%s", pid, name);
	err = procfs__read(path, max, buf, len);
	return err == -ENOENT ? -ESRCH : err;
}

int procfs__read_stat(uint32_t pid, struct procfs_stat *st)
{
	size_t len;
	char *buf;
	int err = procfs__read_pid(pid, "stat", PROCFS_SMALL_MAX, &buf, &len);

	if (err)
		return err;
	err = procfs__parse_stat(buf, len, st);
	free(buf);
	return err;
}

int procfs__read_status(uint32_t pid, struct procfs_status *st)
{
	size_t len;
	char *buf;
	int err = procfs__read_pid(pid, "status", PROCFS_SMALL_MAX, &buf, &len);

	if (err)
		return err;
	err = procfs__parse_status(buf, len, st);
	free(buf);
	return err;
}

int procfs__read_comm(uint32_t pid, char *comm)
{
	size_t len;
	char *buf;
	int err = procfs__read_pid(pid, "comm", PROCFS_SMALL_MAX, &buf, &len);

	if (err)
		return err;
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(comm, 16, "%.15s", buf);
	free(buf);
	return 0;
}

const char *procfs__comm_show(uint32_t pid, char *out)
{
	char comm[16] = "";

	procfs__read_comm(pid, comm);
	return safename__show(out, PROCFS_COMM_SHOW, comm);
}

bool procfs__alive(uint32_t pid)
{
	struct procfs_stat st;

	return !procfs__read_stat(pid, &st) && st.state != 'Z' &&
	       st.state != 'X';
}

int procfs__tgid(uint32_t pid)
{
	struct procfs_status st;
	int err = procfs__read_status(pid, &st);

	return err ? err : st.tgid;
}

uint64_t procfs__ticks_ns(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return ticks * (NSEC_PER_SEC / (hz > 0 ? (uint64_t)hz : 100));
}

uint64_t procfs__stat_age_ns(const struct procfs_stat *st)
{
	struct timespec now;
	uint64_t start_ns, now_ns;

	if (clock_gettime(CLOCK_BOOTTIME, &now))
		return 0;
	start_ns = procfs__ticks_ns(st->start_ticks);
	now_ns = now.tv_sec * 1000000000ULL + now.tv_nsec;
	return now_ns > start_ns ? now_ns - start_ns : 1;
}

uint64_t procfs__age_ns(uint32_t pid)
{
	struct procfs_stat st;

	return procfs__read_stat(pid, &st) ? 0 : procfs__stat_age_ns(&st);
}

int procfs__perf_map_path(char *out, size_t cap, uint32_t pid, uint32_t nspid,
			  const char *map_dir)
{
	int n = snprintf(out, cap, "/proc/%u/root%s/perf-%u.map", pid,
			 map_dir ? map_dir : PROCFS_PERF_MAP_DIR, nspid);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}
