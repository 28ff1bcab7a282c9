/*
 * run_child: the command a run launches (`-- COMMAND`, run_child.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "attach/agentpath.h"
#include "common/nsec.h"
#include "jvm/jvms.h"
#include "jvmprep.h"
#include "run.h"
#include "run_child.h"
#include "sampler/sampler_ctl.h"

int run_child__launch(struct run *r)
{
	char *agent = r->o.attach ? agentpath__find() : NULL, pid[16];
	int ret;

	/* -e: the agent holds main at VMInit until the probes are in, for
	 * its parent only, us (agent/control.h); the child inherits this */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (r->o.nr_probes && setenv("MIXPROF_JMAP_HOLD", pid, 1)) {
		free(agent);
		return -errno;
	}

	if (agent && r->o.nr_probes && !r->o.agent_opt)
		fprintf(stderr, "mixprof: -e: the launched JVMs get the map "
				"agent (libjmap.so): the probes need it\n");
	if (!agent && r->o.attach)
		fprintf(stderr,
			"mixprof: libjmap.so not found (next to "
			"mixprof, in ../lib/mixprof, or $MIXPROF_AGENT);"
			" Java frames will show as [unknown]\n");
	ret = launch__start(&r->child, r->o.cmd, agent, &r->old_mask);
	free(agent);
	if (ret) {
		fprintf(stderr, "mixprof: fork: %s\n", strerror(-ret));
		return ret;
	}
	r->launched = true;
	jvmprep__launched(r->child.pid);
	return sampler__add_target(r->smp, r->child.pid);
}

/*
 * The launched command's unwind table while its dynamic loader maps its
 * libraries (a few ms): asked every 2 ms for 20 ms, so its first samples
 * do not wait for the first tick (100 ms); a target, its files' rows are
 * built even before its samples ask. A sample before is counted
 * (STAT_ROWS_NOT_READY) and walked by frame pointers.
 */
void run_child__rows(struct run *r)
{
	const struct timespec ms2 = {0, 2000000};

	/* after the exec: the child's mappings were ours until then */
	sampler__unwind_target(r->smp, r->child.pid);
	r->child_early = r->jvms != NULL;
	for (int i = 0; i < 10; i++) {
		nanosleep(&ms2, NULL);
		sampler__unwind_refresh(r->smp, r->child.pid, nsec__now());
		run_child__identify(r);
	}
}

void run_child__identify(struct run *r)
{
	uint64_t now = nsec__now();

	if (!r->child_early)
		return;
	r->child_early = r->launched && !r->child_done && r->jvms &&
			 jvms__launched(r->jvms, r->child.pid, now);
	/* and its table: libjvm.so is dlopen'ed after the exec, and its
	 * code is not walked by its rows (nor seen as native code by a
	 * walk "pending") until its mapping is in the table */
	if (r->child_early)
		sampler__unwind_refresh(r->smp, r->child.pid, now);
}

void run_child__reap(struct run *r)
{
	int status;

	if (!r->launched || r->child_done)
		return;
	if (wait4(r->child.pid, &status, WNOHANG, &r->child_ru) ==
	    r->child.pid) {
		r->child_done = true;
		r->child_status = status;
	}
}

void run_child__report(struct run *r)
{
	int st = r->child_status;

	if (!r->launched)
		return;
	if (!r->child_done)
		fprintf(stderr, "mixprof: '%s' (pid %d) still runs\n",
			r->o.cmd[0], r->child.pid);
	else if (WIFEXITED(st))
		fprintf(stderr, "mixprof: '%s' exited with status %d",
			r->o.cmd[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		fprintf(stderr, "mixprof: '%s' killed by signal %d (%s)",
			r->o.cmd[0], WTERMSIG(st), strsignal(WTERMSIG(st)));
	/* as time(1) reports it: the command and the children it waited
	 * for, the whole run (sampled or not) */
	if (r->child_done)
		fprintf(stderr, "; CPU %.2f s user, %.2f s system\n",
			nsec__tv_secs(r->child_ru.ru_utime),
			nsec__tv_secs(r->child_ru.ru_stime));
}

/*
 * A profiled launch passes on its command's failure, as perf record and
 * strace do: its exit status, or 128 + the signal that killed it (the
 * shell's rule). Our own failures return before this, with a "mixprof:"
 * line on stderr.
 */
int run_child__exit_status(const struct run *r)
{
	int st = r->child_status;

	if (!r->launched || !r->child_done)
		return EXIT_PROF_OK;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return EXIT_PROF_OK;
}
