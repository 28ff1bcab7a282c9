/*
 * launch: start the command of `mixprof -- CMD ARGS` held at the door:
 * the child is forked at once (so its pid can become a target) but execs
 * only after launch__go(), once sampling runs, so the profile sees its
 * first instruction. JVMs get the map agent and frame pointers through
 * JAVA_TOOL_OPTIONS, keeping whatever the user had there.
 */
#ifndef MIXPROF_LAUNCH_H
#define MIXPROF_LAUNCH_H

#include <stdbool.h>

#include <signal.h>
#include <sys/types.h>

struct launch {
	pid_t pid;
	int go_fd; /* write end: closing it lets the child exec */
	int err_fd; /* read end: the child's exec errno, EOF on success */
};

/*
 * Fork the child for argv. agent is the libjmap.so path to inject (NULL:
 * none); mask is the signal mask the command should start with.
 * 0 or negative errno.
 */
int launch__start(struct launch *l, char **argv, const char *agent,
		  const sigset_t *mask);

/* Let the child exec. 0, or the positive errno of a failed exec. */
int launch__go(struct launch *l);

/*
 * The JAVA_TOOL_OPTIONS value for old (may be NULL), with the agent (if
 * not NULL) and, when fp, -XX:+PreserveFramePointer; malloc'ed.
 */
char *launch__java_options(const char *old, const char *agent, bool fp);

/*
 * Does this run walk JVMs by frame pointer only (MIXPROF_UNWIND=fp, or
 * MIXPROF_NO_INTERP), so that a launched JVM needs
 * -XX:+PreserveFramePointer? Otherwise the HotSpot unwinder finds
 * compiled frames' callers without it.
 */
bool launch__needs_fp(void);

#endif
