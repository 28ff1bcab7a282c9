/*
 * safefile: opening what others control (see safefile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/safefile.h"

/* Blocking again: the checks are done, reads of a regular file never wait
 * on anyone, and stdio does not expect EAGAIN. */
static int clear_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))
		return -errno;
	return 0;
}

int safefile__check_fd(int fd, const struct safe_in *in)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (in->uid != SAFE_ANY_UID && st.st_uid != in->uid && st.st_uid != 0)
		return -EPERM;
	if (in->max_size && (uint64_t)st.st_size > in->max_size)
		return -EFBIG;
	return 0;
}

int safefile__open_in(int dirfd, const char *path, const struct safe_in *in)
{
	int fl = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	int fd, err;

	if (!in->follow)
		fl |= O_NOFOLLOW;
	fd = openat(dirfd, path, fl);
	if (fd < 0)
		return -errno;
	err = safefile__check_fd(fd, in);
	if (!err)
		err = clear_nonblock(fd);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* fd as a stream, or NULL with errno: the fd is closed either way. */
static FILE *as_stream(int fd, const char *mode)
{
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (!f) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return f;
}

FILE *safefile__fopen_in(int dirfd, const char *path, const struct safe_in *in)
{
	return as_stream(safefile__open_in(dirfd, path, in), "r");
}

bool safefile__name_ok(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

static bool ours_or_root(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * Open the directory a link at p names, if only root or we can have made
 * it and only root or we can swap it: the link owned by one of us, in a
 * directory of one of us that nobody else may write or that is sticky.
 * /var/run -> /run passes; a user's link in /tmp does not. fd or -ELOOP.
 */
static int follow_trusted(const char *p)
{
	const char *slash = strrchr(p, '/');
	char *parent = slash == p ? strdup("/")
		       : slash	  ? strndup(p, slash - p)
				  : strdup(".");
	struct stat ps, ls;
	int pfd, fd = -ELOOP;

	if (!parent)
		return -ENOMEM;
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(parent);
	if (pfd < 0)
		return -errno;
	if (!fstat(pfd, &ps) && ours_or_root(ps.st_uid) &&
	    (!(ps.st_mode & (S_IWGRP | S_IWOTH)) || (ps.st_mode & S_ISVTX)) &&
	    !fstatat(pfd, slash ? slash + 1 : p, &ls, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(ls.st_mode) && ours_or_root(ls.st_uid)) {
		fd = openat(pfd, slash ? slash + 1 : p,
			    O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	close(pfd);
	return fd;
}

int safefile__outdir(const char *path, bool create)
{
	char *p = strdup(path);
	size_t len;
	struct stat st;
	int fd, err = 0;

	if (!p)
		return -ENOMEM;
	/* "dir/" would follow a link named dir: the slash goes */
	for (len = strlen(p); len > 1 && p[len - 1] == '/';)
		p[--len] = '\0';
	if (create && mkdir(p, 0755) && errno != EEXIST)
		err = -errno;
	fd = err ? -1
		 : open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK |
			       O_CLOEXEC);
	if (!err && fd < 0) {
		err = -errno;
		/* O_DIRECTORY makes a link ENOTDIR: root's or ours is
		 * followed, another's refused as a link */
		if (err == -ENOTDIR && !lstat(p, &st) && S_ISLNK(st.st_mode)) {
			fd = follow_trusted(p);
			err = fd < 0 ? fd : 0;
		}
	}
	if (!err && fstat(fd, &st))
		err = -errno;
	free(p);
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

/*
 * What an existing or new output file must be before it is truncated: 0,
 * 1 for a character device (/dev/null: no user can make one, it is not
 * truncated), or -errno.
 */
static int check_out(int dirfd, int fd)
{
	struct stat st, dst;

	if (fstat(fd, &st) || fstat(dirfd, &dst))
		return -errno;
	if (S_ISCHR(st.st_mode) && st.st_nlink == 1)
		return 1;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_uid != geteuid() && st.st_uid != dst.st_uid)
		return -EPERM;
	if (st.st_nlink > 1)
		return -EMLINK;
	return 0;
}

int safefile__create_at(int dirfd, const char *name)
{
	int fd, err;

	if (!safefile__name_ok(name))
		return -EXDEV;
	fd = openat(dirfd, name,
		    O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			O_NOCTTY,
		    0644);
	if (fd < 0)
		/* a FIFO or socket nobody reads: not a regular file */
		return errno == ENXIO ? -EINVAL : -errno;
	err = check_out(dirfd, fd);
	if (!err && ftruncate(fd, 0))
		err = -errno;
	if (err == 1)
		err = 0;
	if (!err)
		err = clear_nonblock(fd);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

FILE *safefile__fcreate_at(int dirfd, const char *name)
{
	return as_stream(safefile__create_at(dirfd, name), "w");
}

FILE *safefile__fcreate(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	FILE *f;
	int dfd, err;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, slash - path);
	if (!dir) {
		errno = ENOMEM;
		return NULL;
	}
	dfd = safefile__outdir(dir, false);
	free(dir);
	if (dfd < 0) {
		errno = -dfd;
		return NULL;
	}
	f = safefile__fcreate_at(dfd, slash ? slash + 1 : path);
	err = errno;
	close(dfd);
	errno = err;
	return f;
}

const char *safefile__strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case ELOOP:
		return "a symbolic link, not followed";
	case EINVAL:
		return "not a regular file";
	case EXDEV:
		return "not a plain name inside the directory";
	case EPERM:
		return "owned by another user";
	case EMLINK:
		return "has other hard links";
	case EFBIG:
		return "larger than the size limit";
	default:
		return strerror(err < 0 ? -err : err);
	}
}
