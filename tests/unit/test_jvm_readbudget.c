/*
 * readbudget: reads pass until the target's budget is used up, then fail
 * for good without reaching the target (issue 29: a fake JVM whose
 * metadata claimed 20 MB per nmethod kept mixprof reading for minutes).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "jvm/readbudget.h"

static int calls;

/* A target whose every read succeeds, counted. */
static int count_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)buf;
	(void)len;
	calls++;
	return addr == 1 ? -EFAULT : 0;
}

static const struct hotspot_mem target = {count_read, NULL};

static void test_big_read(void)
{
	struct readbudget b;
	static char buf[(1 << 20) + 1];

	readbudget__init(&b, &target);
	calls = 0;
	CHECK_INT(b.mem.read(b.mem.ctx, 64, buf, 1 << 20), 0);
	CHECK_INT(b.mem.read(b.mem.ctx, 1, buf, 8), -EFAULT); /* passed on */
	CHECK_INT(readbudget__over(&b), RB_OK);
	/* more than any HotSpot structure: over, and nothing read again */
	CHECK_INT(b.mem.read(b.mem.ctx, 64, buf, sizeof(buf)), -EDQUOT);
	CHECK_INT(readbudget__over(&b), RB_BIG_READ);
	CHECK_INT(b.mem.read(b.mem.ctx, 64, buf, 8), -EDQUOT);
	CHECK_INT(calls, 2);
	CHECK(readbudget__why(RB_BIG_READ)[0]);
}

static void test_bytes(void)
{
	struct readbudget b;
	static char buf[1 << 20];
	int n = 0;

	readbudget__init(&b, &target);
	calls = 0;
	/* 1 MB reads (no copy: microseconds): 64 MB within a second pass,
	 * the next does not */
	while (n < 200 && !b.mem.read(b.mem.ctx, 64, buf, sizeof(buf)))
		n++;
	CHECK_INT(n, 64);
	CHECK_INT(readbudget__over(&b), RB_BYTES);
	CHECK_INT(calls, 64);
	CHECK_INT(b.mem.read(b.mem.ctx, 64, buf, 1), -EDQUOT);
}

int main(void)
{
	test_big_read();
	test_bytes();
	return check_report();
}
