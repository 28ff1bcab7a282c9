/*
 * attach_agentfile: make the agent loadable from inside the target JVM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach_agentfile.h"
#include "procinfo.h"

#define COPY_CHUNK 65536

int attach_agentfile__open(struct attach_agentfile *af, const char *path)
{
	int err = 0;

	af->path = path;
	af->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (af->fd < 0)
		return -errno;
	if (fstat(af->fd, &af->st))
		err = -errno;
	else if (!S_ISREG(af->st.st_mode))
		err = -EINVAL;
	if (err) {
		close(af->fd);
		af->fd = -1;
	}
	return err;
}

void attach_agentfile__close(struct attach_agentfile *af)
{
	if (af && af->fd >= 0)
		close(af->fd);
	if (af)
		af->fd = -1;
}

/* Can the JVM's user (our credentials now) open our file by its path? */
static bool visible_and_readable(struct attach_agentfile *af, int rootfd)
{
	struct stat st;
	bool same;
	int fd;

	/* the JVM's user controls its root: a FIFO there must not hold us */
	fd = procinfo__open_in_root(rootfd, af->path, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return false;
	same = !fstat(fd, &st) && st.st_dev == af->st.st_dev &&
	       st.st_ino == af->st.st_ino;
	close(fd);
	return same;
}

/* Whether fd holds exactly the bytes of our library. */
static bool same_content(struct attach_agentfile *af, int fd)
{
	char *a = malloc(COPY_CHUNK), *b = malloc(COPY_CHUNK);
	struct stat st;
	bool same = a && b && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid() && st.st_size == af->st.st_size;
	ssize_t n;

	for (off_t off = 0; same && off < af->st.st_size; off += n) {
		n = pread(af->fd, a, COPY_CHUNK, off);
		same = n > 0 && pread(fd, b, n, off) == n && !memcmp(a, b, n);
	}
	free(a);
	free(b);
	return same;
}

/* Copy our library into fd. */
static int copy_to(struct attach_agentfile *af, int fd)
{
	char *buf = malloc(COPY_CHUNK);
	ssize_t n = 0, w;
	off_t off = 0;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err && (n = pread(af->fd, buf, COPY_CHUNK, off)) > 0) {
		for (ssize_t done = 0; !err && done < n; done += w) {
			w = write(fd, buf + done, n - done);
			if (w < 0)
				err = -errno;
		}
		off += n;
	}
	if (!err && n < 0)
		err = -errno;
	free(buf);
	/* the JVM's user must be able to map it whatever our umask was */
	if (!err && fchmod(fd, 0644))
		err = -errno;
	return err;
}

/*
 * Put a copy at tmp/name: reuse an identical one of ours, else write a
 * private file and rename it into place. When the name is taken by
 * someone else's file (sticky /tmp), keep the private name instead.
 */
static int place_copy(struct attach_agentfile *af, int tmpfd, char *name,
		      size_t size)
{
	char priv[64];
	int fd, err;

	fd =
	    openat(tmpfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		bool same = same_content(af, fd);

		close(fd);
		if (same)
			return 0;
	}
	snprintf(priv, sizeof(priv), "%s.%d", name, (int)getpid());
	unlinkat(tmpfd, priv, 0); /* left over by a crashed run */
	fd = openat(tmpfd, priv,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = copy_to(af, fd);
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		unlinkat(tmpfd, priv, 0);
		return err;
	}
	if (renameat(tmpfd, priv, tmpfd, name) && strlen(priv) < size)
		strcpy(name, priv);
	return 0;
}

int attach_agentfile__place(struct attach_agentfile *af, int rootfd, int tmpfd,
			    char *out, size_t outlen)
{
	char name[48];
	int err;

	if (visible_and_readable(af, rootfd)) {
		if ((size_t)snprintf(out, outlen, "%s", af->path) >= outlen)
			return -ENAMETOOLONG;
		return 0;
	}
	snprintf(name, sizeof(name), "mixprof-libjmap-%u.so",
		 (unsigned)geteuid());
	err = place_copy(af, tmpfd, name, sizeof(name));
	if (err)
		return err;
	if ((size_t)snprintf(out, outlen, "/tmp/%s", name) >= outlen)
		return -ENAMETOOLONG;
	return 0;
}
