/*
 * jitmap: the time rule (address reuse, late reads, slack), inline
 * override, partial lines, bad-line counting, the mixed-format fixture.
 */
#include <errno.h>
#include "check.h"
#include "symbolizer/jitmap.h"
#include "test_sym_util.h"

#define MS 1000000ULL

static int feed(struct jitmap *m, const char *s, uint64_t lower, uint64_t stamp,
		uint64_t *bad)
{
	return jitmap__feed(m, s, strlen(s), lower, stamp, bad);
}

/* The name of the innermost frame at (ip, when), or "-" for none. */
static const char *at(struct jitmap *m, uint64_t ip, uint64_t when,
		      uint64_t slack)
{
	struct frame f[8];
	int n = jitmap__find(m, ip, when, slack, f, 8);

	return n ? f[n - 1].name : "-";
}

static void test_reuse(void)
{
	struct jitmap *m = jitmap__new(false);

	/* first read at 100 ms: existed before, lower 0 */
	CHECK_INT(feed(m, "1000 100 old/A.m\n", 0, 100 * MS, NULL), 0);
	/* A unloaded, its address reused by B: read at the 300 ms poll,
	 * so B's line was written in (200 ms, 300 ms] */
	CHECK_INT(feed(m, "1000 80 new/B.m\n", 200 * MS, 300 * MS, NULL), 0);
	CHECK_STR(at(m, 0x1010, 50 * MS, 0), "old/A.m");
	CHECK_STR(at(m, 0x1010, 150 * MS, 0), "old/A.m");
	CHECK_STR(at(m, 0x1010, 199 * MS, 0), "old/A.m");
	/* at or after the poll before B's read: B may have existed */
	CHECK_STR(at(m, 0x1010, 201 * MS, 0), "new/B.m");
	CHECK_STR(at(m, 0x1010, 250 * MS, 0), "new/B.m");
	CHECK_STR(at(m, 0x1010, 400 * MS, 0), "new/B.m");
	/* slack: a sample 5 ms before the lower bound may see B */
	CHECK_STR(at(m, 0x1010, 195 * MS, 10 * MS), "new/B.m");
	CHECK_STR(at(m, 0x1010, 185 * MS, 10 * MS), "old/A.m");
	/* B is shorter: the tail of A's range keeps A */
	CHECK_STR(at(m, 0x1090, 400 * MS, 0), "old/A.m");
	CHECK_STR(at(m, 0x1100, 400 * MS, 0), "-");
	CHECK_STR(at(m, 0xfff, 400 * MS, 0), "-");
	jitmap__free(m);
}

/* Eligible lines are a prefix; which new lines cover an address. */
static void test_eligible(void)
{
	struct jitmap *m = jitmap__new(false);

	CHECK_INT(jitmap__eligible(m, 1), 0);
	CHECK_INT(feed(m, "1000 100 old/A.m\n2000 10 A.b\n", 0, 100 * MS, NULL),
		  0);
	CHECK_INT(feed(m, "1000 80 new/B.m\n", 200 * MS, 300 * MS, NULL), 0);
	CHECK_INT(jitmap__eligible(m, 1), 2);
	CHECK_INT(jitmap__eligible(m, 200 * MS), 2);
	CHECK_INT(jitmap__eligible(m, 200 * MS + 1), 3);
	CHECK_INT(jitmap__covered(m, 0x1010, 2, 3), 1);
	CHECK_INT(jitmap__covered(m, 0x1090, 2, 3), 0); /* past B */
	CHECK_INT(jitmap__covered(m, 0x2005, 2, 3), 0);
	CHECK_INT(jitmap__covered(m, 0x2005, 0, 3), 1);
	CHECK_INT(jitmap__covered(m, 0x1010, 3, 3), 0);
	/* the file read again from its start: no prefix any more */
	CHECK_INT(feed(m, "3000 10 C.m\n", 0, 400 * MS, NULL), 0);
	CHECK(jitmap__eligible(m, 1) == SIZE_MAX);
	CHECK_INT(jitmap__eligible(NULL, 1), 0);
	jitmap__free(m);
}

