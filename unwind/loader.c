// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c: rows per file, tables per process, into the BPF maps
 * (loader.h). Everything read here belongs to a target: /proc/PID/maps
 * and the mapped files go through safe_open_in with size limits.
 */
#include <bpf/bpf.h>
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <stdbool.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common/nsec.h"
#include "common/procfs.h"
#include "common/safefile.h"
#include "common/stop.h"
#include "symbolizer/procmaps.h"
#include "debugfile.h"
#include "rowgen.h"
#include "common/u64map.h"
#include "loader.h"

#define MAX_ELF_SIZE (2ULL << 30) /* a mapped library larger: no rows */

struct ufile {
	uint64_t dev, ino;
	uint32_t id; /* the maps' file id */
	int ok; /* rows stored */
	uint64_t delta; /* p_offset - p_vaddr of the executable segment */
	struct ufile *next; /* same hash bucket */
};

struct uproc {
	uint64_t first_ns; /* its first table: a process starting up */
	uint64_t scanned_ns; /* last reading of its mappings */
	uint64_t maps_hash; /* of its file mappings then (maps_hash) */
};

#define QUEUE_MAX 4096 /* pids waiting: more are asked for again later */

struct unwind_loader {
	/* the worker's queue and the stats it publishes: under mu */
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	pthread_t thread;
	int queue[QUEUE_MAX];
	size_t qn;
	bool busy, stop;
	struct unwind_loader_stats pub;
	/* the rest: the worker's alone */
	int rows_fd, pages_fd, procs_fd;
	uint32_t max_rows, next_row, next_id;
	struct u64map files; /* dev ^ ino mix -> struct ufile chain */
	struct u64map procs; /* pid + 1 -> struct uproc */
	struct unwind_loader_stats st;
};

static void *worker(void *arg);

struct unwind_loader *unwind_loader__new(int rows_fd, int pages_fd,
					 int procs_fd, uint32_t max_rows)
{
	struct unwind_loader *l = calloc(1, sizeof(*l));
	sigset_t all, old;

	if (!l)
		return NULL;
	elf_version(EV_CURRENT);
	l->rows_fd = rows_fd;
	l->pages_fd = pages_fd;
	l->procs_fd = procs_fd;
	l->max_rows = max_rows;
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->work, NULL);
	pthread_cond_init(&l->idle, NULL);
	/* the stop signals go to the main thread, whose waits they end */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = pthread_create(&l->thread, NULL, worker, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno) {
		free(l);
		return NULL;
	}
	return l;
}

static void free_chain(void *v)
{
	struct ufile *f = v, *next;

	for (; f; f = next) {
		next = f->next;
		free(f);
	}
}

void unwind_loader__free(struct unwind_loader *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->mu);
	__atomic_store_n(&l->stop, true, __ATOMIC_RELAXED);
	pthread_cond_signal(&l->work);
	pthread_mutex_unlock(&l->mu);
	pthread_join(l->thread, NULL);
	u64map__clear(&l->files, free_chain);
	u64map__release(&l->files);
	u64map__clear(&l->procs, free);
	u64map__release(&l->procs);
	free(l);
}

/* p_offset - p_vaddr of elf's executable PT_LOAD: 0 or -ENOEXEC. */
static int exec_delta(Elf *elf, uint64_t *delta)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X)) {
			*delta = ph.p_offset - ph.p_vaddr;
			return 0;
		}
	return -ENOEXEC;
}

