/*
 * jthreadsync: JVMs' thread lists into a fake java_threads map, under each
 * JVM's tgid; a list that names another process's threads (issue 29's
 * case 4: a fake JVM listing a real one's tids, then dropping them)
 * neither writes nor deletes that process's entries, and is counted; the
 * per-JVM cap; the map full; a thread gone or changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/types.h>
#include "check.h"
#include "sampler/sampler_abi.h"
#include "jvm/jthreadsync.h"

#define PROCS 6 /* tgids 100, 200, ... 500 */
#define TIDS 65536

/* The map, (tgid, tid) -> JavaThread*, 0: absent; and who owns a tid. */
static uint64_t map[PROCS][TIDS];
static uint32_t owner[TIDS];
static size_t entries, room = JAVA_THREADS_MAX;
static uint32_t calling; /* the tgid the current apply is for */
static int wrong_tgid, owns_calls, sets, clears;

static int f_set(void *ctx, uint32_t tgid, uint32_t tid, uint64_t thread)
{
	(void)ctx;
	sets++;
	wrong_tgid += tgid != calling;
	if (!map[tgid / 100][tid]) {
		if (entries >= room)
			return -E2BIG;
		entries++;
	}
	map[tgid / 100][tid] = thread;
	return 0;
}

static int f_clear(void *ctx, uint32_t tgid, uint32_t tid)
{
	(void)ctx;
	clears++;
	wrong_tgid += tgid != calling;
	if (!map[tgid / 100][tid])
		return -ENOENT;
	map[tgid / 100][tid] = 0;
	entries--;
	return 0;
}

static bool f_owns(void *ctx, uint32_t tgid, uint32_t tid)
{
	(void)ctx;
	owns_calls++;
	return owner[tid] == tgid;
}

static const struct jthreadsync_ops ops = {f_set, f_clear, f_owns, NULL};

/* tgid's entries in the map */
static size_t held(uint32_t tgid)
{
	size_t n = 0;

	for (size_t i = 0; i < TIDS; i++)
		n += map[tgid / 100][i] != 0;
	return n;
}

/* A list of tids [lo, hi), JavaThread* = tid * 16 + gen. */
static size_t list(struct hotspot_thread *t, uint32_t lo, uint32_t hi,
		   uint64_t gen)
{
	size_t n = 0;

	for (uint32_t tid = lo; tid < hi; tid++)
		t[n++] = (struct hotspot_thread){tid, tid * 16ULL + gen};
	return n;
}

static int apply(uint32_t tgid, struct jthreads *g, struct hotspot_thread *t,
		 size_t n, struct jthreadsync_stats *st)
{
	calling = tgid;
	return jthreadsync__apply(&ops, tgid, g, t, n, st);
}

static struct hotspot_thread buf[2 * TIDS];

/* Case 4: C lists B's threads, then drops them: B keeps its entries. */
static void test_foreign(void)
{
	struct jthreads a = {}, b = {}, c = {};
	struct jthreadsync_stats st = {};
	size_t n;

	for (uint32_t tid = 1000; tid < 1020; tid++)
		owner[tid] = 100;
	for (uint32_t tid = 2000; tid < 2020; tid++)
		owner[tid] = 200;
	owner[3000] = 300;
	CHECK_INT(apply(100, &a, buf, list(buf, 1000, 1020, 0), &st), 0);
	CHECK_INT(apply(200, &b, buf, list(buf, 2000, 2020, 0), &st), 0);
	CHECK_INT(held(100), 20);
	CHECK_INT(held(200), 20);
	CHECK_INT(a.given, 20);
	CHECK_INT(st.foreign + st.over + st.full, 0);

	/* C names its own thread and all of A's and B's, twice over */
	n = list(buf, 1000, 1020, 7);
	n += list(buf + n, 2000, 2020, 7);
	n += list(buf + n, 2000, 2020, 9);
	buf[n++] = (struct hotspot_thread){3000, 3000 * 16};
	CHECK_INT(apply(300, &c, buf, n, &st), 0);
	CHECK_INT(st.foreign, 40);
	CHECK_INT(c.given, 1);
	CHECK_INT(c.n, 41); /* the repeats counted once */
	CHECK_INT(held(300), 1);
	CHECK_INT(held(100), 20);
	CHECK_INT(held(200), 20);
	CHECK_INT(map[1][1005], 1005 * 16); /* A's values as A gave them */

	/* listed again: not asked again, not counted again */
	owns_calls = 0;
	n = list(buf, 1000, 1020, 7);
	n += list(buf + n, 2000, 2020, 7);
	buf[n++] = (struct hotspot_thread){3000, 3000 * 16};
	CHECK_INT(apply(300, &c, buf, n, &st), 0);
	CHECK_INT(owns_calls, 0);
	CHECK_INT(st.foreign, 40);

	/* then dropped: nothing of A's or B's goes */
	buf[0] = (struct hotspot_thread){3000, 3000 * 16};
	CHECK_INT(apply(300, &c, buf, 1, &st), 0);
	CHECK_INT(held(100), 20);
	CHECK_INT(held(200), 20);
	CHECK_INT(held(300), 1);
	CHECK_INT(wrong_tgid, 0);

	/* A: one thread gone, one with a new JavaThread* */
	n = list(buf, 1000, 1020, 0);
	buf[5].thread = 1;
	buf[6] = buf[--n];
	sets = clears = 0;
	CHECK_INT(apply(100, &a, buf, n, &st), 0);
	CHECK_INT(held(100), 19);
	CHECK_INT(map[1][1005], 1);
	CHECK_INT(map[1][1006], 0);
	CHECK_INT(sets, 1);
	CHECK_INT(clears, 2); /* 1006 gone, 1005's old entry */

	calling = 300;
	jthreadsync__clear(&ops, 300, &c);
	calling = 100;
	jthreadsync__clear(&ops, 100, &a);
	calling = 200;
	jthreadsync__clear(&ops, 200, &b);
	CHECK_INT(entries, 0);
	CHECK(!a.t && !a.n && !a.given);
	CHECK_INT(wrong_tgid, 0);
	memset(owner, 0, sizeof(owner));
}

