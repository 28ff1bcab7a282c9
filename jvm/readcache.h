/*
 * readcache: a target's memory read a line at a time and kept for a
 * moment. Naming a new stack reads the same few places again and again
 * within a millisecond (a class's name Symbol for each of its methods,
 * an nmethod's header for each of its pcs, a stub's segment map bytes
 * and name for each pc in it), and each read is a system call that costs
 * about as much at 8 bytes as at 1 KB (~1.3 against ~1.5 us here, mostly
 * the call, the target's mm and its page's pinning): javac at 999 Hz
 * made 40,000 reads, 42% of them of a line read less than 2 ms before.
 *
 * A struct readcache is a struct hotspot_mem that passes reads on to
 * another a line (READCACHE_LINE bytes, aligned) at a time and answers
 * reads within lines it read in the last READCACHE_TTL_NS from its copy;
 * a read of more than two lines passes through. A line the inner reader
 * cannot read whole (the end of a mapping) is not kept: the read asked
 * for goes through as asked. What it answers is as old as its line: a
 * caller that must see a word as it is now (a counter, a check that
 * something did not change since a sample) reads through the inner
 * reader. Not thread-safe; nothing here prints.
 */
#ifndef MIXPROF_READCACHE_H
#define MIXPROF_READCACHE_H

#include <stdint.h>
#include "hotspot.h"

#define READCACHE_LINE 1024
/* lines kept: by line address, one slot each */
#define READCACHE_SLOTS 128
/*
 * How long a line is answered from: a stack's naming (the repeats above
 * are nearly all within 2 ms: 42% of reads at 2 ms, 43% at 25 ms), short
 * enough that nothing a drain tick names later is as old as the tick.
 */
#define READCACHE_TTL_NS 2000000ull

struct readcache_line {
	uint64_t addr; /* the line's first byte, + 1: 0 is empty */
	uint64_t gen;
	uint8_t b[READCACHE_LINE];
};

struct readcache_stats {
	uint64_t reads, hits, lines, through;
};

struct readcache {
	struct hotspot_mem mem; /* the cached reader: hand this out */
	const struct hotspot_mem *inner;
	uint64_t gen, gen_ns; /* lines of gen only, read from gen_ns on */
	uint64_t (*now_ns)(void); /* CLOCK_MONOTONIC; tests set their own */
	struct readcache_stats st;
	struct readcache_line *line; /* READCACHE_SLOTS, allocated */
};

/* Reads through c->mem go to inner (which must outlive c): 0 or -ENOMEM. */
int readcache__init(struct readcache *c, const struct hotspot_mem *inner);
void readcache__fini(struct readcache *c);
/* Nothing kept answers a read from now on. */
void readcache__forget(struct readcache *c);

#endif
