/*
 * launch: fork a command that waits on a pipe, then execs (see launch.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "launch.h"

bool launch__needs_fp(void)
{
	const char *u = getenv("MIXPROF_UNWIND");

	return getenv("MIXPROF_NO_INTERP") || (u && !strcmp(u, "fp"));
}

char *launch__java_options(const char *old, const char *agent, bool fp)
{
	const char *flag = fp ? "-XX:+PreserveFramePointer" : "";
	char *s = NULL;
	int n;

	if (agent)
		n = asprintf(&s, "%s%s-agentpath:%s%s%s", old ? old : "",
			     old && *old ? " " : "", agent, fp ? " " : "",
			     flag);
	else if (fp)
		n = asprintf(&s, "%s%s%s", old ? old : "",
			     old && *old ? " " : "", flag);
	else
		n = asprintf(&s, "%s", old ? old : "");
	return n < 0 ? NULL : s;
}

/* In the child: wait for the go, set up the environment, exec. */
static void child(int go_rd, int err_wr, char **argv, const char *agent,
		  const sigset_t *mask)
{
	char *jto, c;
	int e;

	/* the command is not ours to stop by flag: a signal kills it
	 * while it waits, as it would after the exec */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* EOF without a byte means the profiler died: do not run unprofiled */
	if (read(go_rd, &c, 1) != 1)
		_exit(127);
	close(go_rd);
	jto = launch__java_options(getenv("JAVA_TOOL_OPTIONS"), agent,
				   launch__needs_fp());
	if (jto && *jto)
		setenv("JAVA_TOOL_OPTIONS", jto, 1);
	free(jto);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int launch__start(struct launch *l, char **argv, const char *agent,
		  const sigset_t *mask)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	l->pid = fork();
	if (l->pid < 0) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return ret;
	}
	if (l->pid == 0) {
		close(go[1]);
		close(err[0]);
		child(go[0], err[1], argv, agent, mask);
	}
	close(go[0]);
	close(err[1]);
	l->go_fd = go[1];
	l->err_fd = err[0];
	return 0;
}

int launch__go(struct launch *l)
{
	int e = 0;
	char c = 'g';
	ssize_t n;

	if (write(l->go_fd, &c, 1) != 1)
		e = errno;
	close(l->go_fd);
	l->go_fd = -1;
	if (e)
		return e;
	do
		n = read(l->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(l->err_fd);
	l->err_fd = -1;
	return n == sizeof(e) ? e : 0;
}
