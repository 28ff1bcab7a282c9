/*
 * perfmap: the writer of DIR/perf-PID.map, perf's JIT symbol file.
 *
 * One writer per JVM: the open file description holds flock(LOCK_EX|
 * LOCK_NB), so a second copy of the agent in the same process (attached
 * twice, even from another path) gets -EBUSY and must stay inert. Only the
 * lock holder truncates what an earlier process of the same pid (or the
 * JDK's own perfmap) left behind.
 *
 * Records are appended with one write() on an O_APPEND descriptor under a
 * mutex, before perfmap__write returns: records never interleave, and each
 * is readable as soon as perfmap__write returns. A reader racing with a
 * write may see only the first part of the last record (Linux does not
 * make reads atomic against writes), so readers consume complete lines
 * only. A failed write is cut back to the last whole record.
 */
#ifndef MIXPROF_JMAP_PERFMAP_H
#define MIXPROF_JMAP_PERFMAP_H

#include <stddef.h>

struct perfmap;

/*
 * Open and lock DIR/perf-PID.map. 0 and *out, or -errno: safefile's errors
 * (symlink, other owner...), -EBUSY when another writer holds the lock,
 * -ENOMEM, or the open's error. *path_out (may be NULL) gets the path,
 * valid until perfmap__free, even on failure (for the message); on
 * failure it points into a static buffer.
 */
int perfmap__open(const char *dir, int pid, struct perfmap **out,
		  const char **path_out);

/* The map's path. */
const char *perfmap__path(const struct perfmap *pm);

/* Append len bytes as one record. 0, -EBADF after close, or -errno. */
int perfmap__write(struct perfmap *pm, const void *buf, size_t len);

/* Close the file (and release the lock); later writes get -EBADF. Safe
 * while other threads write. NULL allowed. */
void perfmap__close(struct perfmap *pm);

/* Close and free. Only when no other thread can still use pm. */
void perfmap__free(struct perfmap *pm);

#endif