static void test_late_read(void)
{
	struct jitmap *m = jitmap__new(false);

	feed(m, "5000 10 early/E.m\n", 0, 100 * MS, NULL);
	/* compiled at 150, sampled at 160, read at the 1 s poll (slow
	 * poll): its lower is the 100 ms poll, so the 160 ms sample sees it */
	feed(m, "2000 40 late/L.m\n", 100 * MS, 1000 * MS, NULL);
	CHECK_STR(at(m, 0x2010, 160 * MS, 0), "late/L.m");
	/* a sample before the previous poll cannot be named by this code:
	 * it may be code that was freed since (class unloading) */
	CHECK_STR(at(m, 0x2010, 90 * MS, 0), "-");
	/* reuse: each sample is named by the code there at its time */
	feed(m, "3000 40 first/F.m\n3010 8 first/F.m->in/I.m\n", 0, 1000 * MS,
	     NULL);
	feed(m, "3000 40 second/S.m\n", 1000 * MS, 2000 * MS, NULL);
	CHECK_STR(at(m, 0x3012, 50 * MS, 0), "in/I.m");
	CHECK_STR(at(m, 0x3020, 50 * MS, 0), "first/F.m");
	CHECK_STR(at(m, 0x3020, 1500 * MS, 0), "second/S.m");
	/* with nothing else covering, a first-read entry names any time */
	CHECK_STR(at(m, 0x5001, 1, 0), "early/E.m");
	jitmap__free(m);
}

static void test_inline(void)
{
	struct jitmap *m = jitmap__new(false), *flat;
	struct frame f[8];
	int n;

	feed(m,
	     "1000 100 pkg/Outer.run\n"
	     "1040 20 pkg/Outer.run->pkg/Inner.get\n"
	     "1048 8 pkg/Outer.run->pkg/Inner.get->java/util/HashMap.hash\n",
	     0, 10, NULL);
	n = jitmap__find(m, 0x1010, 20, 0, f, 8);
	CHECK_INT(n, 1);
	CHECK_STR(f[0].name, "pkg/Outer.run");
	CHECK_INT(f[0].kind, FRAME_JAVA);
	n = jitmap__find(m, 0x1044, 20, 0, f, 8);
	CHECK_INT(n, 2);
	CHECK_STR(f[0].name, "pkg/Outer.run");
	CHECK_STR(f[1].name, "pkg/Inner.get");
	CHECK_INT(f[1].kind, FRAME_INLINED);
	n = jitmap__find(m, 0x104a, 20, 0, f, 8);
	CHECK_INT(n, 3);
	CHECK_STR(f[2].name, "java/util/HashMap.hash");
	CHECK_INT(f[2].kind, FRAME_INLINED);
	/* max cuts the innermost end */
	n = jitmap__find(m, 0x104a, 20, 0, f, 2);
	CHECK_INT(n, 2);
	CHECK_STR(f[1].name, "pkg/Inner.get");
	/* back in the method after the sub-ranges */
	CHECK_STR(at(m, 0x1070, 20, 0), "pkg/Outer.run");
	CHECK_STR(at(m, 0x1040 + 0x1f, 20, 0), "pkg/Inner.get");
	/* no_inline keeps the chain as one Java frame */
	flat = jitmap__new(true);
	feed(flat, "1040 20 a/B.m->c/D.n\n", 0, 10, NULL);
	n = jitmap__find(flat, 0x1041, 20, 0, f, 8);
	CHECK_INT(n, 1);
	CHECK_STR(f[0].name, "a/B.m->c/D.n");
	CHECK_INT(f[0].kind, FRAME_JAVA);
	jitmap__free(flat);
	jitmap__free(m);
}

static void test_partial(void)
{
	struct jitmap *m = jitmap__new(false);
	uint64_t bad = 0;

	/* a line cut mid-name by the end of a read */
	CHECK_INT(feed(m, "100 10 first/F.m\n200 10 sec", 0, 10, &bad), 0);
	CHECK_INT(jitmap__count(m), 1);
	CHECK_STR(at(m, 0x201, 20, 0), "-");
	CHECK_INT(feed(m, "ond/S.m\n300 1", 10, 20, &bad), 0);
	CHECK_INT(feed(m, "0 third/T.m\n", 20, 30, &bad), 0);
	CHECK_STR(at(m, 0x201, 25, 0), "second/S.m");
	CHECK_STR(at(m, 0x30f, 25, 0), "third/T.m");
	/* dropping a partial line (file replaced) loses only that line */
	CHECK_INT(feed(m, "400 10 lost", 30, 40, &bad), 0);
	jitmap__drop_partial(m);
	CHECK_INT(feed(m, "500 10 kept/K.m\n", 30, 40, &bad), 0);
	CHECK_STR(at(m, 0x501, 45, 0), "kept/K.m");
	CHECK_STR(at(m, 0x401, 45, 0), "-");
	CHECK_INT(bad, 0);
	CHECK_INT(jitmap__count(m), 4);
	jitmap__free(m);
}

