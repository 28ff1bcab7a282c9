// SPDX-License-Identifier: GPL-2.0
/*
 * run_vtwait: virtual threads' waits in an off-CPU or wall run (see
 * run_vtwait.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/hints.h"
#include "jvm/jvms.h"
#include "jvm/hotspot.h"
#include "jvm/vthread.h"
#include "run.h"
#include "run_vtwait.h"
#include "sampler/sampler_ctl.h"

#define RETRY_NS NSEC_PER_SEC
/* a JVM whose statics are still unset after this is not starting */
#define TRIES 30

/* one target's probes: to try, attached, or given up */
struct vtwait {
	uint32_t pid;
	int tries;
	bool done;
};

struct vtwaits {
	struct vtwait *t;
	int n;
	uint64_t next_ns;
};

/* The targets: -p's, or the launched process. */
static struct vtwaits *targets(struct run *r)
{
	struct vtwaits *v = calloc(1, sizeof(*v));
	int n = r->o.cmd ? 1 : r->o.nr_pids;

	if (!v || !(v->t = calloc(n ? n : 1, sizeof(*v->t)))) {
		free(v);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		v->t[i].pid = r->o.cmd ? (uint32_t)r->child.pid : r->o.pids[i];
	v->n = n;
	return v;
}

/* 0 (attached), -EAGAIN (not yet), or why never. */
static int attach(struct run *r, uint32_t pid)
{
	struct hotspot *h = jvms__hotspot(r->jvms, pid);
	struct vthread_probes vp;
	char path[4096], lib[4200];
	int ret;

	if (!h)
		return -EAGAIN; /* not read as a JVM yet */
	ret = vthread__wait_probes(hotspot__mem(h), pid, &vp);
	if (ret)
		return ret;
	ret = hotspot__libjvm(pid, path, sizeof(path));
	if (ret)
		return ret;
	snprintf(lib, sizeof(lib), "/proc/%u/root%s", pid, path);
	ret = sampler__attach_vtwait(r->smp, pid, lib, vp.freeze, vp.nfreeze,
				     vp.thaw);
	if (ret)
		hints__report(sampler__failure(r->smp));
	else if (r->o.verbose)
		fprintf(stderr,
			"mixprof: %u: virtual threads' waits: %d freeze and "
			"1 thaw probe attached\n",
			pid, vp.nfreeze);
	return ret;
}

int run_vtwait__tick(struct run *r)
{
	struct vtwaits *v = r->vtw;
	int ret;

	if (!r->jvms || r->child_done || (v && r->now_ns < v->next_ns))
		return 0;
	if (!v && !(v = r->vtw = targets(r)))
		return -ENOMEM;
	v->next_ns = r->now_ns + RETRY_NS;
	for (int i = 0; i < v->n; i++) {
		struct vtwait *t = &v->t[i];

		if (t->done || !t->pid)
			continue;
		jvms__seen(r->jvms, t->pid, r->now_ns);
		ret = attach(r, t->pid);
		if (ret == -EAGAIN && ++t->tries < TRIES)
			continue;
		/* the run goes on without them: its threads' waits are
		 * still counted */
		t->done = true;
		if (ret && r->o.verbose)
			fprintf(stderr,
				"mixprof: %u: virtual threads' waits not "
				"counted: %s\n",
				t->pid, strerror(-ret));
	}
	return 0;
}

void run_vtwait__free(struct run *r)
{
	struct vtwaits *v = r->vtw;

	if (v)
		free(v->t);
	free(v);
	r->vtw = NULL;
}
