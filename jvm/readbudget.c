// SPDX-License-Identifier: GPL-2.0
/*
 * readbudget: a per-target budget on reads of its memory (see
 * readbudget.h).
 */
#include <errno.h>
#include <time.h>
#include "readbudget.h"

/*
 * The largest single read: an nmethod's scopes data at its limit
 * (nmethod.c, MAX_SCOPES_BYTES) and a thread list of 100,000 entries
 * (800 KB) are the largest things we read at once.
 */
#define MAX_READ (1u << 20)
/*
 * Per window of a second: 64 MB. A real JVM's compiled frames cost
 * ~20 KB and ~30 us each to read (debug data and names; the largest
 * nmethod's debug data measured: 23 KB, javac compiling 1,364 JDK
 * sources) and are read once per nmethod: naming every pc of a busy JVM
 * at once (tests/tools/jvmnames.c, a few thousand nmethods) stays well
 * below; a target whose nmethods claim megabytes each reaches it within
 * a tick.
 */
#define WINDOW_NS 1000000000ull
#define WINDOW_BYTES (64ull << 20)
/*
 * And 250,000 reads (a quarter to half a second of system calls on a
 * busy host): a cold first drain of a JVM with 5,000 nmethods makes
 * ~60,000 (12 per nmethod), a thread list of 10,000 threads ~100,000; a
 * forged list of 100,000 distinct threads, each class with a chain of
 * supers (the fake JVM's manythreads), 16 million in one walk, each read
 * small enough to keep under the byte budget (it kept a 3 s run going
 * for 10 s under the time rule alone).
 */
#define WINDOW_READS 250000u
/*
 * Time: more than half of each of 5 windows in a row spent reading it.
 * A cold start of a big JVM, or naming all of its code at once, reads for
 * a second or two (longer on a loaded host); a target that keeps the
 * reader busy for good is then dropped.
 */
#define WINDOW_SPENT_NS 500000000ull
#define SLOW_WINDOWS 5

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A read through via, on b's budget. */
static int budgeted(struct readbudget *b, const struct hotspot_mem *via,
		    uint64_t addr, void *buf, size_t len)
{
	uint64_t t0;
	int ret;

	if (b->over)
		return -EDQUOT;
	t0 = b->now_ns();
	if (t0 - b->win_start_ns >= WINDOW_NS) {
		b->slow = b->win_spent_ns > WINDOW_SPENT_NS ? b->slow + 1 : 0;
		b->win_start_ns = t0;
		b->win_bytes = b->win_spent_ns = 0;
		b->win_reads = 0;
	}
	if (len > MAX_READ)
		b->over = RB_BIG_READ;
	else if (b->win_bytes + len > WINDOW_BYTES)
		b->over = RB_BYTES;
	else if (++b->win_reads > WINDOW_READS)
		b->over = RB_READS;
	else if (b->slow >= SLOW_WINDOWS)
		b->over = RB_TIME;
	if (b->over)
		return -EDQUOT;
	ret = via->read(via->ctx, addr, buf, len);
	b->win_bytes += len;
	b->bytes += len;
	b->win_spent_ns += b->now_ns() - t0;
	return ret;
}

static int budget_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct readbudget *b = ctx;

	return budgeted(b, b->inner, addr, buf, len);
}

static int budget_read_direct(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct readbudget *b = ctx;

	return budgeted(b, b->direct, addr, buf, len);
}

void readbudget__init(struct readbudget *b, const struct hotspot_mem *inner)
{
	*b = (struct readbudget){.mem = {budget_read, b},
				 .mem_direct = {budget_read_direct, b},
				 .inner = inner,
				 .direct = inner,
				 .now_ns = mono_ns};
}

void readbudget__direct(struct readbudget *b, const struct hotspot_mem *direct)
{
	b->direct = direct;
}

const char *readbudget__why(enum rb_over over)
{
	switch (over) {
	case RB_BIG_READ:
		return "a structure larger than HotSpot makes";
	case RB_BYTES:
		return "more than 64 MB of metadata in a second";
	case RB_READS:
		return "more than 250,000 reads of metadata in a second";
	case RB_TIME:
		return "reading it took half of each second for 5 s";
	default:
		return "within budget";
	}
}
