// SPDX-License-Identifier: GPL-2.0
/*
 * One process as /proc shows it: its start time (to tell pid reuse and
 * stale JIT maps), its namespace pid, its executable mappings resolved to
 * ELF files, and its JIT map read incrementally. All file I/O of the
 * symbolizer about processes lives here; the parsers it feeds are pure.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/safefile.h"
#include "common/stop.h"
#include "procmaps.h"
#include "sym_internal.h"

#define JIT_READ_CHUNK (64 * 1024)
#define JIT_HEAD 256 /* bytes hashed to notice a rewritten map */
#define MAPS_MAX_AGE_NS (5 * 1000 * 1000 * 1000ULL)
#define PROC_CHECK_NS (1000 * 1000000ULL) /* stat/status at most this often */
#define JIT_MAP_MAX (1ULL << 30) /* a bigger perf map is not a JVM's */

/*
 * From /proc/PID/status: the innermost namespace pid (NStgid's last
 * field, else pid), the effective uid (whose perf map we trust) and a
 * digest of the executable mappings' sizes (VmExe, VmLib), which changes
 * when code is mapped or unmapped.
 */
static uint32_t read_status(uint32_t pid, uint64_t *vm_exec, uid_t *uid)
{
	struct procfs_status st;

	if (procfs__read_status(pid, &st)) {
		*vm_exec = 0;
		*uid = (uid_t)-1;
		return pid;
	}
	*vm_exec = st.vm_exe_kb * 1000003 ^ st.vm_lib_kb;
	*uid = st.euid;
	return st.nspid;
}

/* The process start as CLOCK_REALTIME ns, to compare with file mtimes. */
static uint64_t start_realtime(uint64_t starttime)
{
	struct timespec rt, bt;
	uint64_t boot;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	boot =
	    (rt.tv_sec - bt.tv_sec) * 1000000000ULL + rt.tv_nsec - bt.tv_nsec;
	return boot + procfs__ticks_ns(starttime);
}

static void proc_reset(struct proc *p)
{
	free(p->v);
	p->v = NULL;
	p->nv = 0;
	p->maps_hash = 0;
	p->maps_read_ns = p->vm_exec = 0;
	jitmap__free(p->jit);
	p->jit = NULL;
	p->jit_dev = p->jit_ino = p->jit_off = p->jit_head = 0;
	p->jit_seen = p->jit_stale = false;
	p->jit_refused = 0;
	p->jit_expire_at = 0;
	p->gone = false;
}

void process__free(struct proc *p)
{
	if (!p)
		return;
	proc_reset(p);
	free(p);
}

void process__changed(struct symbolizer *s, struct proc *p)
{
	p->version = ++s->serial;
}

/* A u64map key: never 0, whatever the pid. */
#define PROC_KEY(pid) ((uint64_t)(pid) | 1ULL << 32)

void process__forget(struct symbolizer *s, uint32_t pid)
{
	struct proc *p = u64map__del(&s->procs, PROC_KEY(pid));

	if (p && s->last == p)
		s->last = NULL;
	process__free(p);
}

struct each_ctx {
	struct symbolizer *s;
	void (*fn)(struct symbolizer *s, struct proc *p, void *ctx);
	void *ctx;
};

static void each_one(uint64_t key, void *val, void *ctx)
{
	struct each_ctx *e = ctx;

	(void)key;
	e->fn(e->s, val, e->ctx);
}

void process__for_each(struct symbolizer *s,
		       void (*fn)(struct symbolizer *s, struct proc *p,
				  void *ctx),
		       void *ctx)
{
	struct each_ctx e = {s, fn, ctx};

	u64map__each(&s->procs, each_one, &e);
}

/* Find or add the record of pid; NULL only when memory ran out. */
struct proc *process__get(struct symbolizer *s, uint32_t pid)
{
	struct proc *p;
	bool added;
	void **slot;