/* Store rows at next_row and their page runs under file id. */
static int store(struct unwind_loader *l, uint32_t id,
		 const struct unwind_row *rows, size_t n)
{
	uint32_t *keys = malloc(n * sizeof(*keys));
	struct unwind_page_key pk;
	struct unwind_page pv;
	uint32_t cnt = n, page, last;
	size_t i, j = 0;
	int r;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		keys[i] = l->next_row + i;
	r = bpf_map_update_batch(l->rows_fd, keys, rows, &cnt, NULL);
	free(keys);
	if (r)
		return r;
	last = rows[n - 1].pc >> UNWIND_PAGE_SHIFT;
	for (page = rows[0].pc >> UNWIND_PAGE_SHIFT; page <= last; page++) {
		uint64_t lo = (uint64_t)page << UNWIND_PAGE_SHIFT;
		size_t k;

		/* the run is ending: a big library's pages take seconds on
		 * a loaded host, and the end waits for this thread */
		if (stop__asked())
			return -EINTR;
		/* j: the row holding the page's first byte */
		while (j + 1 < n && rows[j + 1].pc <= lo)
			j++;
		for (k = j;
		     k < n && rows[k].pc < lo + (1u << UNWIND_PAGE_SHIFT);)
			k++;
		pk.file = id;
		pk.page = page;
		pv.first = l->next_row + j;
		pv.n = k > j ? k - j : 1;
		r = bpf_map_update_elem(l->pages_fd, &pk, &pv, BPF_ANY);
		if (r)
			return r;
		l->st.pages++;
	}
	l->next_row += n;
	l->st.rows += n;
	return 0;
}

/*
 * The rows of the ELF open at fd (mapped by pid at path): its
 * .eh_frame's, and .debug_frame's where that has none (its own, or its
 * separate debug file's: debugfile.h). *dbg set when .debug_frame gave
 * rows.
 */
static int file_rows(int fd, int pid, const char *path, uint64_t *delta,
		     struct unwind_row **rows, size_t *n, bool *dbg)
{
	struct rowgen_stats st;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL), *debug = NULL;
	int dfd = -1, r;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return -ENOEXEC;
	}
	r = exec_delta(elf, delta);
	if (!r)
		debug = debugfile__open(elf, pid, path, &dfd);
	if (!r)
		r = rowgen__elf_debug(elf, debug, rows, n, &st);
	*dbg = !r && st.debug_fdes;
	elf_end(debug);
	if (dfd >= 0)
		close(dfd);
	elf_end(elf);
	return r;
}

/* Rows of the file open at fd into the maps: f->ok when stored. */
static void load_file(struct unwind_loader *l, int fd, int pid,
		      const char *path, struct ufile *f)
{
	struct unwind_row *rows;
	size_t n;
	uint64_t t0 = nsec__now();
	bool dbg;

	if (file_rows(fd, pid, path, &f->delta, &rows, &n, &dbg)) {
		l->st.files_without++;
		return;
	}
	if (n > l->max_rows - l->next_row) {
		l->st.full++;
	} else if (!store(l, f->id, rows, n)) {
		f->ok = 1;
		l->st.files++;
		l->st.files_debug_frame += dbg;
	}
	free(rows);
	l->st.load_ns += nsec__now() - t0;
}

/* The file of mapping v of pid, loaded on first sight; NULL if none. */
static struct ufile *file_of(struct unwind_loader *l, int pid,
			     const struct vma *v)
{
	uint64_t key = (v->dev * 0x9e3779b97f4a7c15ULL ^ v->inode) | 1;
	struct safe_in in = {
	    .uid = SAFE_ANY_UID, .max_size = MAX_ELF_SIZE, .follow = true};
	struct ufile *f;
	bool added;
	void **slot = u64map__add(&l->files, key, &added);

	struct stat sb;
	char path[96];
	int fd;

	if (!slot)
		return NULL;
	for (f = *slot; f; f = f->next)
		if (f->dev == v->dev && f->ino == v->inode)
			return f->ok ? f : NULL;
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 (unsigned long long)v->start, (unsigned long long)v->end);
	fd = safe_open_in(AT_FDCWD, path, &in);
	if (fd < 0)
		return NULL; /* gone, or not a file: try again next time */
	/* the file the mapping holds, not one swapped in since */
	if (fstat(fd, &sb) || sb.st_dev != v->dev || sb.st_ino != v->inode) {
		close(fd);
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		return NULL;
	}
	f->dev = v->dev;
	f->ino = v->inode;
	f->id = l->next_id++;
	f->next = *slot;
	*slot = f;
	load_file(l, fd, pid, v->path, f);
	close(fd);
	return f->ok ? f : NULL;
}

