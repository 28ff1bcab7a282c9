/*
 * run_tick: what the run does every tick (run_tick.h): drain the finished
 * buckets into folded lines, tail the JIT maps, forget what expired,
 * refresh native unwind rows.
 */
#include <errno.h>
#include <string.h>
#include "common/procfs.h"
#include "common/stop.h"
#include "containers.h"
#include "jvm/jstacks.h"
#include "stacks/linefilter.h"
#include "output/render_out.h"
#include "run.h"
#include "run_events.h"
#include "run_tick.h"
#include "sampler/sampler_ctl.h"
#include "output/sliceout.h"
#include "stacks/stackfold.h"
#include "targets.h"

/*
 * A key new in the counts map: learn its process the moment its samples
 * show up (the symbolizer's maps, a JVM's interpreter and threads for the
 * sampler), before any of its keys is named.
 */
static void on_seen(struct run *r, const struct sample_key *k)
{
	struct pid_info *pi;
	bool added;

	/* interpreted frames; a kernel thread has none (no user stack) */
	if (k->user_stack != STACK_NONE && r->jvms) {
		jvms__seen(r->jvms, k->pid, r->now_ns);
		jstacks__seen(r->jstacks, k, r->now_ns);
	}
	if (r->locks)
		stackfold__lock_seen(r->sf, k);
	pi = targets__get(r->pids, k->pid, &added);
	if (!pi)
		return;
	pi->seen_ns = r->now_ns;
	if (k->user_stack != STACK_NONE)
		pi->user = true; /* else a kernel thread, so far: no files */
	/* the main thread's comm, for keys of the others (stackfold.h) */
	if (k->comm[0] && !r->o.per_thread)
		memcpy(pi->comm, k->comm, sizeof(pi->comm));
	if (!added)
		return;
	if (!pi->comm[0])
		targets__comm(k->pid, pi->comm);
	/* at first sight: a short-lived process may be gone by the next */
	if (r->ct)
		pi->container = containers__of_pid(r->ct, k->pid);
	if (!pi->user)
		return;
	/*
	 * Tail a JVM's map every tick from the first sight, not from the next
	 * full refresh: lines read in one late refresh share one lower time
	 * bound, and a whole second of them (code freed and reused meanwhile)
	 * would all look older than the samples. With -p or a command the
	 * few processes are all tailed; host-wide, those with a map so far.
	 */
	pi->jit = r->launched || r->o.nr_pids || targets__has_jit_map(k->pid);
	symbolizer__refresh(r->sym, k->pid, r->now_ns);
}

/* A key of a finished bucket: its folded line to the outputs. */
static void on_take(struct run *r, const struct sample_key *k, uint64_t count,
		    uint64_t events)
{
	struct pid_info *pi = targets__find(r->pids, k->pid);
	uint64_t when = timebase__bucket_end(&r->tb, k->bucket);
	const struct fold_stack *s;
	int ret;

	if (!run_events__keep(r, when - r->tb.bucket_ns, when, count))
		return;
	s = stackfold__stack(r->sf, k, count, when, pi ? pi->comm : NULL,
			     pi ? pi->container : NULL);
	if (s && r->o.filter && !linefilter__keep(r->o.filter, s)) {
		r->filtered += count;
		return;
	}
	ret = s ? sliceout__add(r->out, timebase__slice_of(&r->tb, k->bucket),
				s->line, count)
		: -errno;
	if (!ret)
		ret = sliceout__add_events(
		    r->out, timebase__slice_of(&r->tb, k->bucket), s->line,
		    events);
	if (!ret && r->ro)
		ret = renderout__add(r->ro, k->bucket, s, count);
	if (ret && !r->err)
		r->err = ret;
}

/*
 * One drain tick: the sampler's batch, looked at in order. New keys'
 * processes are learnt and new kernel addresses sent to be named (in one
 * batch) before any key of the batch is named.
 */
int run_tick__drain(struct run *r)
{
	struct sampler_batch b;
	size_t i;
	int ret;

	ret = sampler__drain(r->smp,
			     timebase__done_below(&r->tb, r->now_ns, GUARD_NS),
			     r->final, &b);
	if (ret < 0)
		return ret;
	for (i = 0; i < b.nseen; i++)
		on_seen(r, &b.seen[i]);
	for (i = 0; i < b.nkips; i++)
		symbolizer__kernel_want(r->sym, b.kips[i]);
	for (i = 0; i < b.ntaken; i++)
		on_take(r, &b.taken[i], b.counts[i], b.events[i]);
	sampler__drain_end(r->smp);
	if (r->err)
		return r->err;
	if (r->ro && (ret = renderout__flush(r->ro)))
		return ret;
	return sliceout__flush(r->out,
			       r->now_ns > GUARD_NS ? r->now_ns - GUARD_NS : 0);
}

