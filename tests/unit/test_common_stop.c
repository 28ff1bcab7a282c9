/*
 * stop: the flag a stop signal sets, its grace, and a second signal while
 * writing, on this process's own signals (in a child, so the test's own
 * dispositions stay as they were).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "common/stop.h"

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {ns / NSEC_PER_SEC, ns % NSEC_PER_SEC};

	while (nanosleep(&ts, &ts))
		;
}

/* The child's checks, as its exit status: the first that failed, or 0. */
static int flag_and_grace(void)
{
	if (stop__install())
		return 1;
	if (stop__asked() || stop__hurry())
		return 2; /* nothing sent yet */
	raise(SIGTERM);
	if (!stop__asked())
		return 3;
	if (stop__hurry())
		return 4; /* the grace first */
	sleep_ns(STOP_GRACE_NS + 50 * NSEC_PER_MSEC);
	if (!stop__hurry())
		return 5;
	raise(SIGINT); /* a second one, not while writing: nothing more */
	if (!stop__asked())
		return 6;
	stop__writing(true);
	raise(SIGINT); /* now: exits at once */
	return 7;
}

static void test_stop(void)
{
	int st = 0;
	pid_t pid;

	/* never installed: never asked, whatever the caller's signals */
	CHECK(!stop__asked());
	CHECK(!stop__hurry());
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(flag_and_grace());
	CHECK(pid > 0);
	CHECK_INT(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st));
	/* 128 + SIGINT: the second signal while writing */
	CHECK_INT(WEXITSTATUS(st), 128 + SIGINT);
}

int main(void)
{
	test_stop();
	return check_report();
}