/* The identity of pm's executable file mappings (what a table holds):
 * a JVM's anonymous mappings change all the time, these do not. */
static uint64_t maps_hash(const struct procmaps *pm)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < pm->n; i++) {
		const struct vma *v = &pm->v[i];

		if (!v->inode)
			continue;
		h = (h ^ v->start) * 0x100000001b3ULL;
		h = (h ^ v->end) * 0x100000001b3ULL;
		h = (h ^ v->offset) * 0x100000001b3ULL;
		h = (h ^ v->inode ^ v->dev << 32) * 0x100000001b3ULL;
	}
	return h;
}

/* The executable mappings of pid, and their identity in *h. */
static struct procmaps *read_pm(int pid, uint64_t *h)
{
	struct procmaps *pm;
	size_t len;
	char *text;
	int err = procfs__read_pid(pid, "maps", PROCFS_MAPS_MAX, &text, &len);

	if (err) {
		errno = -err;
		return NULL;
	}
	pm = procmaps__parse(text, len);
	free(text);
	if (pm)
		*h = maps_hash(pm);
	return pm;
}

/* pid's table from its mappings text. */
static int write_table(struct unwind_loader *l, int pid,
		       const struct procmaps *pm)
{
	struct unwind_proc *pr = calloc(1, sizeof(*pr));
	__u32 key = pid;
	size_t i;
	int r;

	if (!pr)
		return -ENOMEM;
	for (i = 0; i < pm->n && pr->n < UNWIND_PROC_MAPS; i++) {
		const struct vma *v = &pm->v[i];
		struct unwind_map *m = &pr->m[pr->n];
		struct ufile *f;

		if (!v->inode || v->path[0] != '/')
			continue;
		/* mixprof is ending: no more files (one may take seconds) */
		if (__atomic_load_n(&l->stop, __ATOMIC_RELAXED) ||
		    stop__asked())
			break;
		f = file_of(l, pid, v);
		if (!f)
			continue;
		m->start = v->start;
		m->end = v->end;
		m->bias = v->start - v->offset + f->delta;
		m->file = f->id;
		pr->n++;
	}
	r = bpf_map_update_elem(l->procs_fd, &key, pr, BPF_ANY) ? -errno : 0;
	free(pr);
	if (!r)
		l->st.procs++;
	return r;
}

static int refresh_now(struct unwind_loader *l, int pid, uint64_t now_ns)
{
	struct unwind_proc probe;
	struct procmaps *pm;
	struct uproc *up;
	bool added, gone;
	void **slot;
	__u32 key = pid;
	uint64_t h, h2;
	int r;

	slot = u64map__add(&l->procs, (uint64_t)pid + 1, &added);
	if (!slot)
		return -ENOMEM;
	/* a failed allocation leaves the slot NULL: tried again next time */
	if (!*slot && !(*slot = calloc(1, sizeof(struct uproc))))
		return -ENOMEM;
	up = *slot;
	gone = bpf_map_lookup_elem(l->procs_fd, &key, &probe) != 0;
	if (gone)
		up->first_ns = now_ns; /* new, or exec'd: starting up */
	/* a process starting maps its libraries: read each time asked */
	if (!gone && now_ns - up->scanned_ns < UNWIND_RESCAN_NS &&
	    now_ns - up->first_ns > UNWIND_START_NS)
		return 0;
	up->scanned_ns = now_ns;
	pm = read_pm(pid, &h);
	if (!pm)
		return -errno;
	if (!gone && h == up->maps_hash) {
		procmaps__free(pm);
		return 0;
	}
	r = write_table(l, pid, pm);
	procmaps__free(pm);
	if (r || stop__asked())
		return r ? r : -EINTR;
	/*
	 * An exec (or munmap and mmap) between our reading and our writing
	 * would leave a table of mappings the process no longer has: read
	 * them again and take the table back if they changed. An exec after
	 * this deletes it in BPF.
	 */
	pm = read_pm(pid, &h2);
	if (!pm || h2 != h) {
		bpf_map_delete_elem(l->procs_fd, &key);
		procmaps__free(pm);
		return -EAGAIN;
	}
	procmaps__free(pm);
	up->maps_hash = h;
	return r;
}