static void test_fixture(void)
{
	struct jitmap *m = jitmap__new(false);
	uint64_t bad = 0;
	struct frame f[8];
	size_t len;
	char *text = sym_fixture("perf-mixed.map", &len);
	int n;

	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_INT(jitmap__feed(m, text, len, 0, 10, &bad), 0);
	CHECK_INT(bad, 5);
	CHECK_INT(jitmap__count(m), 18);
	CHECK_STR(at(m, 0x7f0000001049, 20, 0), "java/util/HashMap.hash");
	n = jitmap__find(m, 0x7f0000002010, 20, 0, f, 8);
	CHECK(n == 1 && !strcmp(f[0].name, "Interpreter") &&
	      f[0].kind == FRAME_STUB);
	CHECK_STR(at(m, 0x7f0000002110, 20, 0), "StubRoutines::call_stub");
	CHECK_STR(at(m, 0x7f0000003010, 20, 0), "java/lang/String.hashCode");
	n = jitmap__find(m, 0x7f0000003110, 20, 0, f, 8);
	CHECK(n == 2 && !strcmp(f[0].name, "pkg/A.outer") &&
	      !strcmp(f[1].name, "pkg/B.inner"));
	CHECK_STR(at(m, 0x7f0000004010, 20, 0), "java.lang.String.hashCode");
	CHECK_STR(at(m, 0x7f0000004210, 20, 0), "Spin.main");
	CHECK_STR(at(m, 0x7f0000004410, 20, 0), "java.lang.String.equals");
	n = jitmap__find(m, 0x7f0000004510, 20, 0, f, 8);
	CHECK(n == 1 && !strcmp(f[0].name, "StubRoutines (1)") &&
	      f[0].kind == FRAME_STUB);
	CHECK_STR(at(m, 0x7f0000004610, 20, 0), "VM_Version stub");
	n = jitmap__find(m, 0x3ef414c1, 20, 0, f, 8);
	CHECK(n == 1 && !strcmp(f[0].name, "LazyCompile:~foo /x.js:1") &&
	      f[0].kind == FRAME_JAVA);
	CHECK_STR(at(m, 0x7f0000006001, 20, 0), "spaced/Out.m");
	free(text);
	jitmap__free(m);
}

/*
 * Expiry: code freed and replaced at its address. A line whose range later
 * lines cover whole, those eligible for every lookup from the cutoff on,
 * goes; lookups from the cutoff on name alike; counts keep their meaning.
 */
static void test_expire(void)
{
	struct jitmap *m = jitmap__new(false);
	char buf[64];
	size_t before;

	/* A at 0x1000, then B over it, then C over B (two 0x40 halves) */
	CHECK_INT(feed(m, "1000 80 A.m\n4000 10 Keep.m\n", 0, 100 * MS, NULL),
		  0);
	CHECK_INT(feed(m, "1000 80 B.m\n", 100 * MS, 200 * MS, NULL), 0);
	CHECK_INT(
	    feed(m, "1000 40 C.lo\n1040 40 C.hi\n", 200 * MS, 300 * MS, NULL),
	    0);
	/* D over part of A only, read after the cutoff: not settled */
	CHECK_INT(feed(m, "1000 10 D.m\n", 400 * MS, 500 * MS, NULL), 0);
	CHECK_INT(jitmap__count(m), 6);
	before = jitmap__eligible(m, 250 * MS);
	CHECK_INT(before, 5);
	/* nothing settled covers A before the cutoff 150 ms but B */
	CHECK_INT(jitmap__expire(m, 150 * MS), 1); /* A */
	CHECK_INT(jitmap__count(m), 5);
	CHECK_STR(at(m, 0x1010, 160 * MS, 0), "B.m");
	/* cutoff 250 ms: C's two halves cover B whole */
	CHECK_INT(jitmap__expire(m, 250 * MS), 1); /* B */
	CHECK_INT(jitmap__count(m), 4);
	CHECK_STR(at(m, 0x1010, 250 * MS, 0), "C.lo");
	CHECK_STR(at(m, 0x1050, 250 * MS, 0), "C.hi");
	CHECK_STR(at(m, 0x1005, 450 * MS, 0), "D.m");
	CHECK_STR(at(m, 0x4005, 450 * MS, 0), "Keep.m");
	/* counts in lines of the file, expired ones included */
	CHECK_INT(jitmap__eligible(m, 250 * MS), before);
	CHECK_INT(jitmap__eligible(m, UINT64_MAX), 6);
	CHECK_INT(jitmap__covered(m, 0x1005, 5, 6), 1); /* D */
	CHECK_INT(jitmap__covered(m, 0x1050, 5, 6), 0);
	CHECK_INT(jitmap__covered(m, 0x1050, 0, 6), 1); /* C.hi */
	/* again: nothing more to drop; names moved, still right */
	CHECK_INT(jitmap__expire(m, 250 * MS), 0);
	/* lines keep coming after an expiry */
	snprintf(buf, sizeof(buf), "4000 10 Keep2.m\n");
	CHECK_INT(feed(m, buf, 500 * MS, 600 * MS, NULL), 0);
	CHECK_INT(jitmap__eligible(m, UINT64_MAX), 7);
	CHECK_INT(jitmap__expire(m, 700 * MS), 1); /* Keep.m */
	CHECK_STR(at(m, 0x4005, 700 * MS, 0), "Keep2.m");
	CHECK_STR(at(m, 0x1005, 700 * MS, 0), "D.m");
	CHECK_STR(at(m, 0x1015, 700 * MS, 0), "C.lo");
	/* a map read again from its start is left alone */
	CHECK_INT(feed(m, "1000 80 E.m\n", 0, 800 * MS, NULL), 0);
	CHECK_INT(jitmap__expire(m, 900 * MS), 0);
	CHECK_INT(jitmap__expire(NULL, 1), 0);
	jitmap__free(m);
}

