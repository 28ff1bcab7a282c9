/*
 * The symbolizer's process table when records go (process__forget): every
 * record left is still found after removals in the middle of collision
 * runs, removed ones are gone, and the table keeps working as it grows.
 */
#include "check.h"
#include "symbolizer/sym_internal.h"

#define N 3000

static void test_table(void)
{
	struct symbolizer *s = symbolizer__new(NULL);
	struct proc *p;
	uint32_t pid;
	int lost = 0, kept = 0;

	for (pid = 1; pid <= N; pid++) {
		p = process__get(s, pid);
		CHECK(p != NULL);
		if (p)
			p->starttime = pid; /* a mark a new record lacks */
	}
	for (pid = 3; pid <= N; pid += 3)
		process__forget(s, pid);
	process__forget(s, N + 7); /* never known */
	CHECK_INT(s->procs.n, N - N / 3);
	for (pid = 1; pid <= N; pid++) {
		p = process__get(s, pid);
		if (pid % 3 == 0)
			lost += p && p->starttime == 0;
		else
			kept += p && p->starttime == pid;
	}
	CHECK_INT(lost, N / 3);
	CHECK_INT(kept, N - N / 3);
	CHECK_INT(s->procs.n, N);
	symbolizer__free(s);
}

int main(void)
{
	test_table();
	return check_report();
}
