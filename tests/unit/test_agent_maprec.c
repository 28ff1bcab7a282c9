/*
 * Unit tests for agent/maprec.c and agent/inline_ranges.c: map lines and
 * inline sub-ranges from synthetic PCStackInfo arrays (jmethodIDs are
 * small integers here; names come from a fake lookup).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "agent/inline_ranges.h"
#include "agent/maprec.h"

#define M(n) ((jmethodID)(uintptr_t)((n)*8))

static int lookups;

static int fake_name(void *arg, jmethodID m, struct strbuf *out)
{
	uintptr_t n = (uintptr_t)m / 8;

	lookups++;
	if (n <= 26)
		return strbuf__addf(out, "p/%c.m", (char)('A' + n - 1));
	return strbuf__addf(out, "p/M%lu.m", (unsigned long)n);
}

/* methods[] innermost first, as HotSpot gives them */
static jmethodID ch_a[] = {M(1)};
static jmethodID ch_ba[] = {M(2), M(1)};
static jmethodID ch_ba2[] = {M(2), M(1)}; /* same chain, other array */
static jmethodID ch_cba[] = {M(3), M(2), M(1)};
static jmethodID ch_da[] = {M(4), M(1)};

#define PC(addr, chain)                                                        \
	{                                                                      \
		(void *)(uintptr_t)(addr), sizeof(chain) / sizeof(chain[0]),   \
		    chain, NULL                                                \
	}

static PCStackInfo pcs[] = {
    PC(0x0ff0, ch_a), /* sentinel before the code: ignored */
    PC(0x1010, ch_a), /* (start, 0x1010]: the method itself */
    PC(0x1020, ch_ba), /* (0x1010, 0x1020]: A->B */
    PC(0x1030, ch_ba2), /* same chain, adjacent: merged */
    PC(0x1040, ch_cba), PC(0x1050, ch_a),
    PC(0x1060, ch_ba), /* A->B again, not adjacent: own range */
    PC(0x1060, ch_da), /* same pc twice: empty, skipped */
    PC(0x10ff, ch_da),	PC(0x1200, ch_da), /* past the end: clamped away */
};
#define NPCS ((int)(sizeof(pcs) / sizeof(pcs[0])))

static const char want_inline[] = "1000 100 p/A.m\n"
				  "1011 20 p/A.m->p/B.m\n"
				  "1031 10 p/A.m->p/B.m->p/C.m\n"
				  "1041 10 p/A.m\n" /* gap: the method again */
				  "1051 10 p/A.m->p/B.m\n"
				  "1061 9f p/A.m->p/D.m\n";

static void test_ranges(void)
{
	struct code_range r[NPCS];
	int n = inline_ranges__build(pcs, NPCS, 0x1000, 0x1100, r);

	CHECK_INT(n, 4);
	CHECK_INT(r[0].start, 0x1011);
	CHECK_INT(r[0].end, 0x1031);
	CHECK_INT(r[3].start, 0x1061);
	CHECK_INT(r[3].end, 0x1100);
	CHECK(r[2].pc == &pcs[6]);
	CHECK_INT(inline_ranges__build(pcs, 0, 0x1000, 0x1100, r), 0);
}

static void test_unsorted(void)
{
	PCStackInfo bad[] = {PC(0x1020, ch_ba), PC(0x1010, ch_ba)};
	struct code_range r[2];

	CHECK_INT(inline_ranges__build(bad, 2, 0x1000, 0x1100, r), -EINVAL);
}