/* Inline chains (names with several parts) survive the move. */
static void test_expire_inline(void)
{
	struct jitmap *m = jitmap__new(false);
	struct frame f[8];
	int n;

	CHECK_INT(feed(m, "1000 80 old/A.m\n", 0, 100 * MS, NULL), 0);
	CHECK_INT(feed(m, "1000 80 p/O.run->p/I.f\n", 100 * MS, 200 * MS, NULL),
		  0);
	n = jitmap__find(m, 0x1010, 300 * MS, 0, f, 8); /* named before */
	CHECK_INT(n, 2);
	CHECK_INT(jitmap__expire(m, 300 * MS), 1);
	n = jitmap__find(m, 0x1010, 300 * MS, 0, f, 8);
	CHECK_INT(n, 2);
	CHECK_STR(f[0].name, "p/O.run");
	CHECK_STR(f[1].name, "p/I.f");
	jitmap__free(m);
}

/* Methods from..to (exclusive), method i at 0x100000 + 0x10 * (i % wrap) */
static int feed_many(struct jitmap *m, uint32_t from, uint32_t to,
		     uint32_t wrap, uint64_t lower, uint64_t stamp)
{
	size_t len = 0, cap = 1 << 20;
	char *text = malloc(cap);
	int err = 0;

	if (!text)
		return -ENOMEM;
	for (uint32_t i = from; i < to && !err; i++) {
		len += snprintf(text + len, cap - len, "%x 10 M%u.m\n",
				0x100000 + (i % wrap) * 0x10, i);
		if (cap - len < 64 || i + 1 == to) {
			err = jitmap__feed(m, text, len, lower, stamp, NULL);
			len = 0;
		}
	}
	free(text);
	return err;
}

/*
 * A map of more lines than the cap holds the cap (the rest skipped and
 * counted); once replaced code expires, the lines after it are held.
 */
static void test_cap(void)
{
	const uint32_t n = JITMAP_MAX_LINES, w = n - 10;
	struct jitmap *m = jitmap__new(false);
	char want[32];

	CHECK(m != NULL);
	if (!m)
		return;
	/* w methods, then 10 more over the first 10 (code replaced) */
	CHECK_INT(feed_many(m, 0, w, n, 0, 100 * MS), 0);
	CHECK_INT(feed_many(m, w, n, w, 100 * MS, 200 * MS), 0);
	CHECK_INT(jitmap__count(m), n);
	CHECK_INT(jitmap__over(m), 0);
	CHECK_INT(feed_many(m, n, n + 10, n, 200 * MS, 300 * MS), 0);
	CHECK_INT(jitmap__count(m), n);
	CHECK_INT(jitmap__over(m), 10);
	snprintf(want, sizeof(want), "M%u.m", w + 1); /* over method 1 */
	CHECK_STR(at(m, 0x100015, 250 * MS, 0), want);
	CHECK_STR(at(m, 0x100105, 250 * MS, 0), "M16.m");
	/* the 10 replaced ones expire: room for 10 lines */
	CHECK_INT(jitmap__expire(m, 300 * MS), 10);
	CHECK_INT(feed_many(m, n + 10, n + 30, n, 300 * MS, 400 * MS), 0);
	CHECK_INT(jitmap__count(m), n);
	CHECK_INT(jitmap__over(m), 20);
	jitmap__free(m);
}

int main(void)
{
	test_reuse();
	test_eligible();
	test_late_read();
	test_inline();
	test_partial();
	test_fixture();
	test_expire();
	test_expire_inline();
	test_cap();
	jitmap__free(NULL);
	return check_report();
}
