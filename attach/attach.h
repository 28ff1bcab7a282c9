/*
 * attach: load the libjmap.so JVMTI agent into a running HotSpot JVM
 * through HotSpot's dynamic-attach protocol (no Java tools needed).
 *
 * `mixprof attach PID [OPTIONS]` is attach__cmd(); the profiler calls
 * attach__jvm() itself when it finds a JVM that runs without the agent.
 * The /proc helpers the profiler also needs are in procinfo.h and
 * attach_flags.h, included here.
 */
#ifndef MIXPROF_ATTACH_H
#define MIXPROF_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "attach_flags.h"
#include "procinfo.h"

/* Exit codes of `mixprof attach`. */
enum attach_exit {
	ATTACH_EXIT_OK = 0,
	ATTACH_EXIT_FAILED = 1, /* no such JVM, not answering, refused... */
	ATTACH_EXIT_USAGE = 2, /* bad command line or agent options */
	ATTACH_EXIT_AGENT = 3, /* the agent ran and returned an error */
};

#define ATTACH_TIMEOUT_MS 5000 /* for the JVM to start its listener */

/*
 * `mixprof attach PID [OPTIONS] [--agent PATH] [--timeout SECS]`, with
 * argv[0] == "attach". Prints one line on error and returns an exit code
 * from enum attach_exit.
 */
int attach__cmd(int argc, char **argv);

/*
 * Load the agent at agent_path (absolute, in mixprof's mount namespace)
 * into JVM pid with the given options string (NULL = none), waiting up
 * to timeout_ms for the JVM's attach listener to come up.
 *
 * Returns 0 when Agent_OnAttach ran: its return code (a jmap_status) is
 * in *agent_status. Otherwise returns -errno, with a one-line reason that
 * names the process in err (no "mixprof:" prefix, no newline):
 *   -ESRCH        no such process, or it exited meanwhile
 *   -ENOEXEC      not a HotSpot JVM (nothing was sent to it)
 *   -EPERM        not allowed: another user's JVM and we are not root
 *   -EHOSTDOWN    it cannot be attached: attach disabled, or SIGQUIT not
 *                 handled (-Xrs, still starting), so it was not signalled
 *   -ETIMEDOUT    its attach listener did not start or did not answer
 *   -EACCES       its socket belongs to another user (not its own)
 *   -ECONNREFUSED its socket is dead and cannot be removed
 *   -ELIBACC      the JVM could not load the library (reason from the JVM)
 *   -EPROTO       an unexpected reply
 *   other -errno  from the system calls on the way (err names the file)
 *
 * While it runs, the process's effective uid/gid (all threads) switch to
 * the JVM's, since HotSpot only talks to its own user (or root); they are
 * restored before it returns. Safe to call twice on the same JVM.
 * When the JVM cannot see agent_path (another mount namespace) or its user
 * cannot read it, the library is copied into the JVM's /tmp, as
 * /tmp/mixprof-libjmap-<uid>.so owned by the JVM's user, and left there.
 */
int attach__jvm(pid_t pid, const char *agent_path, const char *options,
		int timeout_ms, int *agent_status, char *err, size_t errlen);

/*
 * Whether JVM pid runs with -XX:+PreserveFramePointer (see
 * attach_flags.h for where this is read). The profiler warns once when
 * it does not: JIT frames then cannot be walked by frame pointer.
 */
static inline bool attach__preserves_fp(pid_t pid)
{
	return attach_flags__jvm_flag(pid, "PreserveFramePointer") == 1;
}

#endif