/* One JVM with more threads than its cap: the rest left out, once. */
static void test_cap(void)
{
	struct jthreads d = {};
	struct jthreadsync_stats st = {};
	uint32_t lo = 20000, hi = lo + JAVA_THREADS_PER_JVM + 1000;
	size_t n;

	for (uint32_t tid = lo - 10; tid < hi; tid++)
		owner[tid] = 400;
	CHECK_INT(apply(400, &d, buf, list(buf, lo, hi, 0), &st), 0);
	CHECK_INT(held(400), JAVA_THREADS_PER_JVM);
	CHECK_INT(d.given, JAVA_THREADS_PER_JVM);
	CHECK_INT(st.over, 1000);
	/* a new thread with a low tid does not push a given one out */
	n = list(buf, lo - 1, hi, 0);
	CHECK_INT(apply(400, &d, buf, n, &st), 0);
	CHECK_INT(st.over, 1001);
	CHECK_INT(map[4][lo - 1], 0);
	CHECK_INT(map[4][lo], lo * 16ULL);
	/* one given goes: the first left out takes its room */
	buf[1] = buf[--n]; /* lo gone */
	CHECK_INT(apply(400, &d, buf, n, &st), 0);
	CHECK_INT(held(400), JAVA_THREADS_PER_JVM);
	CHECK_INT(map[4][lo], 0);
	CHECK_INT(map[4][lo - 1], (lo - 1) * 16ULL);
	calling = 400;
	jthreadsync__clear(&ops, 400, &d);
	CHECK_INT(entries, 0);
	memset(owner, 0, sizeof(owner));
}

/* The map full: counted once, set again each call until it fits. */
static void test_full(void)
{
	struct jthreads e = {};
	struct jthreadsync_stats st = {};

	for (uint32_t tid = 500; tid < 510; tid++)
		owner[tid] = 500;
	room = 4;
	CHECK_INT(apply(500, &e, buf, list(buf, 500, 510, 0), &st), 0);
	CHECK_INT(held(500), 4);
	CHECK_INT(st.full, 6);
	CHECK_INT(apply(500, &e, buf, list(buf, 500, 510, 0), &st), 0);
	CHECK_INT(st.full, 6);
	room = JAVA_THREADS_MAX;
	CHECK_INT(apply(500, &e, buf, list(buf, 500, 510, 0), &st), 0);
	CHECK_INT(held(500), 10);
	CHECK_INT(e.given, 10);
	calling = 500;
	jthreadsync__clear(&ops, 500, &e);
	memset(owner, 0, sizeof(owner));
}

/* The kernel's owner: this process's threads, and nobody else's. */
static void test_proc(void)
{
	uint32_t self = getpid(), tid = syscall(SYS_gettid);

	CHECK(jthreadsync__owns_proc(NULL, self, tid));
	CHECK(jthreadsync__owns_proc(NULL, self, self));
	CHECK(!jthreadsync__owns_proc(NULL, 1, self));
	CHECK(!jthreadsync__owns_proc(NULL, self, 0));
}

int main(void)
{
	test_foreign();
	test_cap();
	test_full();
	test_proc();
	return check_report();
}
