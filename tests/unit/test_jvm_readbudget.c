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

/* A clock that stands still (1 s in): every read falls in one window. */
static uint64_t frozen_ns(void)
{
	return 1000000000ull;
}

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
	b.now_ns = frozen_ns;
	calls = 0;
	/* 1 MB reads: 64 MB within a second pass, the next does not */
	while (n < 200 && !b.mem.read(b.mem.ctx, 64, buf, sizeof(buf)))
		n++;
	CHECK_INT(n, 64);
	CHECK_INT(readbudget__over(&b), RB_BYTES);
	CHECK_INT(calls, 64);
	CHECK_INT(b.mem.read(b.mem.ctx, 64, buf, 1), -EDQUOT);
}

static void test_reads(void)
{
	struct readbudget b;
	char c;
	int n = 0;

	readbudget__init(&b, &target);
	b.now_ns = frozen_ns;
	/* 250,000 1-byte reads within a second pass, the next does not */
	while (n < 2000000 && !b.mem.read(b.mem.ctx, 64, &c, 1))
		n++;
	CHECK_INT(n, 250000);
	CHECK_INT(readbudget__over(&b), RB_READS);
}

/* Each read takes 0.6 s of a clock that never stops. */
static uint64_t slow_ns(void)
{
	static uint64_t t;

	return t += 300000000ull;
}

static void test_time(void)
{
	struct readbudget b;
	char c;
	int n = 0;

	readbudget__init(&b, &target);
	b.now_ns = slow_ns;
	/* most of every window spent reading: dropped after 5 of them */
	while (n < 100 && !b.mem.read(b.mem.ctx, 64, &c, 1))
		n++;
	CHECK(n > 5 && n < 20);
	CHECK_INT(readbudget__over(&b), RB_TIME);
}

/* The direct reader goes to its own target, on the same budget. */
static int direct_calls;

static int direct_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)buf;
	(void)len;
	direct_calls++;
	return 0;
}

static const struct hotspot_mem direct = {direct_read, NULL};

static void test_direct(void)
{
	struct readbudget b;
	static char buf[1 << 20];
	int n = 0;

	readbudget__init(&b, &target);
	readbudget__direct(&b, &direct);
	b.now_ns = frozen_ns;
	calls = direct_calls = 0;
	CHECK_INT(b.mem.read(b.mem.ctx, 64, buf, 8), 0);
	CHECK_INT(b.mem_direct.read(b.mem_direct.ctx, 64, buf, 8), 0);
	CHECK_INT(calls, 1);
	CHECK_INT(direct_calls, 1);
	/* 1 MB through each, a round: 64 MB is 32 rounds of one budget */
	while (n < 200 &&
	       !b.mem_direct.read(b.mem_direct.ctx, 64, buf, sizeof(buf)) &&
	       !b.mem.read(b.mem.ctx, 64, buf, sizeof(buf)))
		n++;
	CHECK(n >= 30 && n <= 32);
	CHECK_INT(readbudget__over(&b), RB_BYTES);
	CHECK_INT(b.mem_direct.read(b.mem_direct.ctx, 64, buf, 8), -EDQUOT);
}

int main(void)
{
	test_big_read();
	test_bytes();
	test_reads();
	test_time();
	test_direct();
	return check_report();
}
