/*
 * perfmap: one locked, append-only map file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>
#include "perfmap.h"
#include "safefile.h"

struct perfmap {
	pthread_mutex_t lock;
	int fd;
	off_t size; /* bytes of whole records written */
	char path[PATH_MAX];
};

/* write() until done: a short write on a regular file (signal, disk
 * nearly full) must not leave half a record for the next one to follow. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

/* Take the writer's lock, then drop what a stale writer left. */
static int lock_and_truncate(int fd)
{
	if (flock(fd, LOCK_EX | LOCK_NB))
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (ftruncate(fd, 0))
		return -errno;
	return 0;
}

int perfmap__open(const char *dir, int pid, struct perfmap **out,
		  const char **path_out)
{
	static char failed_path[PATH_MAX];
	struct perfmap *pm;
	int ret;

	*out = NULL;
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return -ENOMEM;
	pm->fd = -1;
	if (snprintf(pm->path, sizeof(pm->path), "%s/perf-%d.map", dir, pid) >=
	    (int)sizeof(pm->path)) {
		ret = -ENAMETOOLONG;
		goto fail;
	}
	ret = safefile__open(pm->path, O_WRONLY | O_APPEND);
	if (ret < 0)
		goto fail;
	pm->fd = ret;
	ret = lock_and_truncate(pm->fd);
	if (ret)
		goto fail;
	pthread_mutex_init(&pm->lock, NULL);
	*out = pm;
	if (path_out)
		*path_out = pm->path;
	return 0;
fail:
	snprintf(failed_path, sizeof(failed_path), "%s", pm->path);
	if (path_out)
		*path_out = failed_path;
	if (pm->fd >= 0)
		close(pm->fd);
	free(pm);
	return ret;
}

const char *perfmap__path(const struct perfmap *pm)
{
	return pm->path;
}

/*
 * A failed write (disk full) may have left part of a record: cut the file
 * back to the last whole record so the next record does not continue a
 * torn line; if even that fails, end the line.
 */
static void drop_partial(struct perfmap *pm)
{
	if (ftruncate(pm->fd, pm->size) && write_all(pm->fd, "\n", 1))
		return; /* nothing left to try; the caller reports the error */
}

int perfmap__write(struct perfmap *pm, const void *buf, size_t len)
{
	int ret = -EBADF;

	pthread_mutex_lock(&pm->lock);
	if (pm->fd >= 0) {
		ret = write_all(pm->fd, buf, len);
		if (!ret)
			pm->size += len;
		else
			drop_partial(pm);
	}
	pthread_mutex_unlock(&pm->lock);
	return ret;
}

void perfmap__close(struct perfmap *pm)
{
	if (!pm)
		return;
	pthread_mutex_lock(&pm->lock);
	if (pm->fd >= 0)
		close(pm->fd);
	pm->fd = -1;
	pthread_mutex_unlock(&pm->lock);
}

void perfmap__free(struct perfmap *pm)
{
	if (!pm)
		return;
	perfmap__close(pm);
	pthread_mutex_destroy(&pm->lock);
	free(pm);
}
