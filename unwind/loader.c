// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c: rows per file, tables per process, into the BPF maps
 * (loader.h). Everything read here belongs to a target: /proc/PID/maps
 * and the mapped files go through safefile__open_in with size limits.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common/nsec.h"
#include "common/procfs.h"
#include "common/safefile.h"
#include "common/stop.h"
#include "symbolizer/procmaps.h"
#include "debugfile.h"
#include "rowcache.h"
#include "fpmap.h"
#include "rowgen.h"
#include "common/u64map.h"
#include "loader.h"

#define MAX_ELF_SIZE (2ULL << 30) /* a mapped library larger: no rows */

struct ufile {
	uint64_t dev, ino;
	uint32_t id; /* the maps' file id */
	int state; /* enum unwind_file_state, as unwind_files says */
	bool eager; /* a target's: built before samples ask (after those) */
	/* its rows are in the cache (an earlier run's samples needed them):
	 * read before samples ask, as a target's are, while they leave
	 * more than half of the rows map free (CACHED_ROOM) */
	bool cached;
	uint64_t cached_rows; /* about: the entry's bytes / 8 */
	uint64_t delta; /* p_offset - p_vaddr of the executable segment */
	/* its frame-record bitmap in unwind_fp (fpmap.h): fp_words 0, none */
	uint32_t fp_word, fp_words, fp_block0;
	uint64_t size; /* bytes: what its rows will cost, roughly */
	/* where to open it while PENDING: the last mapping seen (pid 0: it
	 * was gone; the next table that maps the file tells anew) */
	int pid;
	uint64_t start, end;
	char *path;
	struct ufile *next; /* same hash bucket */
};

struct uproc {
	uint64_t first_ns; /* its first table: a process starting up */
	uint64_t scanned_ns; /* last reading of its mappings */
	uint64_t maps_hash; /* of its file mappings then (maps_hash) */
	uint64_t vsize; /* its mappings' sizes then (vsize_of), or 0 */
};

#define QUEUE_MAX 4096 /* pids waiting: more are asked for again later */
/* how often an idle loader with files still to build reads the demand
 * (unwind_files): a file samples need waits at most this long before
 * its rows are begun. The run drains its samples as often: 10 ms woke
 * it 100 times a second for nothing, 0.4% of a CPU on an idle run */
#define POLL_NS (25 * 1000 * 1000)
#define SIZE_FLOOR (256 << 10) /* below, a file's rows cost about the same */
/* page entries per system call: one each made libjvm's 4,300 the
 * biggest cost of reading its rows back from the cache */
#define PAGE_BATCH 512
/* a cached file is read unasked when the rows stored with its own stay
 * within max / CACHED_ROOM: the rest of the map is for the files samples
 * need (a big program's rows, a node's or a compiler's, would take it) */
#define CACHED_ROOM 2

struct unwind_loader {
	/* the worker's queue and the stats it publishes: under mu */
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	pthread_t thread;
	int queue[QUEUE_MAX];
	size_t qn;
	bool busy, stop;
	bool todo; /* files samples (or targets) need are still pending */
	struct u64map targets; /* pid + 1 -> (void *)1: unwind_loader__target */
	struct unwind_built *built; /* files built so far, in order */
	size_t nbuilt, built_cap;
	uint64_t t0; /* the loader's start: when files were built */
	struct unwind_loader_stats pub;
	/* the rest: the worker's alone */
	int rows_fd, pages_fd, procs_fd, files_fd, fp_fd;
	uint32_t max_rows, next_row, next_id;
	uint32_t next_fp_word; /* unwind_fp's first word free */
	struct u64map files; /* dev ^ ino mix -> struct ufile chain */
	struct u64map procs; /* pid + 1 -> struct uproc */
	struct ufile **byid; /* [next_id]: the files by id */
	struct unwind_file *demand; /* [next_id]: unwind_files, read back */
	/* unwind_files mapped (BPF_F_MMAPABLE), or NULL: read by batch */
	const struct unwind_file *files_map;
	size_t files_len; /* bytes of it mapped */
	struct rowcache *cache; /* rows kept between runs, or NULL */
	uint32_t *ids; /* [next_id]: 0, 1, ...: the batch read's keys */
	uint32_t cap; /* of the three arrays above */
	struct unwind_loader_stats st;
};

