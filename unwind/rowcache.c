// SPDX-License-Identifier: GPL-2.0
/*
 * rowcache.c: unwind rows kept between runs (rowcache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common/safefile.h"
#include "symbolizer/elf_syms.h"
#include "rowcache.h"

#define MAGIC "MXROWS\n"

struct rowcache {
	int dfd;
};

/* An entry's head, then n rows. */
struct head {
	char magic[8];
	uint32_t version, flags; /* ROWCACHE_VERSION; 1: from .debug_frame */
	uint64_t n;
};

/* The directory name below dfd (AT_FDCWD: an absolute path), made 0700
 * when missing; an fd only when it is ours, not a link, and not
 * writable by others. */
static int own_dir(int dfd, const char *name)
{
	struct stat st;
	int fd;

	if (mkdirat(dfd, name, 0700) && errno != EEXIST)
		return -errno;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* base/a/b, each ours (base itself: as the user's environment says). */
static int open_under(const char *base, const char *a, const char *b)
{
	int d0, d1, d2;

	d0 = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d0 < 0)
		return -errno;
	d1 = a ? own_dir(d0, a) : d0;
	if (a)
		close(d0);
	if (d1 < 0 || !b)
		return d1;
	d2 = own_dir(d1, b);
	close(d1);
	return d2;
}

struct rowcache *rowcache__open(void)
{
	const char *dir = getenv("MIXPROF_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct rowcache *c;
	char *parent, *slash;
	int fd;

	if (dir && !strcmp(dir, "off")) {
		errno = ENOENT;
		return NULL;
	}
	if (dir && dir[0] == '/') {
		/* its parent as given, the directory itself ours */
		parent = strdup(dir);
		if (!parent)
			return NULL;
		for (slash = parent + strlen(parent);
		     slash > parent && slash[-1] == '/';)
			*--slash = '\0';
		slash = strrchr(parent, '/');
		if (!slash || !slash[1]) {
			free(parent);
			errno = EINVAL;
			return NULL;
		}
		*slash = '\0';
		fd = open_under(*parent ? parent : "/", slash + 1, NULL);
		free(parent);
	} else if (xdg && xdg[0] == '/') {
		fd = open_under(xdg, "mixprof", "rows");
	} else if (home && home[0] == '/') {
		fd = open_under(home, ".cache", "mixprof");
		if (fd >= 0) {
			int d = own_dir(fd, "rows");

			close(fd);
			fd = d;
		}
	} else {
		fd = -ENOENT;
	}
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return NULL;
	}
	c->dfd = fd;
	return c;
}

void rowcache__close(struct rowcache *c)
{
	if (!c)
		return;
	close(c->dfd);
	free(c);
}

int rowcache__key(int fd, char *key, size_t cap)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	uint8_t id[64];
	size_t len = 0, i;
	struct stat st;
	int at;

	if (elf && elf_kind(elf) == ELF_K_ELF)
		elfsyms__read_build_id(elf, id, &len);
	elf_end(elf);
	if (len > sizeof(id))
		len = 0;
	if (len) {
		at = snprintf(key, cap, "v%d-b-", ROWCACHE_VERSION);
		for (i = 0; i < len && at > 0 && (size_t)at + 2 < cap; i++)
			at += snprintf(key + at, cap - at, "%02x", id[i]);
		return i == len && at > 0 && (size_t)at < cap ? 0 : -ENOSPC;
	}
	if (fstat(fd, &st))
		return -errno;
	at = snprintf(key, cap, "v%d-i-%llx-%llx-%llx-%lld.%09ld",
		      ROWCACHE_VERSION, (unsigned long long)st.st_dev,
		      (unsigned long long)st.st_ino,
		      (unsigned long long)st.st_size,
		      (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	return at > 0 && (size_t)at < cap ? 0 : -ENOSPC;
}

bool rowcache__has(struct rowcache *c, const char *key, uint64_t *bytes)
{
	struct stat st;

	if (fstatat(c->dfd, key, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return false;
	*bytes = st.st_size;
	return true;
}

/* Rows as rowgen makes them: sorted by pc, known kinds. */
static bool rows_ok(const struct unwind_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].kind >= ROW_KINDS || (i && r[i].pc < r[i - 1].pc))
			return false;
	return true;
}

/* All of len bytes at fd into buf: 0 or -EIO. */
static int read_all(int fd, void *buf, size_t len)
{
	ssize_t k;

	for (char *p = buf; len; p += k, len -= k) {
		k = read(fd, p, len);
		if (k <= 0)
			return -EIO;
	}
	return 0;
}

int rowcache__get(struct rowcache *c, const char *key, struct unwind_row **rows,
		  size_t *n, bool *dbg)
{
	struct safe_in in = {.uid = geteuid(),
			     .max_size = sizeof(struct head) +
					 (uint64_t)UNWIND_MAX_ROWS * 8};
	struct head h;
	struct stat st;
	struct unwind_row *r = NULL;
	int fd = safefile__open_in(c->dfd, key, &in), err;

	if (fd < 0)
		return fd == -ENOENT ? -ENOENT : fd;
	err = fstat(fd, &st) ? -errno : read_all(fd, &h, sizeof(h));
	if (!err &&
	    (memcmp(h.magic, MAGIC, sizeof(h.magic)) ||
	     h.version != ROWCACHE_VERSION || !h.n || h.n > UNWIND_MAX_ROWS ||
	     (uint64_t)st.st_size != sizeof(h) + h.n * sizeof(*r)))
		err = -EBADMSG;
	if (!err && !(r = malloc(h.n * sizeof(*r))))
		err = -ENOMEM;
	if (!err)
		err = read_all(fd, r, h.n * sizeof(*r));
	if (!err && !rows_ok(r, h.n))
		err = -EBADMSG;
	if (!err)
		futimens(fd, NULL); /* used: the last to be pruned */
	close(fd);
	if (err) {
		free(r);
		return err;
	}
	*rows = r;
	*n = h.n;
	*dbg = h.flags & 1;
	return 0;
}

int rowcache__put(struct rowcache *c, const char *key,
		  const struct unwind_row *rows, size_t n, bool dbg)
{
	struct head h = {.version = ROWCACHE_VERSION, .flags = dbg, .n = n};
	char tmp[300];
	int fd, err = 0;
	ssize_t k;

	memcpy(h.magic, MAGIC, sizeof(h.magic));
	if (snprintf(tmp, sizeof(tmp), ".%s.%d", key, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = openat(c->dfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	k = write(fd, &h, sizeof(h));
	if (k != (ssize_t)sizeof(h))
		err = -EIO;
	for (size_t at = 0; !err && at < n * sizeof(*rows); at += k) {
		k = write(fd, (const char *)rows + at, n * sizeof(*rows) - at);
		if (k <= 0)
			err = -EIO;
	}
	if (close(fd) && !err)
		err = -EIO;
	if (!err && renameat(c->dfd, tmp, c->dfd, key))
		err = -errno;
	if (err)
		unlinkat(c->dfd, tmp, 0);
	return err;
}

/* An entry as prune sees it. */
struct pentry {
	struct timespec used;
	uint64_t size;
	char name[256];
};

static int by_use(const void *a, const void *b)
{
	const struct timespec *x = &((const struct pentry *)a)->used;
	const struct timespec *y = &((const struct pentry *)b)->used;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? -1 : 1;
	return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

/* Whether the file name in dir is to go whatever the bound: an entry of
 * another version, or a temporary file an hour old. */
static bool stale(const char *name, const struct stat *st, const char *mine)
{
	if (name[0] == '.')
		return time(NULL) - st->st_mtim.tv_sec > 3600;
	return strncmp(name, mine, strlen(mine)) != 0;
}

/* The current version's entries of dir into *out (stale files deleted,
 * counted in *gone), their bytes in *total. */
static int scan(struct rowcache *c, DIR *dir, struct pentry **out, size_t *nr,
		uint64_t *total, int *gone)
{
	struct pentry *v = NULL, *nv;
	size_t cap = 0;
	struct dirent *d;
	struct stat st;
	char mine[16];

	snprintf(mine, sizeof(mine), "v%d-", ROWCACHE_VERSION);
	while ((d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    fstatat(c->dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (stale(d->d_name, &st, mine)) {
			*gone += !unlinkat(c->dfd, d->d_name, 0);
			continue;
		}
		if (*nr == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		v[*nr].used = st.st_mtim;
		v[*nr].size = st.st_size;
		snprintf(v[*nr].name, sizeof(v[*nr].name), "%s", d->d_name);
		*total += st.st_size;
		(*nr)++;
	}
	*out = v;
	return 0;
}

int rowcache__prune(struct rowcache *c, uint64_t max)
{
	int fd = dup(c->dfd), gone = 0, err;
	struct pentry *v = NULL;
	uint64_t total = 0;
	size_t nr = 0;
	DIR *dir;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	rewinddir(dir); /* the dup shares the offset of the scan before */
	err = scan(c, dir, &v, &nr, &total, &gone);
	closedir(dir);
	if (err)
		return err;
	if (total > max) {
		qsort(v, nr, sizeof(*v), by_use);
		for (size_t i = 0; i < nr && total > max / 4 * 3; i++)
			if (!unlinkat(c->dfd, v[i].name, 0)) {
				total -= v[i].size;
				gone++;
			}
	}
	free(v);
	return gone;
}
