/*
 * safefile: guarded open for files in shared directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "safefile.h"

/* What the open file is, now that we hold it: no race with the path. */
static int check_fd(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_uid != geteuid())
		return -EPERM;
	if (st.st_nlink != 1)
		return -EMLINK;
	if ((st.st_mode & 07777) != 0644 && fchmod(fd, 0644))
		return -errno;
	return 0;
}

/* EACCES on an existing file of someone else is an ownership problem, on
 * a missing one a directory problem: tell them apart for the message. */
static int open_error(const char *path, int err)
{
	struct stat st;

	if (err == EACCES && !lstat(path, &st) && st.st_uid != geteuid())
		return -EPERM;
	/* a FIFO or socket without a reader: not a file we write */
	if (err == ENXIO)
		return -EINVAL;
	return -err;
}

int safefile__open(const char *path, int flags)
{
	int fd, ret, fl;

	fd = open(path, flags | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		  0644);
	if (fd < 0)
		return open_error(path, errno);
	ret = check_fd(fd);
	if (ret)
		goto close_fd;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		ret = -errno;
		goto close_fd;
	}
	return fd;
close_fd:
	close(fd);
	return ret;
}

const char *safefile__strerror(int err)
{
	switch (err) {
	case -ELOOP:
		return "is a symbolic link; not following it";
	case -EINVAL:
		return "is not a regular file";
	case -EPERM:
		return "belongs to another user; not reusing it";
	case -EMLINK:
		return "has other hard links; not writing to it";
	default:
		return strerror(-err);
	}
}
