// SPDX-License-Identifier: GPL-2.0
/*
 * jthreadsync: a JVM's Java threads into the sampler's java_threads map,
 * keyed by the JVM's tgid, its own threads only, at most
 * JAVA_THREADS_PER_JVM (see jthreadsync.h for the contract).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/types.h> /* the ABI header's __u32 */
#include "sampler/sampler_abi.h"
#include "common/stop.h"
#include "jthreadsync.h"

static int cmp_thread(const void *a, const void *b)
{
	uint32_t x = ((const struct hotspot_thread *)a)->tid,
		 y = ((const struct hotspot_thread *)b)->tid;

	return x < y ? -1 : x > y;
}

/* Sort now by tid and drop repeats (a list may name a tid twice). */
static size_t sort_unique(struct hotspot_thread *now, size_t n)
{
	size_t m = 0;

	qsort(now, n, sizeof(*now), cmp_thread);
	for (size_t i = 0; i < n; i++)
		if (!m || now[m - 1].tid != now[i].tid)
			now[m++] = now[i];
	return m;
}

/*
 * out[i] for now[i], with the state g gave it when g had the same tid
 * with the same JavaThread* (0: new or changed). Entries g gave that
 * this keeps no longer (gone or changed) are deleted from the map first,
 * so their room serves the new ones. Returns the entries kept given.
 */
static size_t merge(const struct jthreadsync_ops *ops, uint32_t tgid,
		    const struct jthreads *g, const struct hotspot_thread *now,
		    size_t n, struct jthread *out)
{
	size_t k = 0, kept = 0;

	for (size_t i = 0; i < n; i++) {
		while (k < g->n && g->t[k].tid < now[i].tid) {
			if (g->t[k].state == JT_GIVEN)
				ops->clear(ops->ctx, tgid, g->t[k].tid);
			k++;
		}
		out[i] = (struct jthread){now[i].tid, 0, now[i].thread};
		if (k < g->n && g->t[k].tid == now[i].tid) {
			if (g->t[k].thread == now[i].thread)
				out[i].state = g->t[k].state;
			else if (g->t[k].state == JT_GIVEN)
				ops->clear(ops->ctx, tgid, g->t[k].tid);
			k++;
		}
		kept += out[i].state == JT_GIVEN;
	}
	for (; k < g->n; k++)
		if (g->t[k].state == JT_GIVEN)
			ops->clear(ops->ctx, tgid, g->t[k].tid);
	return kept;
}

/*
 * Decide one thread not given yet: refused when not tgid's own (asked
 * once: a retried or left-out thread passed already), left out past
 * the cap, else set. Each refusal is counted when it first happens.
 */
static void give(const struct jthreadsync_ops *ops, uint32_t tgid,
		 struct jthread *t, size_t *used, struct jthreadsync_stats *st)
{
	uint32_t was = t->state;

	if (was == JT_FOREIGN)
		return;
	if (!was && !ops->owns(ops->ctx, tgid, t->tid)) {
		t->state = JT_FOREIGN;
		st->foreign++;
		return;
	}
	if (*used >= JAVA_THREADS_PER_JVM) {
		t->state = JT_OVER;
		st->over += was != JT_OVER;
		return;
	}
	if (ops->set(ops->ctx, tgid, t->tid, t->thread)) {
		t->state = JT_RETRY;
		st->full += was != JT_RETRY;
		return;
	}
	t->state = JT_GIVEN;
	(*used)++;
}

int jthreadsync__apply(const struct jthreadsync_ops *ops, uint32_t tgid,
		       struct jthreads *g, struct hotspot_thread *now, size_t n,
		       struct jthreadsync_stats *st)
{
	struct jthread *out;
	size_t used;

	n = sort_unique(now, n);
	out = malloc((n ? n : 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	/* threads given before keep their room: a new thread with a lower
	 * tid does not push one out past the cap */
	used = merge(ops, tgid, g, now, n, out);
	/* told to stop (common/stop.h): sampling ends, anchors are of no
	 * use; a thread left undecided stays not given, as a new one */
	for (size_t i = 0; i < n && !stop__asked(); i++)
		if (out[i].state != JT_GIVEN)
			give(ops, tgid, &out[i], &used, st);
	free(g->t);
	g->t = out;
	g->n = n;
	g->given = used;
	return 0;
}

void jthreadsync__clear(const struct jthreadsync_ops *ops, uint32_t tgid,
			struct jthreads *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->t[i].state == JT_GIVEN)
			ops->clear(ops->ctx, tgid, g->t[i].tid);
	free(g->t);
	*g = (struct jthreads){};
}

/*
 * The kernel's answer, not the JVM's: /proc/TGID/task/ lists exactly the
 * threads of TGID. A thread that exits after the check leaves an entry
 * under tgid that no other process can look up, deleted when the list
 * drops it.
 */
bool jthreadsync__owns_proc(void *ctx, uint32_t tgid, uint32_t tid)
{
	char path[64];
	struct stat st;

	(void)ctx;
	snprintf(path, sizeof(path), "/proc/%u/task/%u", tgid, tid);
	return !fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW);
}
