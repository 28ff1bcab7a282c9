// SPDX-License-Identifier: GPL-2.0
/*
 * run_lock: --lock's part of a sampling run (see run_lock.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "common/safename.h"
#include "check/hints.h"
#include "jvm/jvms.h"
#include "jvm/hotspot.h"
#include "jvm/locknames.h"
#include "run.h"
#include "run_lock.h"
#include "jvm/lockcfg.h"
#include "sampler/sampler_ctl.h"
#include "output/sliceout.h"
#include "stacks/stackfold.h"

/* AbstractOwnableSynchronizer not loaded yet, or a JVM whose lock view
 * could not be read: looked at again this often */
#define RETRY_NS NSEC_PER_SEC

static uint32_t lock_pid(const struct run *r)
{
	return r->o.cmd ? (uint32_t)r->child.pid : r->o.pids[0];
}

/* The probes, on the JVM's own libjvm.so as its mount sees it. */
static int attach(struct run *r, uint32_t pid)
{
	char path[4096], lib[4200];
	const char *what;
	int ret = locknames__open(r->locks, pid, &what);

	if (ret == -EAGAIN)
		return ret; /* not read as a JVM yet: next tick */
	if (ret) {
		/* a JVM caught starting may not have it all yet (one
		 * test-kernels run on 6.1 did not, once): in a second */
		r->lock_why = what;
		r->lock_err = ret;
		r->lock_retry_ns = nsec__now() + RETRY_NS;
		if (r->o.verbose)
			fprintf(stderr,
				"mixprof: %u: cannot read %s for --lock yet: "
				"%s\n",
				pid, what, strerror(-ret));
		return -EAGAIN;
	}
	ret = hotspot__libjvm(pid, path, sizeof(path));
	if (ret) {
		fprintf(stderr, "mixprof: %u: no libjvm.so mapped\n", pid);
		return ret;
	}
	snprintf(lib, sizeof(lib), "/proc/%u/root%s", pid, path);
	ret = sampler__attach_lock(r->smp, r->tb.start_ns, pid, lib,
				   locknames__cfg(r->locks));
	if (ret == -ENOENT) /* the path is the target's to choose */
		fprintf(stderr,
			"mixprof: %s: no monitor entry or Unsafe_Park in its "
			".symtab\n",
			safename__show(lib, sizeof(lib), path));
	else if (ret)
		hints__report(sampler__failure(r->smp));
	if (ret)
		return ret;
	r->lock_attached = true;
	if (r->o.verbose)
		fprintf(
		    stderr,
		    "mixprof: %u: --lock probes attached; j.u.c. locks %s\n",
		    pid,
		    locknames__cfg(r->locks)->aos_klass ? "too"
							: "once loaded");
	return 0;
}

int run_lock__start(struct run *r)
{
	int ret;

	if (!r->jvms) {
		fprintf(stderr, "mixprof: --lock reads the JVM's tables: "
				"leave out -K and MIXPROF_NO_INTERP\n");
		return -EINVAL;
	}
	r->locks = locknames__new(r->jvms);
	if (!r->locks) {
		fprintf(stderr, "mixprof: %s\n", strerror(errno));
		return -ENOMEM;
	}
	stackfold__locks(r->sf, r->locks);
	if (r->o.cmd)
		return 0; /* once the JVM it launches is read (tick) */
	if (!jvms__hotspot(r->jvms, lock_pid(r))) {
		fprintf(stderr,
			"mixprof: %u: not a JVM whose tables can be read "
			"(--lock)\n",
			lock_pid(r));
		return -ENOENT;
	}
	ret = attach(r, lock_pid(r));
	return ret == -EAGAIN ? 0 : ret; /* again at the ticks */
}

int run_lock__tick(struct run *r)
{
	uint32_t pid = lock_pid(r);
	int ret;

	if (r->child_done)
		return 0;
	/* the JVM read, and its threads' JavaThread*s given to the park
	 * probe (java_threads) every jvms tick, waits or none */
	jvms__seen(r->jvms, pid, r->now_ns);
	if (r->now_ns < r->lock_retry_ns)
		return 0;
	if (!r->lock_attached) {
		ret = attach(r, pid);
		return ret == -EAGAIN ? 0 : ret;
	}
	if (locknames__cfg(r->locks)->aos_klass)
		return 0;
	r->lock_retry_ns = r->now_ns + RETRY_NS;
	if (locknames__aos(r->locks))
		sampler__lock_juc(r->smp, locknames__cfg(r->locks));
	return 0;
}

void run_lock__summary(struct run *r, const uint64_t *st, double secs)
{
	fprintf(stderr,
		"mixprof: %" PRIu64 " lock waits begun in %.1f s (%s), "
		"%.3f s waited written; counts are nanoseconds\n",
		st[STAT_SAMPLES], secs, sampler__event_name(r->smp),
		sliceout__total(r->out) / 1e9);
	fprintf(stderr, "mixprof:   (below, a \"sample\" is a nanosecond)\n");
	if (!r->lock_attached && r->lock_why)
		fprintf(stderr,
			"mixprof:   nothing probed: cannot read %s from the "
			"JVM: %s\n",
			r->lock_why, strerror(-r->lock_err));
	else if (!r->lock_attached)
		fprintf(stderr, "mixprof:   no JVM was read: nothing probed\n");
	else if (!locknames__cfg(r->locks)->aos_klass)
		fprintf(stderr, "mixprof:   j.u.c. locks not counted (their "
				"base class was never loaded)\n");
}

void run_lock__free(struct run *r)
{
	locknames__free(r->locks);
	r->locks = NULL;
}
