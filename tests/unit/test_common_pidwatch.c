/*
 * pidwatch: a child alive, then a zombie (not reaped: dead to the watch,
 * as /proc's state Z is), then reaped; ourselves alive throughout; a pid
 * with no process (no pidfd: the /proc way) is not alive.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "common/pidwatch.h"

int main(void)
{
	uint32_t pids[3];
	struct pidwatch *w;
	pid_t child = fork();

	if (child == 0) {
		pause();
		_exit(0);
	}
	CHECK(child > 0);
	pids[0] = child;
	pids[1] = getpid();
	pids[2] = 0x3fffffff; /* above pid_max's limit: never a process */
	w = pidwatch__new(pids, 3);
	CHECK(w != NULL);
	CHECK_INT(pidwatch__alive(w), 2);
	kill(child, SIGKILL);
	/* a zombie once the signal is taken: it stays one, not reaped */
	for (int i = 0; i < 200 && pidwatch__alive(w) == 2; i++)
		usleep(10000);
	CHECK_INT(pidwatch__alive(w), 1);
	CHECK_INT(waitpid(child, NULL, 0), child);
	CHECK_INT(pidwatch__alive(w), 1);
	pidwatch__free(w);
	w = pidwatch__new(pids, 0);
	CHECK_INT(pidwatch__alive(w), 0);
	pidwatch__free(w);
	pidwatch__free(NULL);
	return check_report();
}