static void *worker(void *arg);

/*
 * unwind_files read in place: the idle loader reads the demand every
 * POLL_NS, and a batch lookup of a host-wide run's few hundred files
 * costs ~60 us of system time each (a twentieth of a warm 8 s run's CPU);
 * mapped, it is a loop over memory. Only the pages of the ids given out
 * are mapped (the kernel maps a BPF array's pages at once: all 65,536
 * entries would be 1.5 MB of resident set), again as ids grow. False when the
 * map is not mappable: then read by batch.
 */
static bool map_files(struct unwind_loader *l, uint32_t n)
{
	size_t page = (size_t)getpagesize();
	size_t len =
	    ((n ? n : 1) * sizeof(struct unwind_file) + page - 1) & ~(page - 1);
	void *p;

	if (len <= l->files_len)
		return true;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, l->files_fd, 0);
	if (p == MAP_FAILED)
		return false;
	if (l->files_map)
		munmap((void *)l->files_map, l->files_len);
	l->files_map = p;
	l->files_len = len;
	return true;
}

static void unmap_files(struct unwind_loader *l)
{
	if (l->files_map)
		munmap((void *)l->files_map, l->files_len);
}

struct unwind_loader *unwind_loader__new(int rows_fd, int pages_fd,
					 int procs_fd, int files_fd, int fp_fd,
					 uint32_t max_rows)
{
	struct unwind_loader *l = calloc(1, sizeof(*l));
	sigset_t all, old;

	if (!l)
		return NULL;
	elf_version(EV_CURRENT);
	l->rows_fd = rows_fd;
	l->pages_fd = pages_fd;
	l->procs_fd = procs_fd;
	l->files_fd = files_fd;
	l->fp_fd = fp_fd;
	map_files(l, 1);
	l->max_rows = max_rows;
	l->t0 = nsec__now();
	l->cache = rowcache__open(); /* none: every file's rows made */
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->work, NULL);
	pthread_cond_init(&l->idle, NULL);
	/* the stop signals go to the main thread, whose waits they end */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = pthread_create(&l->thread, NULL, worker, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno) {
		unmap_files(l);
		rowcache__close(l->cache);
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
		free(f->path);
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
	u64map__release(&l->targets);
	unmap_files(l);
	rowcache__close(l->cache);
	for (size_t i = 0; i < l->nbuilt; i++)
		free(l->built[i].path);
	free(l->built);
	free(l->byid);
	free(l->demand);
	free(l->ids);
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

/*
 * n values of size bytes into the array map fd (unwind_rows, unwind_fp)
 * from index first on: copied through a mapping of just the pages they
 * go to (unwind.bpf.h: mmapable; mapped for the copy only, so they do not
 * count in our RSS), else one update per value.
 */
static int put_at(int fd, uint32_t first, const void *v, size_t size, size_t n)
{
	size_t pg = sysconf(_SC_PAGESIZE), off, at, len, i;
	uint32_t *keys, cnt = n;
	void *m;
	int r;

	off = (size_t)first * size;
	at = off & ~(pg - 1);
	len = off + n * size - at;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, at);
	if (m != MAP_FAILED) {
		memcpy((char *)m + (off - at), v, n * size);
		munmap(m, len);
		return 0;
	}
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		keys[i] = first + i;
	r = bpf_map_update_batch(fd, keys, v, &cnt, NULL);
	free(keys);
	return r;
}

/*
 * f's frame-record bitmap (fpmap.h) of its rows into unwind_fp, where
 * there is room: a file without one is stepped by its rows alone.
 */
static void store_fp(struct unwind_loader *l, struct ufile *f,
		     const struct unwind_row *rows, size_t n)
{
	__u64 *w;
	size_t nw;
	__u32 b0;

	f->fp_words = 0;
	if (l->fp_fd < 0 || fpmap__make(rows, n, &w, &nw, &b0))
		return;
	if (nw <= UNWIND_MAX_FP_WORDS - l->next_fp_word &&
	    !put_at(l->fp_fd, l->next_fp_word, w, sizeof(*w), nw)) {
		f->fp_word = l->next_fp_word;
		f->fp_words = nw;
		f->fp_block0 = b0;
		l->next_fp_word += nw;
		l->st.fp_words += nw;
	}
	free(w);
}

