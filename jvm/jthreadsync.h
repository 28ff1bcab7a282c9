/*
 * jthreadsync: one JVM's Java threads into the sampler's java_threads map
 * (sampler_abi.h: (tgid, tid) -> JavaThread*), as its ThreadsList reads
 * now, by the difference from what the last call gave: a system call
 * only for threads new, changed or gone.
 *
 * The list comes from the JVM's memory, which that process controls. So
 * every key written or deleted carries the JVM's own tgid (another
 * process's entries are out of its reach), a thread is given only when
 * owns() says it is one of the JVM's (/proc/TGID/task/TID in the run),
 * and at most JAVA_THREADS_PER_JVM of them (one process cannot fill the
 * map). A thread refused stays refused, without asking owns() again,
 * while the list names it with the same JavaThread*.
 *
 * Pure: the map and the ownership check are the caller's functions, so
 * the unit tests run it on fakes. Nothing here prints.
 */
#ifndef MIXPROF_JTHREADSYNC_H
#define MIXPROF_JTHREADSYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "jvm/hotspot.h"

struct jthreadsync_ops {
	/* as sampler__set_thread / __clear_thread: 0 or -errno */
	int (*set)(void *ctx, uint32_t tgid, uint32_t tid, uint64_t thread);
	int (*clear)(void *ctx, uint32_t tgid, uint32_t tid);
	/* is tid a thread of process tgid now? */
	bool (*owns)(void *ctx, uint32_t tgid, uint32_t tid);
	void *ctx;
};

enum jthread_state {
	JT_GIVEN = 1, /* in the map */
	JT_RETRY, /* the map was full: set again next call */
	JT_FOREIGN, /* not a thread of the JVM: refused */
	JT_OVER, /* past the JVM's cap: left out */
};

struct jthread {
	uint32_t tid;
	uint32_t state; /* enum jthread_state */
	uint64_t thread; /* its JavaThread* as listed */
};

/* What was given for one JVM: sorted by tid, owned by the caller. */
struct jthreads {
	struct jthread *t;
	size_t n;
	size_t given; /* of them JT_GIVEN: its entries in the map */
};

/* Counts of threads refused, each time one is first seen. */
struct jthreadsync_stats {
	uint64_t foreign; /* listed, but not a thread of the JVM */
	uint64_t over; /* past JAVA_THREADS_PER_JVM */
	uint64_t full; /* the map had no room */
};

/*
 * Bring the map's entries of tgid from g to now[0..n) (sorted here, in
 * place; a tid listed twice counts once): g then holds the new set.
 * 0, or -ENOMEM (g and the map as they were).
 */
int jthreadsync__apply(const struct jthreadsync_ops *ops, uint32_t tgid,
		       struct jthreads *g, struct hotspot_thread *now, size_t n,
		       struct jthreadsync_stats *st);

/* Delete every entry of tgid that g gave, and empty g (frees it). */
void jthreadsync__clear(const struct jthreadsync_ops *ops, uint32_t tgid,
			struct jthreads *g);

/* Is tid a thread of tgid: /proc/TGID/task/TID exists (ops.owns). */
bool jthreadsync__owns_proc(void *ctx, uint32_t tgid, uint32_t tid);

#endif