	if (s->last && s->last->pid == pid)
		return s->last;
	slot = u64map__find(&s->procs, PROC_KEY(pid));
	if (slot)
		return s->last = *slot;
	slot = u64map__add(&s->procs, PROC_KEY(pid), &added);
	if (!slot)
		return NULL;
	if (added) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			u64map__del(&s->procs, PROC_KEY(pid));
			return NULL;
		}
		p->pid = pid;
		p->nspid = pid;
		p->gone = true; /* until a refresh reads it */
		*slot = p;
	}
	return s->last = *slot;
}

static uint64_t hash_text(const char *t, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	while (len--)
		h = (h ^ (unsigned char)*t++) * 1099511628211ULL;
	return h | 1; /* never 0, which means "not read" */
}

static const char *basename_label(struct symbolizer *s, const char *path)
{
	const char *b = strrchr(path, '/');
	const char *del = strstr(path, " (deleted)");
	char label[PATH_MAX + 2];
	int n;

	b = b ? b + 1 : path;
	n = del && del > b ? del - b : (int)strlen(b);
	n = snprintf(label, sizeof(label), "[%.*s]", n, b);
	return strpool__intern(s->pool, label, n);
}

/* Resolve one executable mapping to what names its addresses. */
static void resolve_vma(struct symbolizer *s, struct proc *p,
			const struct vma *m, struct pvma *pv)
{
	char mf[96], root[64], alt[PATH_MAX + 64];
	const char *del;

	pv->start = m->start;
	pv->end = m->end;
	pv->elf = NULL;
	pv->vdso = false;
	pv->delta = 0;
	pv->unknown = s->unknown;
	if (!strcmp(m->path, "[vdso]")) {
		pv->vdso = true;
		pv->elf = vdso__get(s);
		pv->unknown = strpool__intern(s->pool, "[vdso]", 6);
	} else if (m->path[0] == '/' && m->inode) {
		snprintf(mf, sizeof(mf), "/proc/%u/map_files/%llx-%llx", p->pid,
			 (unsigned long long)m->start,
			 (unsigned long long)m->end);
		snprintf(root, sizeof(root), "/proc/%u/root", p->pid);
		del = strstr(m->path, " (deleted)");
		snprintf(alt, sizeof(alt), "%s%.*s", root,
			 del ? (int)(del - m->path) : (int)strlen(m->path),
			 m->path);
		pv->elf = elf_cache__get(s, m->dev, m->inode, mf, alt, root,
					 alt + strlen(root));
		pv->unknown = basename_label(s, m->path);
	}
	if (!pv->unknown)
		pv->unknown = s->unknown;
	if (pv->elf)
		elfsyms__delta(pv->elf, m->start, m->offset, &pv->delta);
}

/* Would both mapping lists name every address alike? */
static bool same_vmas(const struct pvma *a, size_t na, const struct pvma *b,
		      size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].start != b[i].start || a[i].end != b[i].end ||
		    a[i].delta != b[i].delta || a[i].elf != b[i].elf ||
		    a[i].unknown != b[i].unknown || a[i].vdso != b[i].vdso)
			return false;
	return true;
}

int process__read_maps(struct symbolizer *s, struct proc *p)
{
	struct procmaps *pm;
	struct pvma *v;
	char *buf;
	size_t len;
	uint64_t h;
	int err;

	err = procfs__read_pid(p->pid, "maps", PROCFS_MAPS_MAX, &buf, &len);
	if (err)
		return err;
	h = hash_text(buf, len);
	if (h == p->maps_hash) {
		free(buf);
		return 0;
	}
	pm = procmaps__parse(buf, len);
	free(buf);
	if (!pm)
		return -ENOMEM;
	/*
	 * No mapping at all: the process is exiting (its memory is gone
	 * before it is a zombie) or between exec's two images. Keep what
	 * we knew: the samples of its last second are named after it ends.
	 */
	if (!pm->n) {
		procmaps__free(pm);
		return 0;
	}
	v = calloc(pm->n ? pm->n : 1, sizeof(*v));
	if (!v) {
		procmaps__free(pm);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pm->n; i++)
		resolve_vma(s, p, &pm->v[i], &v[i]);
	if (!same_vmas(p->v, p->nv, v, pm->n))
		process__changed(s, p);
	free(p->v);
	p->v = v;
	p->nv = pm->n;
	p->maps_hash = h;
	procmaps__free(pm);
	return 0;
}