/* Store rows at next_row and their page runs under file id. */
static int store(struct unwind_loader *l, uint32_t id,
		 const struct unwind_row *rows, size_t n)
{
	struct unwind_page_key pk[PAGE_BATCH];
	struct unwind_page pv[PAGE_BATCH];
	uint32_t cnt, page, last, m = 0;
	size_t j = 0;
	int r = put_at(l->rows_fd, l->next_row, rows, sizeof(*rows), n);

	if (r)
		return r;
	last = rows[n - 1].pc >> UNWIND_PAGE_SHIFT;
	for (page = rows[0].pc >> UNWIND_PAGE_SHIFT; page <= last; page++) {
		uint64_t lo = (uint64_t)page << UNWIND_PAGE_SHIFT;
		size_t k;

		/* j: the row holding the page's first byte */
		while (j + 1 < n && rows[j + 1].pc <= lo)
			j++;
		for (k = j;
		     k < n && rows[k].pc < lo + (1u << UNWIND_PAGE_SHIFT);)
			k++;
		pk[m].file = id;
		pk[m].page = page;
		pv[m].first = l->next_row + j;
		pv[m].n = k > j ? k - j : 1;
		if (++m < PAGE_BATCH && page < last)
			continue;
		/* the run is ending: a big library's pages take a while on
		 * a loaded host, and the end waits for this thread */
		if (stop__asked())
			return -EINTR;
		cnt = m;
		r = bpf_map_update_batch(l->pages_fd, pk, pv, &cnt, NULL);
		if (r)
			return r;
		l->st.pages += m;
		m = 0;
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

/* Rows of the file open at fd into the maps: f->state ROWS when stored,
 * NONE when it has none (or no room), PENDING when the run is ending.
 * From the cache when it has them (*cached), else made and kept there. */
static void load_file(struct unwind_loader *l, int fd, int pid,
		      const char *path, struct ufile *f, bool *cached)
{
	struct unwind_row *rows;
	size_t n;
	uint64_t t0 = nsec__now();
	char key[256] = "";
	bool dbg;
	int r;

	f->state = UNWIND_FILE_NONE;
	if (l->cache && rowcache__key(fd, key, sizeof(key)))
		key[0] = '\0';
	*cached = key[0] && !rowcache__get(l->cache, key, &rows, &n, &dbg);
	r = *cached ? 0 : file_rows(fd, pid, path, &f->delta, &rows, &n, &dbg);
	if (r == -EINTR) {
		f->state = UNWIND_FILE_PENDING;
		return;
	}
	if (r) {
		l->st.files_without++;
		return;
	}
	/* a failed write: made again next run */
	if (!*cached && key[0])
		rowcache__put(l->cache, key, rows, n, dbg);
	if (n > l->max_rows - l->next_row) {
		l->st.full++;
	} else if (!(r = store(l, f->id, rows, n))) {
		store_fp(l, f, rows, n);
		f->state = UNWIND_FILE_ROWS;
		l->st.files++;
		l->st.files_debug_frame += dbg;
		l->st.files_cached += *cached;
	} else if (r == -EINTR) {
		f->state = UNWIND_FILE_PENDING; /* its rows' room is lost */
	}
	free(rows);
	l->st.load_ns += nsec__now() - t0;
}

/* The open of f's mapping (or of the mapping v of pid when v): an fd
 * checked to be the file's (dev, inode), or -errno. */
static int open_mapping(int pid, uint64_t start, uint64_t end, uint64_t dev,
			uint64_t ino, uint64_t *size)
{
	struct safe_in in = {
	    .uid = SAFE_ANY_UID, .max_size = MAX_ELF_SIZE, .follow = true};
	struct stat sb;
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 (unsigned long long)start, (unsigned long long)end);
	fd = safefile__open_in(AT_FDCWD, path, &in);
	if (fd < 0)
		return fd; /* gone, or not a file */
	/* the file the mapping holds, not one swapped in since */
	if (fstat(fd, &sb) || sb.st_dev != dev || sb.st_ino != ino) {
		close(fd);
		return -ESTALE;
	}
	*size = sb.st_size;
	return fd;
}

/*
 * f's state into unwind_files, where BPF looks (its demand reset). Its
 * bitmap's place goes in first, while the state BPF sees is PENDING
 * still (rows.h: a walk that sees ROWS sees all of it).
 */
static void publish_state(struct unwind_loader *l, const struct ufile *f)
{
	struct unwind_file v = {.state = UNWIND_FILE_PENDING,
				.fp_word = f->fp_word,
				.fp_words = f->fp_words,
				.fp_block0 = f->fp_block0};
	__u32 key = f->id;

	if (f->state != UNWIND_FILE_PENDING)
		l->st.pending--;
	if (f->fp_words)
		bpf_map_update_elem(l->files_fd, &key, &v, BPF_ANY);
	v.state = f->state;
	bpf_map_update_elem(l->files_fd, &key, &v, BPF_ANY);
}

/* f's rows were built from t0 on: on the list unwind_loader__built
 * reads (a failed allocation leaves it off). */
static void note_built(struct unwind_loader *l, const struct ufile *f,
		       uint64_t t0, bool cached)
{
	struct unwind_built b = {
	    .wanted = l->demand[f->id].wanted,
	    .eager = f->eager,
	    .cached = cached,
	    .at_ns = t0 - l->t0,
	    .took_ns = nsec__now() - t0,
	};
	struct unwind_built *nb;

	pthread_mutex_lock(&l->mu);
	if (l->nbuilt == l->built_cap) {
		size_t cap = l->built_cap ? 2 * l->built_cap : 32;

		nb = realloc(l->built, cap * sizeof(*nb));
		if (nb) {
			l->built = nb;
			l->built_cap = cap;
		}
	}
	if (l->nbuilt < l->built_cap && (b.path = strdup(f->path)))
		l->built[l->nbuilt++] = b;
	pthread_mutex_unlock(&l->mu);
}

static struct procmaps *read_pm(int pid, uint64_t *h);

/* f's executable mapping in its process now: 0, or -ENOENT. */
static int refind(struct ufile *f)
{
	struct procmaps *pm = read_pm(f->pid, &(uint64_t){0});
	int r = -ENOENT;

	for (size_t i = 0; pm && i < pm->n && r; i++)
		if (pm->v[i].dev == f->dev && pm->v[i].inode == f->ino) {
			f->start = pm->v[i].start;
			f->end = pm->v[i].end;
			r = 0;
		}
	procmaps__free(pm);
	return r;
}

/* Build f's rows now (a sample needs them, or a target maps it). */
static void build(struct unwind_loader *l, struct ufile *f)
{
	uint64_t t0 = nsec__now();
	bool cached;
	int fd =
	    open_mapping(f->pid, f->start, f->end, f->dev, f->ino, &f->size);

	/* the mapping first seen may be the dynamic loader's reservation of
	 * the whole file, split into segments since: its mapping now */
	if (fd < 0 && !refind(f))
		fd = open_mapping(f->pid, f->start, f->end, f->dev, f->ino,
				  &f->size);
	if (fd < 0) {
		f->pid = 0; /* its process is gone: wait for another */
		return;
	}
	load_file(l, fd, f->pid, f->path, f, &cached);
	close(fd);
	if (f->state == UNWIND_FILE_PENDING)
		return; /* the run is ending */
	publish_state(l, f);
	if (f->state == UNWIND_FILE_ROWS)
		note_built(l, f, t0, cached);
	free(f->path);
	f->path = NULL;
}

/* Room for file ids up to n in the by-id arrays: 0 or -ENOMEM. */
static int grow_ids(struct unwind_loader *l, uint32_t n)
{
	uint32_t cap = l->cap ? l->cap : 256, i;
	struct ufile **b;
	struct unwind_file *d;
	uint32_t *k;

	if (n <= l->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	b = realloc(l->byid, cap * sizeof(*b));
	if (b)
		l->byid = b;
	d = realloc(l->demand, cap * sizeof(*d));
	if (d)
		l->demand = d;
	k = realloc(l->ids, cap * sizeof(*k));
	if (k)
		l->ids = k;
	if (!b || !d || !k)
		return -ENOMEM;
	for (i = l->cap; i < cap; i++) {
		l->byid[i] = NULL;
		l->ids[i] = i;
	}
	l->cap = cap;
	return 0;
}

/* Is a (wanted wa, size sa) worth building before b? The most frames
 * waiting for it per byte of file to read: libc's rows (a tenth of
 * libjvm's, in every stack) before libjvm's, which take 0.3-3 s. Of a
 * target's files nobody waits for yet, the smallest: the one that will
 * be wanted (libjvm.so, dlopen'ed later) waits for the build under way. */
static bool before(uint64_t wa, uint64_t sa, uint64_t wb, uint64_t sb)
{
	if (!wa && !wb)
		return sa < sb;
	return wa * (sb + SIZE_FLOOR) > wb * (sa + SIZE_FLOOR);
}

/* Is f's cached entry worth reading unasked (CACHED_ROOM)? */
static bool cached_fits(const struct unwind_loader *l, const struct ufile *f)
{
	return f->cached &&
	       l->next_row + f->cached_rows <= l->max_rows / CACHED_ROOM;
}

/*
 * The pending file to build next: the one whose code the most walked
 * frames met since the run began (unwind_files' counts: what runs) per
 * byte, then a target's (-p, a launched command: built before samples
 * ask, as its first seconds are the ones a short run is about), then
 * one whose rows the cache holds (a few ms to read back: a warm
 * host-wide run walks with them from its first samples), or NULL.
 */
static struct ufile *next_file(struct unwind_loader *l)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	struct ufile *best = NULL, *f;
	uint32_t n = l->next_id, i, best_w = 0, batch;
	int r, cls, best_cls = 3;

	if (!l->st.pending || !n)
		return NULL;
	if (l->files_map && map_files(l, n)) {
		/* what next_file asks (BPF adds to wanted meanwhile) */
		for (i = 0; i < n; i++)
			l->demand[i] = (struct unwind_file){
			    .state = __atomic_load_n(&l->files_map[i].state,
						     __ATOMIC_RELAXED),
			    .wanted = __atomic_load_n(&l->files_map[i].wanted,
						      __ATOMIC_RELAXED)};
	} else {
		r = bpf_map_lookup_batch(l->files_fd, NULL, &batch, l->ids,
					 l->demand, &n, &opts);
		if (r && errno != ENOENT)
			return NULL;
	}
	for (i = 0; i < n && i < l->next_id; i++) {
		f = l->byid[i];
		if (!f || f->state != UNWIND_FILE_PENDING || !f->pid)
			continue;
		/* wanted, a target's, cached (in the order first seen: the
		 * busiest processes' tables are asked for first) */
		cls = l->demand[i].wanted ? 0
		      : f->eager	  ? 1
		      : cached_fits(l, f) ? 2
					  : 3;
		if (cls == 3 || cls > best_cls ||
		    (cls == best_cls &&
		     (cls == 2 || !before(l->demand[i].wanted, f->size, best_w,
					  best->size))))
			continue;
		best = f;
		best_cls = cls;
		best_w = l->demand[i].wanted;
	}
	return best;
}

/* p_offset - p_vaddr of the executable segment of the ELF open at fd. */
static int fd_delta(int fd, uint64_t *delta)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int r = -ENOEXEC;

	if (elf && elf_kind(elf) == ELF_K_ELF)
		r = exec_delta(elf, delta);
	elf_end(elf);
	return r;
}

