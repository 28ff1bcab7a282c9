/*
 * jitdump: one jit-PID.dump file, appended under a mutex.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "jitdump.h"
#include "jitdump_rec.h"
#include "safefile.h"

struct jitdump {
	pthread_mutex_t lock;
	int fd;
	int pid;
	void *marker;
	size_t marker_len;
	uint64_t next_index;
	char path[PATH_MAX];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* writev() until done, so a record is never left half written. */
static int writev_all(int fd, struct iovec *iov, int n)
{
	while (n) {
		ssize_t w = writev(fd, iov, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		while (n && (size_t)w >= iov->iov_len) {
			w -= iov->iov_len;
			iov++, n--;
		}
		if (n) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= w;
		}
	}
	return 0;
}

/* Truncate, write the header, map the marker. */
static int start_file(struct jitdump *jd)
{
	struct jitdump_header h;
	struct iovec iov = {&h, sizeof(h)};
	int ret;

	if (ftruncate(jd->fd, 0))
		return -errno;
	jitdump_rec__header(&h, jd->pid, now_ns());
	ret = writev_all(jd->fd, &iov, 1);
	if (ret)
		return ret;
	jd->marker_len = sysconf(_SC_PAGESIZE);
	jd->marker = mmap(NULL, jd->marker_len, PROT_READ | PROT_EXEC,
			  MAP_PRIVATE, jd->fd, 0);
	if (jd->marker == MAP_FAILED) {
		jd->marker = NULL;
		return -errno;
	}
	return 0;
}

int jitdump__open(const char *dir, int pid, struct jitdump **out,
		  const char **path_out)
{
	static char failed_path[PATH_MAX];
	struct jitdump *jd;
	int ret;

	*out = NULL;
	jd = calloc(1, sizeof(*jd));
	if (!jd)
		return -ENOMEM;
	jd->fd = -1;
	jd->pid = pid;
	if (snprintf(jd->path, sizeof(jd->path), "%s/jit-%d.dump", dir, pid) >=
	    (int)sizeof(jd->path)) {
		ret = -ENAMETOOLONG;
		goto fail;
	}
	/* read access too: mmap of the marker needs it */
	ret = safefile__open(jd->path, O_RDWR | O_APPEND);
	if (ret < 0)
		goto fail;
	jd->fd = ret;
	ret = start_file(jd);
	if (ret)
		goto fail;
	pthread_mutex_init(&jd->lock, NULL);
	*out = jd;
	if (path_out)
		*path_out = jd->path;
	return 0;
fail:
	snprintf(failed_path, sizeof(failed_path), "%s", jd->path);
	if (path_out)
		*path_out = failed_path;
	if (jd->fd >= 0)
		close(jd->fd);
	free(jd);
	return ret;
}

int jitdump__code_load(struct jitdump *jd, const char *name, size_t namelen,
		       const void *addr, uint64_t size,
		       const struct jitdump_lines *lines)
{
	struct jitdump_code_load r;
	struct jitdump_debug_info d;
	struct iovec iov[5], *v = iov;
	uint64_t now;
	int ret = -EBADF;

	pthread_mutex_lock(&jd->lock);
	if (jd->fd < 0)
		goto unlock;
	now = now_ns();
	if (lines && lines->nr) {
		ret = jitdump_rec__debug_info(&d, (uintptr_t)addr, lines->nr,
					      lines->len, now);
		if (ret)
			goto unlock;
		*v++ = (struct iovec){&d, sizeof(d)};
		*v++ = (struct iovec){(void *)lines->entries, lines->len};
	}
	ret = jitdump_rec__code_load(&r, jd->pid, gettid(), (uintptr_t)addr,
				     size, jd->next_index, now, namelen);
	if (ret)
		goto unlock;
	*v++ = (struct iovec){&r, sizeof(r)};
	/* name and its NUL: name points into a NUL-terminated buffer */
	*v++ = (struct iovec){(void *)name, namelen + 1};
	*v++ = (struct iovec){(void *)addr, size};
	ret = writev_all(jd->fd, iov, v - iov);
	if (!ret)
		jd->next_index++;
unlock:
	pthread_mutex_unlock(&jd->lock);
	return ret;
}

void jitdump__close(struct jitdump *jd)
{
	struct jitdump_rec_header r;
	struct iovec iov = {&r, sizeof(r)};

	if (!jd)
		return;
	pthread_mutex_lock(&jd->lock);
	if (jd->fd >= 0) {
		jitdump_rec__close(&r, now_ns());
		writev_all(jd->fd, &iov, 1);
		if (jd->marker)
			munmap(jd->marker, jd->marker_len);
		jd->marker = NULL;
		close(jd->fd);
		jd->fd = -1;
	}
	pthread_mutex_unlock(&jd->lock);
}

void jitdump__free(struct jitdump *jd)
{
	if (!jd)
		return;
	jitdump__close(jd);
	pthread_mutex_destroy(&jd->lock);
	free(jd);
}