static void test_record(void)
{
	jvmtiCompiledMethodLoadInlineRecord inl = {
	    {JVMTI_CMLR_INLINE_INFO, 1, 0, NULL}, NPCS, pcs};
	struct maprec *mr = maprec__new(fake_name, NULL);
	struct strbuf out = STRBUF_INIT;
	int nr = -1;

	CHECK(mr != NULL);
	lookups = 0;
	CHECK_INT(maprec__method(mr, &out, M(1), 0x1000, 0x100, &inl, &nr), 0);
	CHECK_STR(out.buf, want_inline);
	CHECK_INT(nr, 5);
	CHECK_INT(lookups, 4); /* once per distinct method */

	strbuf__reset(&out);
	CHECK_INT(maprec__method(mr, &out, M(1), 0x1000, 0x100, NULL, &nr), 0);
	CHECK_STR(out.buf, "1000 100 p/A.m\n");
	CHECK_INT(nr, 0);

	/* unsorted records: the method line alone */
	{
		PCStackInfo bad[] = {PC(0x1020, ch_ba), PC(0x1010, ch_ba)};
		jvmtiCompiledMethodLoadInlineRecord b = {
		    {JVMTI_CMLR_INLINE_INFO, 1, 0, NULL}, 2, bad};

		strbuf__reset(&out);
		CHECK_INT(
		    maprec__method(mr, &out, M(1), 0x1000, 0x100, &b, &nr), 0);
		CHECK_STR(out.buf, "1000 100 p/A.m\n");
	}
	/* a NULL jmethodID is named, not confused with an empty slot */
	{
		jmethodID ch[] = {NULL, M(1)};
		PCStackInfo one[] = {PC(0x1010, ch)};
		jvmtiCompiledMethodLoadInlineRecord b = {
		    {JVMTI_CMLR_INLINE_INFO, 1, 0, NULL}, 1, one};

		strbuf__reset(&out);
		CHECK_INT(
		    maprec__method(mr, &out, M(1), 0x1000, 0x100, &b, &nr), 0);
		CHECK_STR(out.buf, "1000 100 p/A.m\n1000 11 p/A.m->[unknown]\n"
				   "1011 ef p/A.m\n");
	}
	strbuf__release(&out);
	maprec__free(mr);
}

/* Many distinct methods: the name cache grows and stays correct. */
static void test_many(void)
{
	enum { N = 1000 };
	static jmethodID chains[N][2];
	static PCStackInfo many[N];
	jvmtiCompiledMethodLoadInlineRecord inl = {
	    {JVMTI_CMLR_INLINE_INFO, 1, 0, NULL}, N, many};
	struct maprec *mr = maprec__new(fake_name, NULL);
	struct strbuf out = STRBUF_INIT;
	char want[64];
	int i, nr = 0;

	for (i = 0; i < N; i++) {
		chains[i][0] = M(100 + i);
		chains[i][1] = M(1);
		many[i] = (PCStackInfo){(void *)(uintptr_t)(0x10000 + 4 * i), 2,
					chains[i], NULL};
	}
	lookups = 0;
	CHECK_INT(maprec__method(mr, &out, M(1), 0x10000, 0x10000, &inl, &nr),
		  0);
	CHECK_INT(nr, N + 1); /* N ranges, then the tail of the method */
	CHECK_INT(lookups, N + 1);
	snprintf(want, sizeof(want), "%x 4 p/A.m->p/M%d.m\n",
		 0x10000 + 4 * (N - 1) - 3, 100 + N - 1);
	CHECK(strstr(out.buf, want) != NULL);
	strbuf__release(&out);
	maprec__free(mr);
}

static void test_find_inline(void)
{
	jvmtiCompiledMethodLoadInlineRecord inl = {
	    {JVMTI_CMLR_INLINE_INFO, 1, 0, NULL}, 0, NULL};
	jvmtiCompiledMethodLoadDummyRecord dummy = {
	    {JVMTI_CMLR_DUMMY, 1, 0, &inl.header}, "x"};

	CHECK(maprec__find_inline(NULL) == NULL);
	CHECK(maprec__find_inline(&dummy) == &inl);
	dummy.header.next = NULL;
	CHECK(maprec__find_inline(&dummy) == NULL);
}

int main(void)
{
	test_ranges();
	test_unsorted();
	test_record();
	test_many();
	test_find_inline();
	return check_report();
}