/*
 * Tail the JIT maps of the live processes, stamped with the time now:
 * JVMs every tick, so entries get tight timestamps; the rest, and whether
 * they gained a JIT map, every full refresh (r->full), while they may
 * have samples waiting to be named (a host has many idle processes).
 */
static void refresh_one(struct pid_info *pi, void *ctx)
{
	struct run *r = ctx;
	uint64_t pending_ns = r->tb.bucket_ns + GUARD_NS + NSEC_PER_SEC;

	/* told to stop, past the grace: the end names with what it has */
	if (stop__hurry())
		return;
	if (pi->gone || !pi->user || (!pi->jit && !r->full))
		return;
	if (!pi->jit && r->now_ns - pi->seen_ns > pending_ns)
		return;
	if (!pi->jit)
		pi->jit = targets__has_jit_map(pi->pid);
	/* an exit is noticed within a second; -p targets are watched by
	 * over() every tick */
	if (symbolizer__refresh(r->sym, pi->pid, r->now_ns) == -ESRCH ||
	    (r->full && !procfs__alive(pi->pid)))
		pi->gone = true;
	else if (r->full) /* after an exec (a script's "exec java") */
		targets__comm(pi->pid, pi->comm);
}

/*
 * Memory of a long run: a process none of whose keys can still be waiting
 * (no new key for a bucket, the guard and EXPIRE_IDLE_NS) is forgotten
 * when it is gone, or when it is idle without a JIT map (its maps are
 * read again if it comes back; a JVM's map is too dear to read again):
 * its symbolizer and interpreter state, its per-process counts (into
 * the totals of forgotten ones), its unwind table if it is gone, and its
 * entry here. JIT lines of
 * code replaced before any sample still waiting are dropped.
 */
#define EXPIRE_IDLE_NS (10 * NSEC_PER_SEC)

static uint64_t expire_wait(const struct run *r)
{
	return r->tb.bucket_ns + GUARD_NS + EXPIRE_IDLE_NS;
}

static bool keep_pid(struct pid_info *pi, void *ctx)
{
	struct run *r = ctx;

	if (r->now_ns - pi->seen_ns <= expire_wait(r))
		return true;
	if (!pi->gone && pi->jit && procfs__alive(pi->pid))
		return true;
	symbolizer__forget(r->sym, pi->pid);
	jstacks__forget(r->jstacks, pi->pid);
	jvms__forget(r->jvms, pi->pid);
	if (r->sf)
		stackfold__forget(r->sf, pi->pid,
				  sampler__unwind_proc_maps(r->smp, pi->pid) >
				      0);
	/* an idle one keeps its rows' table for when it wakes */
	if (pi->gone || !procfs__alive(pi->pid))
		sampler__unwind_forget(r->smp, pi->pid);
	return false;
}

void run_tick__expire(struct run *r)
{
	if (r->now_ns <= expire_wait(r))
		return;
	targets__filter(r->pids, keep_pid, r);
	symbolizer__expire(r->sym, r->now_ns - expire_wait(r));
	/* what was freed lies between live blocks: give its pages back
	 * (a host-wide run's heap was 40% free chunks) */
	if (++r->expiries % 10 == 0)
		malloc_trim(0);
}

/*
 * Native unwind rows of a process with recent samples: reloaded after an
 * exec or when its mappings change (the loader decides, sampler_ctl.h).
 */
static void unwind_one(struct pid_info *pi, void *ctx)
{
	struct run *r = ctx;

	if (pi->gone || !pi->user || r->now_ns - pi->seen_ns > 2 * NSEC_PER_SEC)
		return;
	sampler__unwind_refresh(r->smp, pi->pid, r->now_ns);
}

void run_tick__refresh(struct run *r)
{
	targets__for_each(r->pids, refresh_one, r);
}

void run_tick__unwind(struct run *r)
{
	targets__for_each(r->pids, unwind_one, r);
}
