/*
 * rowcache: a file's unwind rows kept between runs, so the next run
 * starts warm (libjvm's rows: 0.3 s of libdw on an idle host, seconds
 * on a busy one; read back: a few ms). One entry per file, named by its
 * GNU build-id, or by (device, inode, size, mtime) when it has none,
 * with the format's version in the name. The directory is
 * $MIXPROF_CACHE_DIR, else $XDG_CACHE_HOME/mixprof/rows, else
 * $HOME/.cache/mixprof/rows: made 0700 when missing, used only when it
 * and its two parents (one with MIXPROF_CACHE_DIR) are ours, not links,
 * and not writable by others. Entries are read as ours only, and
 * checked (size, order, kinds) before use: a bad one is a miss. Writes
 * go to a temporary name, then rename: a reader never sees half of one.
 * MIXPROF_CACHE_DIR=off: no cache. Not thread-safe: the loader's thread.
 *
 * The cache is bounded: rowcache__prune, once a run, deletes entries of
 * other format versions, temporary files an hour old (a run killed while
 * writing), and, while the entries exceed the bound, the least recently
 * used (a hit touches its entry's mtime).
 */
#ifndef MIXPROF_UNWIND_ROWCACHE_H
#define MIXPROF_UNWIND_ROWCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rows.h"

/* Bump when rowgen's rows for the same file change. */
#define ROWCACHE_VERSION 1
/* The bound on the entries' bytes (a host-wide run caches every binary
 * and library it sampled: libjvm's rows are about 3 MB); pruned to 3/4 of
 * it, so a full cache is not scanned again at every store. */
#define ROWCACHE_MAX_BYTES (256ULL << 20)

struct rowcache;

/* The cache directory opened (see above), or NULL (errno): no cache. */
struct rowcache *rowcache__open(void);
void rowcache__close(struct rowcache *c);

/* The entry name of the ELF open at fd into key (cap bytes): 0 or
 * -errno. */
int rowcache__key(int fd, char *key, size_t cap);

/* The rows stored under key: 0 (*rows malloc'd, *n, *dbg: from a
 * .debug_frame), -ENOENT (none), or another -errno (a bad entry). */
int rowcache__get(struct rowcache *c, const char *key, struct unwind_row **rows,
		  size_t *n, bool *dbg);

/* Is there an entry under key (a regular file of ours; not read, not
 * checked), and its size in *bytes: what makes reading a file's rows
 * before a sample asks worth it, and what they will take. */
bool rowcache__has(struct rowcache *c, const char *key, uint64_t *bytes);

/* Keep the cache within max bytes (see above): the number of entries
 * deleted, or -errno. */
int rowcache__prune(struct rowcache *c, uint64_t max);

/* Store rows under key: 0 or -errno (the run goes on without). */
int rowcache__put(struct rowcache *c, const char *key,
		  const struct unwind_row *rows, size_t n, bool dbg);

#endif
