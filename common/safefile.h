/*
 * safefile: the one way mixprof opens a path that a target process or
 * another local user can influence, for reading (perf maps, debug files,
 * /proc files, the attach files of a JVM) and for writing (every output
 * file and directory). Root must not be made to read a file the user
 * chose, write through a link, or wait on a FIFO.
 *
 * Reading: opened O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC (O_NOFOLLOW
 * dropped only when the caller allows the last component to be a link,
 * e.g. /proc/PID/map_files), then fstat must say regular file, owned by
 * the given uid or root when an owner is asked for, no larger than the
 * limit; then O_NONBLOCK is cleared.
 *
 * Writing: the directory is opened O_NOFOLLOW|O_DIRECTORY (the path up
 * to it is the operator's choice and resolved as usual; its last part may
 * be a link only if root or we own it and its directory, which nobody
 * else may write unless sticky, as /var/run); a file in it
 * is opened relative to that fd with
 * O_CREAT|O_NOFOLLOW|O_NONBLOCK and NOT O_TRUNC, must be a regular file
 * with no other hard link, owned by us (euid) or by the directory's
 * owner (who can replace it anyway), and only then is it truncated (a
 * character device such as /dev/null is written as is). So a
 * planted symlink, FIFO, another user's file in /tmp or a hard link to
 * someone's file is refused, and nothing can be swapped in between the
 * check and the write: everything goes through the fds.
 *
 * Errors (negative errno; safefile__strerror says them in words): -ELOOP a
 * symbolic link, -EINVAL not a regular file, -EXDEV a name that is not
 * one plain component (it would leave the directory), -EPERM owned by
 * another user,
 * -EMLINK other hard links, -EFBIG over the size limit; others are
 * open's own.
 */
#ifndef MIXPROF_COMMON_SAFEFILE_H
#define MIXPROF_COMMON_SAFEFILE_H

#include <fcntl.h> /* AT_FDCWD */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define SAFE_ANY_UID ((uid_t)-1)

struct safe_in {
	uid_t uid; /* owner must be this uid or root; SAFE_ANY_UID: anyone */
	uint64_t max_size; /* bytes; 0: no limit */
	bool follow; /* the last component may be a link (/proc magic) */
};

/* Open dirfd/path (AT_FDCWD or absolute path as openat) for reading under
 * the rules of *in. Returns an fd (blocking, close-on-exec) or -errno. */
int safefile__open_in(int dirfd, const char *path, const struct safe_in *in);

/* The same, as a stdio stream ("re"); NULL with errno set (positive). */
FILE *safefile__fopen_in(int dirfd, const char *path, const struct safe_in *in);

/* Check an open fd against *in (regular, owner, size). 0 or -errno. */
int safefile__check_fd(int fd, const struct safe_in *in);

/* Open directory path for output (made 0755 first when create and it is
 * missing). Returns an O_DIRECTORY fd or -errno. */
int safefile__outdir(const char *path, bool create);

/* Create or truncate name (one component, see safefile__name_ok) in dirfd for
 * writing, mode 0644. Returns an fd or -errno. */
int safefile__create_at(int dirfd, const char *name);

/* safefile__create_at as a stdio stream ("we"); NULL with errno set. */
FILE *safefile__fcreate_at(int dirfd, const char *name);

/* Create or truncate path: its directory opened by safefile__outdir (never
 * created), the file by safefile__create_at. NULL with errno set. */
FILE *safefile__fcreate(const char *path);

/* Whether name is one plain component: not empty, no '/', not . or .. */
bool safefile__name_ok(const char *name);

/* A short reason for the errors above ("a symbolic link, not followed"). */
const char *safefile__strerror(int err);

#endif
