/*
 * readbudget: what mixprof may read of one target's memory. A target's
 * memory is untrusted, and a process that poses as a JVM can make every
 * header claim the largest debug data, every list the longest: each read
 * is bounded by its reader (nmethod.c, jthreads.c: limits that fit what
 * HotSpot really produces), and this bounds their sum.
 *
 * A struct readbudget is a struct hotspot_mem that passes reads on to
 * another until the target has used up its budget: one read larger than
 * any structure we read, more bytes or reads than a window allows, or most of
 * each window spent reading it for several windows in a row; then it
 * fails every read with -EDQUOT for the rest of the run: the target is degraded (named by method only, no thread
 * names), never allowed to stall the caller. Not thread-safe; nothing
 * here prints.
 */
#ifndef MIXPROF_READBUDGET_H
#define MIXPROF_READBUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include "hotspot.h"

/* Why a target ran out. */
enum rb_over {
	RB_OK,
	RB_BIG_READ, /* one read larger than any HotSpot structure we read */
	RB_BYTES, /* too many bytes in one window */
	RB_READS, /* too many reads in one window */
	RB_TIME, /* too long reading in one window */
};

struct readbudget {
	struct hotspot_mem mem; /* the budgeted reader: hand this out */
	/* the same budget, through direct (readbudget__direct) */
	struct hotspot_mem mem_direct;
	const struct hotspot_mem *inner, *direct;
	uint64_t win_start_ns, win_bytes, win_spent_ns;
	uint32_t win_reads;
	uint64_t bytes; /* read over the run */
	uint64_t (*now_ns)(void); /* CLOCK_MONOTONIC; tests set their own */
	int slow; /* windows in a row spent mostly reading */
	enum rb_over over;
};

/* Reads through b->mem go to inner (which must outlive b). */
void readbudget__init(struct readbudget *b, const struct hotspot_mem *inner);
/*
 * Reads through b->mem_direct go to direct, on the same budget: a target
 * read through a cache (readcache.h, the inner reader) and, for what
 * must be read as it is now, around it, is budgeted once.
 */
void readbudget__direct(struct readbudget *b, const struct hotspot_mem *direct);
/* Why the target is degraded, or RB_OK. */
static inline enum rb_over readbudget__over(const struct readbudget *b)
{
	return b->over;
}
/* "one read too large" ...: why, in words. */
const char *readbudget__why(enum rb_over over);

#endif
