/*
 * Unit tests: jvmkids__descendants, the walk below a -p pid over (pid,
 * ppid) links: children before grandchildren, other trees left out, each
 * pid once even when the links loop, never more than asked for.
 */
#include "check.h"
#include "jvm/jvmkids.h"

static void test_tree(void)
{
	/* 10 -> 11 -> 13 -> 15; 10 -> 12; 20 -> 21 (another tree) */
	struct proc_link l[] = {{13, 11}, {21, 20}, {11, 10}, {15, 13},
				{12, 10}, {10, 1},  {20, 1}};
	uint32_t out[8];

	CHECK_INT(jvmkids__descendants(l, 7, 10, out, 8), 4);
	CHECK_INT(out[0], 11);
	CHECK_INT(out[1], 12);
	CHECK_INT(out[2], 13);
	CHECK_INT(out[3], 15);
	CHECK_INT(jvmkids__descendants(l, 7, 15, out, 8), 0);
	CHECK_INT(jvmkids__descendants(l, 7, 10, out, 2), 2);
	CHECK_INT(out[1], 12);
	CHECK_INT(jvmkids__descendants(l, 0, 10, out, 8), 0);
}

static void test_loop(void)
{
	/* pids reused between two reads of /proc: 30 -> 31 -> 32 -> 30 */
	struct proc_link l[] = {{31, 30}, {32, 31}, {30, 32}, {33, 33}};
	uint32_t out[8];

	CHECK_INT(jvmkids__descendants(l, 4, 30, out, 8), 2);
	CHECK_INT(out[0], 31);
	CHECK_INT(out[1], 32);
	CHECK_INT(jvmkids__descendants(l, 4, 33, out, 8), 0);
}

int main(void)
{
	test_tree();
	test_loop();
	return check_report();
}