/* Feed the JIT map from offset to its end. */
static int jit_tail(struct symbolizer *s, struct proc *p, int fd,
		    uint64_t lower, uint64_t now_ns)
{
	char *buf = malloc(JIT_READ_CHUNK);
	uint64_t over;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	/* a map of gigabytes is read to its end, unless told to stop */
	while (!stop__hurry()) {
		ssize_t r = pread(fd, buf, JIT_READ_CHUNK, p->jit_off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		p->jit_off += r;
		over = jitmap__over(p->jit);
		err = jitmap__feed(p->jit, buf, r, lower, now_ns,
				   &s->st.map_lines_bad);
		s->st.jit_over += jitmap__over(p->jit) - over;
		if (err)
			break;
	}
	free(buf);
	return err;
}

/* Hash of the map's first JIT_HEAD bytes (fewer if it is shorter). */
static uint64_t head_hash(int fd, uint64_t upto)
{
	char buf[JIT_HEAD];
	ssize_t r = pread(fd, buf, upto < JIT_HEAD ? upto : JIT_HEAD, 0);

	return r > 0 ? hash_text(buf, r) : 0;
}

/*
 * Open the JIT map as what its process's user controls: a regular file
 * owned by that user or root, not a link, not a FIFO, not over
 * JIT_MAP_MAX (safefile.h). Anything else is ignored, said once per
 * process: root must neither wait on it nor read a file the user chose
 * (its lines would show as frame names).
 */
static int jit_open(struct symbolizer *s, struct proc *p, const char *path)
{
	struct safe_in in = {.uid = p->uid, .max_size = JIT_MAP_MAX};
	int fd = safefile__open_in(AT_FDCWD, path, &in);

	if (fd >= 0 || p->jit_refused ||
	    (fd != -ELOOP && fd != -EINVAL && fd != -EPERM && fd != -EFBIG))
		return fd; /* none (yet), or said already */
	p->jit_refused = fd;
	s->st.maps_refused++;
	if (fd == -EPERM)
		fprintf(stderr,
			"mixprof: %s: owned by another user than the "
			"process's (uid %u) or root: ignored\n",
			path, (unsigned)p->uid);
	else
		fprintf(stderr, "mixprof: %s: %s: ignored\n", path,
			safefile__strerror(fd));
	return fd;
}

/*
 * Read what the JIT map gained. A replaced (new inode), shrunk or
 * rewritten (its first bytes changed) file is read again from the start,
 * as a fresh snapshot (jcmd Compiler.perfmap rewrites the whole file).
 * A map last written before the process started belongs to an earlier
 * process with the same pid: ignored while so.
 */
static int jit_refresh(struct symbolizer *s, struct proc *p, uint64_t now_ns)
{
	char path[PATH_MAX];
	uint64_t mtime, tick;
	struct stat st;
	int fd, err;

	if (procfs__perf_map_path(path, sizeof(path), p->pid, p->nspid,
				  s->map_dir))
		return 0;
	fd = jit_open(s, p, path);
	if (fd < 0)
		return 0; /* no (usable) map: not a JIT process (yet) */
	if (fstat(fd, &st)) {
		close(fd);
		return 0;
	}
	if (st.st_dev != p->jit_dev || st.st_ino != p->jit_ino ||
	    (uint64_t)st.st_size < p->jit_off ||
	    (p->jit_off && head_hash(fd, p->jit_off) != p->jit_head)) {
		p->jit_dev = st.st_dev;
		p->jit_ino = st.st_ino;
		p->jit_off = 0;
		p->jit_seen = false;
		p->jit_stale = false;
		if (p->jit)
			jitmap__drop_partial(p->jit);
		process__changed(s, p);
	}
	mtime = st.st_mtim.tv_sec * 1000000000ULL + st.st_mtim.tv_nsec;
	/* starttime has clock-tick resolution: allow two ticks */
	tick = 1000000000ULL /
	       (sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100);
	if (mtime + 2 * tick < p->start_real_ns) {
		if (!p->jit_stale) {
			s->st.maps_stale++;
			process__changed(s, p);
		}
		p->jit_stale = true;
		close(fd);
		return 0;
	}
	if (p->jit_stale)
		process__changed(s, p);
	p->jit_stale = false;
	err = 0;
	if (!p->jit)
		p->jit = jitmap__new(s->no_inline);
	if (!p->jit)
		err = -ENOMEM;
	else
		err = jit_tail(s, p, fd, p->jit_seen ? p->jit_last_look : 0,
			       now_ns);
	p->jit_head = head_hash(fd, p->jit_off);
	close(fd);
	/* the time rule is as fine as the reads are close (README) */
	if (p->jit_seen && now_ns - p->jit_last_look > s->st.jit_gap_max_ns)
		s->st.jit_gap_max_ns = now_ns - p->jit_last_look;
	p->jit_seen = true;
	p->jit_last_look = now_ns;
	return err;
}

/*
 * Whether to read /proc/PID/maps again. A JVM is refreshed every tick for
 * its JIT map, and formatting its thousands of mappings was the biggest
 * part of the kernel time we cost; so within MAPS_MAX_AGE_NS of the last
 * read, only a change of the executable mapping sizes triggers a read.
 * A sample outside every known mapping re-reads anyway
 * (symbolizer__user), so this only delays noticing a mapping replaced in
 * place by one of the same size.
 */
static bool maps_changed(const struct proc *p, uint64_t now_ns,
			 uint64_t vm_exec)
{
	return !p->maps_hash || vm_exec != p->vm_exec ||
	       now_ns - p->maps_read_ns >= MAPS_MAX_AGE_NS ||
	       now_ns < p->maps_read_ns;
}

int process__refresh(struct symbolizer *s, struct proc *p, uint64_t now_ns)
{
	struct procfs_stat pst;
	uint64_t starttime, vm_exec;
	uint32_t nspid;
	uid_t uid;
	bool known = p->maps_hash != 0 || p->jit_seen;

	/*
	 * A JVM is refreshed every tick for its JIT map; its /proc files
	 * (pid reuse, mapping sizes) need a look once a second at most (a
	 * lookup outside every mapping re-reads the maps anyway).
	 */
	if (known && !p->gone && p->checked_ns &&
	    now_ns - p->checked_ns < PROC_CHECK_NS) {
		p->miss_reread = false;
		return jit_refresh(s, p, now_ns);
	}
	p->checked_ns = now_ns;

	if (procfs__read_stat(p->pid, &pst)) {
		p->gone = true;
		return known ? 0 : -ESRCH;
	}
	starttime = pst.start_ticks;
	if (known && starttime != p->starttime) {
		proc_reset(p); /* the pid now names another process */
		process__changed(s, p);
	}
	nspid = read_status(p->pid, &vm_exec, &uid);
	/* setuid() changes it without a new process; unknown: root only */
	p->uid = uid == (uid_t)-1 ? 0 : uid;
	if (p->starttime != starttime || !known) {
		p->starttime = starttime;
		p->start_real_ns = start_realtime(starttime);
		p->nspid = nspid;
	}
	p->gone = false;
	p->miss_reread = false;
	if (maps_changed(p, now_ns, vm_exec)) {
		p->vm_exec = vm_exec;
		if (process__read_maps(s, p) == -ENOMEM)
			return -ENOMEM;
		p->maps_read_ns = now_ns;
	}
	return jit_refresh(s, p, now_ns);
}
