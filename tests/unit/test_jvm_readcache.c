/*
 * readcache: reads within lines read in the last moment are answered
 * from them, one read of the target a line; what is unreadable, too
 * large or too old goes to the target as asked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "jvm/readcache.h"

/* The target: BASE.. holds SIZE bytes (byte i is i * 7 + gen), nothing
 * else is readable; every read counted. */
#define BASE 0x10000ull
#define SIZE (4 * READCACHE_LINE + 100)
static int calls;
static uint8_t gen;
static uint64_t clock_ns = 1000000000ull;

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	calls++;
	if (addr < BASE || addr + len < addr || addr + len > BASE + SIZE)
		return -EFAULT;
	for (size_t i = 0; i < len; i++)
		((uint8_t *)buf)[i] = (uint8_t)((addr - BASE + i) * 7 + gen);
	return 0;
}

static const struct hotspot_mem target = {fake_read, NULL};

static uint64_t fake_now(void)
{
	return clock_ns;
}

/* Is buf what the target holds at addr (of generation gen)? */
static int holds(const uint8_t *buf, uint64_t addr, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != (uint8_t)((addr - BASE + i) * 7 + gen))
			return 0;
	return 1;
}

static void setup(struct readcache *c)
{
	CHECK_INT(readcache__init(c, &target), 0);
	c->now_ns = fake_now;
	readcache__forget(c);
	calls = 0;
	gen = 0;
}

static int rd(struct readcache *c, uint64_t addr, void *buf, size_t len)
{
	return c->mem.read(c->mem.ctx, addr, buf, len);
}

/* Reads in one line: one read of the target, the rest from it. */
static void test_one_line(void)
{
	struct readcache c;
	uint8_t b[64];

	setup(&c);
	CHECK_INT(rd(&c, BASE + 8, b, 8), 0);
	CHECK(holds(b, BASE + 8, 8));
	CHECK_INT(rd(&c, BASE + 100, b, 64), 0);
	CHECK(holds(b, BASE + 100, 64));
	CHECK_INT(rd(&c, BASE + READCACHE_LINE - 8, b, 8), 0);
	CHECK(holds(b, BASE + READCACHE_LINE - 8, 8));
	CHECK_INT(calls, 1);
	CHECK_INT(c.st.reads, 3);
	CHECK_INT(c.st.hits, 2);
	readcache__fini(&c);
}

/* A read across two lines reads both; each then answers alone. */
static void test_two_lines(void)
{
	struct readcache c;
	uint8_t b[64];

	setup(&c);
	CHECK_INT(rd(&c, BASE + READCACHE_LINE - 16, b, 32), 0);
	CHECK(holds(b, BASE + READCACHE_LINE - 16, 32));
	CHECK_INT(calls, 2);
	CHECK_INT(rd(&c, BASE + 4, b, 8), 0);
	CHECK_INT(rd(&c, BASE + READCACHE_LINE + 4, b, 8), 0);
	CHECK(holds(b, BASE + READCACHE_LINE + 4, 8));
	CHECK_INT(calls, 2);
	readcache__fini(&c);
}

/* Too old, or forgotten: read again, and what changed is seen. */
static void test_ttl(void)
{
	struct readcache c;
	uint8_t b[8];

	setup(&c);
	CHECK_INT(rd(&c, BASE, b, 8), 0);
	gen = 1; /* the target changes */
	clock_ns += READCACHE_TTL_NS - 1;
	CHECK_INT(rd(&c, BASE, b, 8), 0);
	CHECK_INT(calls, 1); /* still the line read before */
	CHECK(!holds(b, BASE, 8));
	clock_ns += 1;
	CHECK_INT(rd(&c, BASE, b, 8), 0);
	CHECK_INT(calls, 2);
	CHECK(holds(b, BASE, 8));
	gen = 2;
	readcache__forget(&c);
	CHECK_INT(rd(&c, BASE, b, 8), 0);
	CHECK_INT(calls, 3);
	CHECK(holds(b, BASE, 8));
	readcache__fini(&c);
}

/*
 * A line the target cannot give whole (its readable bytes end within
 * it): the read goes through as asked, and is not kept; the unreadable
 * fails as the target fails.
 */
static void test_partial_line(void)
{
	struct readcache c;
	uint64_t end = BASE + SIZE;
	uint8_t b[16];

	setup(&c);
	CHECK_INT(rd(&c, end - 16, b, 16), 0);
	CHECK(holds(b, end - 16, 16));
	CHECK_INT(calls, 2); /* the line, then the read itself */
	CHECK_INT(rd(&c, end - 16, b, 16), 0);
	CHECK_INT(calls, 4);
	CHECK_INT(rd(&c, end - 8, b, 16), -EFAULT);
	CHECK_INT(rd(&c, 8, b, 8), -EFAULT);
	/* across into a line that cannot be read: through as well */
	CHECK_INT(rd(&c, BASE - 8, b, 16), -EFAULT);
	CHECK_INT(c.st.hits, 0);
	readcache__fini(&c);
}

/* More than two lines, or nothing: straight to the target. */
static void test_through(void)
{
	struct readcache c;
	static uint8_t b[3 * READCACHE_LINE];

	setup(&c);
	CHECK_INT(rd(&c, BASE + 1, b, sizeof(b)), 0);
	CHECK(holds(b, BASE + 1, sizeof(b)));
	CHECK_INT(calls, 1);
	CHECK_INT(c.st.through, 1);
	CHECK_INT(rd(&c, BASE + 1, b, 2 * READCACHE_LINE), 0);
	CHECK(holds(b, BASE + 1, 2 * READCACHE_LINE));
	CHECK_INT(calls, 2); /* three lines: through */
	CHECK_INT(rd(&c, ~0ull - 4, b, 8), -EFAULT); /* wraps */
	readcache__fini(&c);
}

/* Lines that share a slot take it in turn, each read right. */
static void test_slots(void)
{
	struct readcache c;
	uint8_t b[8];

	setup(&c);
	for (int r = 0; r < 3; r++)
		for (uint64_t a = BASE; a < BASE + SIZE - 8; a += 512) {
			CHECK_INT(rd(&c, a, b, 8), 0);
			CHECK(holds(b, a, 8));
		}
	CHECK(c.st.lines <= (SIZE / READCACHE_LINE + 1) * 3);
	readcache__fini(&c);
}

int main(void)
{
	test_one_line();
	test_two_lines();
	test_ttl();
	test_partial_line();
	test_through();
	test_slots();
	return check_report();
}