/*
 * The file of mapping v of pid: known by (device, inode), given an id
 * and its executable segment's place on first sight (its rows wait for
 * a sample to need them: next_file); NULL when it has no rows (nor will).
 */
static struct ufile *file_of(struct unwind_loader *l, int pid,
			     const struct vma *v)
{
	uint64_t key = (v->dev * 0x9e3779b97f4a7c15ULL ^ v->inode) | 1;
	struct ufile *f;
	bool added;
	void **slot = u64map__add(&l->files, key, &added);
	uint64_t size;
	char ckey[256];
	int fd;

	if (!slot)
		return NULL;
	for (f = *slot; f; f = f->next)
		if (f->dev == v->dev && f->ino == v->inode)
			break;
	if (f && f->state == UNWIND_FILE_PENDING && !f->pid) {
		/* the process it was seen in is gone: this one maps it */
		free(f->path);
		f->path = strdup(v->path);
		f->pid = f->path ? pid : 0;
		f->start = v->start;
		f->end = v->end;
	}
	if (f)
		return f->state == UNWIND_FILE_NONE ? NULL : f;
	fd = open_mapping(pid, v->start, v->end, v->dev, v->inode, &size);
	if (fd < 0)
		return NULL; /* gone, or not a file: try again next time */
	f = calloc(1, sizeof(*f));
	if (!f || grow_ids(l, l->next_id + 1)) {
		free(f);
		close(fd);
		return NULL;
	}
	f->dev = v->dev;
	f->ino = v->inode;
	f->size = size;
	f->next = *slot;
	*slot = f;
	f->state = UNWIND_FILE_NONE;
	if (fd_delta(fd, &f->delta)) {
		l->st.files_without++;
	} else if (l->next_id >= UNWIND_MAX_FILES) {
		l->st.full++;
	} else {
		f->id = l->next_id++;
		l->byid[f->id] = f;
		f->path = strdup(v->path);
		f->pid = f->path ? pid : 0;
		f->start = v->start;
		f->end = v->end;
		f->state = UNWIND_FILE_PENDING;
		f->cached = l->cache &&
			    !rowcache__key(fd, ckey, sizeof(ckey)) &&
			    rowcache__has(l->cache, ckey, &f->cached_rows);
		f->cached_rows /= sizeof(struct unwind_row);
		l->st.pending++;
	}
	close(fd);
	return f->state == UNWIND_FILE_NONE ? NULL : f;
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

/*
 * pid's address space size (/proc/PID/stat's vsize) and its executable
 * mappings' (/proc/PID/status' VmExe and VmLib, the symbolizer's signal),
 * mixed; 0 when unknown: an mmap, munmap or exec changes the first, and
 * the dynamic loader's MAP_FIXED of a library's code over the region it
 * reserved (the same size) the second, so the same value means the same
 * executable mappings, told by a few numbers where /proc/PID/maps
 * prints every mapping's path.
 */
static uint64_t vsize_of(int pid)
{
	struct procfs_status ss;
	struct procfs_stat st;

	if (procfs__read_stat(pid, &st) || !st.vsize ||
	    procfs__read_status(pid, &ss))
		return 0;
	return st.vsize ^ (ss.vm_exe_kb * 1000003 ^ ss.vm_lib_kb) << 40;
}

/* pid's table from its mappings text; eager: a target's (its files
 * built before samples ask). */
static int write_table(struct unwind_loader *l, int pid,
		       const struct procmaps *pm, bool eager)
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
		f->eager = f->eager || eager;
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

static int refresh_now(struct unwind_loader *l, int pid, uint64_t now_ns,
		       bool eager)
{
	struct unwind_proc probe;
	struct procmaps *pm;
	struct uproc *up;
	bool added, gone;
	void **slot;
	__u32 key = pid;
	uint64_t h, h2, vsize;
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
	/* its size read before its mappings: a change after it shows */
	vsize = vsize_of(pid);
	if (!gone && vsize && vsize == up->vsize)
		return 0; /* nothing mapped or unmapped since its table */
	pm = read_pm(pid, &h);
	if (!pm)
		return -errno;
	if (!gone && h == up->maps_hash) {
		procmaps__free(pm);
		up->vsize = vsize;
		return 0;
	}
	r = write_table(l, pid, pm, eager);
	procmaps__free(pm);
	if (r || stop__asked())
		return r ? r : -EINTR;
	/*
	 * An exec (or munmap and mmap) between our reading and our writing
	 * would leave a table of mappings the process no longer has: when
	 * its size changed, read them again and take the table back if they
	 * changed. An exec after this deletes it in BPF.
	 */
	if (!vsize || vsize_of(pid) != vsize) {
		pm = read_pm(pid, &h2);
		if (!pm || h2 != h) {
			bpf_map_delete_elem(l->procs_fd, &key);
			procmaps__free(pm);
			return -EAGAIN;
		}
		procmaps__free(pm);
		vsize = 0; /* changed: read its mappings next time */
	}
	up->maps_hash = h;
	up->vsize = vsize;
	return r;
}

/* A process gone: its table and its record. */
static void forget_now(struct unwind_loader *l, int pid)
{
	__u32 key = pid;

	bpf_map_delete_elem(l->procs_fd, &key);
	free(u64map__del(&l->procs, (uint64_t)pid + 1));
}

/* Is pid a target (unwind_loader__target)? Under l->mu. */
static bool is_target(struct unwind_loader *l, int pid)
{
	return u64map__find(&l->targets, (uint64_t)pid + 1) != NULL;
}

/*
 * The worker: the processes asked for, one at a time, oldest first
 * (-pid: forget; a table costs a reading of its mappings and of each new
 * file's ELF header), and the rows of the file most wanted: between
 * tables at least every POLL_NS (a host's start-up queues hundreds of
 * processes: the rows the running ones' samples wait for come first),
 * and when no table is asked for; idle, it reads the demand every
 * POLL_NS.
 */
static void *worker(void *arg)
{
	struct unwind_loader *l = arg;
	struct timespec until;
	struct ufile *f;
	bool eager = false;
	uint64_t polled = 0, now;
	int pid;

	if (l->cache) /* here, not in the run's start: a scan of the dir */
		rowcache__prune(l->cache, ROWCACHE_MAX_BYTES);
	pthread_mutex_lock(&l->mu);
	while (!l->stop) {
		pid = 0;
		now = nsec__now();
		if (l->qn && now - polled < POLL_NS) {
			pid = l->queue[0];
			memmove(l->queue, l->queue + 1, --l->qn * sizeof(int));
			eager = pid > 0 && is_target(l, pid);
		}
		l->busy = true;
		pthread_mutex_unlock(&l->mu);
		f = NULL;
		if (pid < 0)
			forget_now(l, -pid);
		else if (pid && !stop__asked()) /* the run is ending: no use */
			refresh_now(l, pid, nsec__now(), eager);
		else if (!pid && !stop__asked() && (polled = now) &&
			 (f = next_file(l)))
			build(l, f);
		pthread_mutex_lock(&l->mu);
		l->busy = false;
		/* a new table may map files a target wants: a poll says */
		l->todo = pid > 0 || f;
		l->pub = l->st;
		pthread_cond_broadcast(&l->idle);
		if (pid || f || l->qn || l->stop)
			continue;
		/* no file waits for rows: only a request (a refresh, a
		 * forget, the end) can give one, and it signals */
		if (!l->st.pending) {
			pthread_cond_wait(&l->work, &l->mu);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += POLL_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&l->work, &l->mu, &until);
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

int unwind_loader__target(struct unwind_loader *l, int pid)
{
	bool added;
	void **slot;

	pthread_mutex_lock(&l->mu);
	slot = u64map__add(&l->targets, (uint64_t)pid + 1, &added);
	if (slot)
		*slot = (void *)1;
	pthread_mutex_unlock(&l->mu);
	if (!slot)
		return -ENOMEM;
	return unwind_loader__refresh(l, pid, 0);
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
	while ((l->qn || l->busy || l->todo) && !r)
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

bool unwind_loader__built(struct unwind_loader *l, size_t i,
			  struct unwind_built *out, char *path, size_t cap)
{
	bool ok;

	pthread_mutex_lock(&l->mu);
	ok = i < l->nbuilt;
	if (ok) {
		*out = l->built[i];
		snprintf(path, cap, "%s", l->built[i].path);
		out->path = path;
	}
	pthread_mutex_unlock(&l->mu);
	return ok;
}

void unwind_loader__stats(struct unwind_loader *l,
			  struct unwind_loader_stats *st)
{
	pthread_mutex_lock(&l->mu);
	*st = l->pub;
	pthread_mutex_unlock(&l->mu);
}