/* A process gone: its table and its record. */
static void forget_now(struct unwind_loader *l, int pid)
{
	__u32 key = pid;

	bpf_map_delete_elem(l->procs_fd, &key);
	free(u64map__del(&l->procs, (uint64_t)pid + 1));
}

/* The worker: one pid at a time, as asked, oldest first (-pid: forget). */
static void *worker(void *arg)
{
	struct unwind_loader *l = arg;
	int pid;

	pthread_mutex_lock(&l->mu);
	for (;;) {
		while (!l->qn && !l->stop)
			pthread_cond_wait(&l->work, &l->mu);
		if (l->stop)
			break;
		pid = l->queue[0];
		memmove(l->queue, l->queue + 1, --l->qn * sizeof(int));
		l->busy = true;
		pthread_mutex_unlock(&l->mu);
		if (pid < 0)
			forget_now(l, -pid);
		else if (!stop__asked()) /* the run is ending: no use */
			refresh_now(l, pid, nsec__now());
		pthread_mutex_lock(&l->mu);
		l->busy = false;
		l->pub = l->st;
		pthread_cond_broadcast(&l->idle);
	}
	pthread_mutex_unlock(&l->mu);
	return NULL;
}

int unwind_loader__refresh(struct unwind_loader *l, int pid, uint64_t now_ns)
{
	size_t i;

	(void)now_ns; /* the worker's own clock when it gets there */
	pthread_mutex_lock(&l->mu);
	for (i = 0; i < l->qn && l->queue[i] != pid; i++)
		;
	if (i == l->qn && l->qn < QUEUE_MAX) {
		l->queue[l->qn++] = pid;
		pthread_cond_signal(&l->work);
	} else if (i < l->qn && i) {
		/* asked again while waiting: it has samples (a host's start-up
		 * queues every process, most of them idle): next */
		memmove(l->queue + 1, l->queue, i * sizeof(int));
		l->queue[0] = pid;
	}
	pthread_mutex_unlock(&l->mu);
	return 0;
}

int unwind_loader__forget(struct unwind_loader *l, int pid)
{
	pthread_mutex_lock(&l->mu);
	/* a full queue: the record stays (a pid reused later finds it) */
	if (pid > 0 && l->qn < QUEUE_MAX) {
		l->queue[l->qn++] = -pid;
		pthread_cond_signal(&l->work);
	}
	pthread_mutex_unlock(&l->mu);
	return 0;
}

int unwind_loader__wait(struct unwind_loader *l, uint64_t max_ns)
{
	struct timespec until;
	int r = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += max_ns / NSEC_PER_SEC;
	until.tv_nsec += max_ns % NSEC_PER_SEC;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&l->mu);
	while ((l->qn || l->busy) && !r)
		r = pthread_cond_timedwait(&l->idle, &l->mu, &until);
	pthread_mutex_unlock(&l->mu);
	return r ? -ETIMEDOUT : 0;
}

int unwind_loader__proc_maps(struct unwind_loader *l, int pid)
{
	struct unwind_proc *pr = malloc(sizeof(*pr));
	__u32 key = pid;
	int r;

	if (!pr)
		return -ENOMEM;
	r = bpf_map_lookup_elem(l->procs_fd, &key, pr) ? -ENOENT : (int)pr->n;
	free(pr);
	return r;
}

void unwind_loader__stats(struct unwind_loader *l,
			  struct unwind_loader_stats *st)
{
	pthread_mutex_lock(&l->mu);
	*st = l->pub;
	pthread_mutex_unlock(&l->mu);
}
