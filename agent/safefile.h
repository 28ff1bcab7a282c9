/*
 * safefile: open an output file in a world-writable directory such as
 * /tmp without being tricked into writing somewhere else.
 *
 * Refused: a symlink at the path (-ELOOP, never followed), anything but a
 * regular file (-EINVAL; opened non-blocking so a planted FIFO cannot hang
 * the JVM), a file owned by another user (-EPERM, or -EACCES from open),
 * a file with other hard links (-EMLINK). The file is created 0644 when
 * missing and set to 0644 whatever the umask, so root's tools and the
 * owner can read it. It is NOT truncated: callers lock it first.
 */
#ifndef MIXPROF_JMAP_SAFEFILE_H
#define MIXPROF_JMAP_SAFEFILE_H

/* Open path with O_CREAT|O_CLOEXEC|O_NOFOLLOW|flags (O_WRONLY or O_RDWR,
 * maybe O_APPEND). Returns an fd, or -errno as above. */
int safefile__open(const char *path, int flags);

/* A short reason for the errors above ("is a symbolic link"...). */
const char *safefile__strerror(int err);

#endif
