/*
 * targets: the targets (entries found again, kept in place while the set
 * grows, dropped by filter) and the /proc readers on this process.
 */
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "profiler/targets.h"

#define N 1000

static bool keep_even(struct pid_info *pi, void *ctx)
{
	(*(int *)ctx)++;
	return pi->pid % 2 == 0;
}

static void count(struct pid_info *pi, void *ctx)
{
	*(uint64_t *)ctx += pi->pid;
}

static void test_pidset(void)
{
	struct targets *p = targets__new();
	struct pid_info *first;
	uint64_t sum = 0;
	bool added;
	int asked = 0, moved = 0;

	CHECK(p != NULL);
	CHECK(targets__get(p, 0, &added) == NULL && !added);
	first = targets__get(p, 1, &added);
	CHECK(first && added && first->pid == 1);
	first->seen_ns = 42;
	for (uint32_t pid = 2; pid <= N; pid++) {
		struct pid_info *pi = targets__get(p, pid, &added);

		CHECK(pi && added && pi->pid == pid && !pi->seen_ns);
	}
	CHECK(targets__get(p, 1, &added) == first && !added);
	CHECK(first->seen_ns == 42); /* the set grew: the entry stayed */
	CHECK_INT(targets__filter(p, keep_even, &asked), 0);
	CHECK_INT(asked, N);
	for (uint32_t pid = 1; pid <= N; pid++) {
		struct pid_info *pi = targets__find(p, pid);

		moved += pid % 2 ? pi != NULL : !pi || pi->pid != pid;
	}
	CHECK_INT(moved, 0);
	targets__for_each(p, count, &sum);
	CHECK_INT(sum, (uint64_t)(N / 2) * (N / 2 + 1)); /* 2 + 4 + ... + N */
	targets__free(p);
	targets__free(NULL);
}

static void test_self(void)
{
	char comm[16];

	CHECK(targets__age_ns(getpid()) > 0);
	CHECK_INT(targets__comm(getpid(), comm), 0);
	CHECK_STR(comm, "test_prof_targe");
	CHECK(!targets__has_jit_map(getpid())); /* no perf-PID.map of ours */
}

int main(void)
{
	test_pidset();
	test_self();
	return check_report();
}
