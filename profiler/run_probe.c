/*
 * run_probe: the probe run, `mixprof -e` (run_probe.h): the agent's
 * probes in one JVM, counted by the agent (--count) or as stacks through
 * its USDT probe.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "common/procfs.h"
#include "attach/probectl.h"
#include "common/stop.h"
#include "pprof/pprof.h"
#include "probes/probe_count.h"
#include "check/hints.h"
#include "probes/probes_run.h"
#include "run.h"
#include "run_child.h"
#include "run_probe.h"
#include "run_report.h"
#include "sampler/sampler_ctl.h"
#include "output/sliceout.h"
#include "stacks/fold.h"
#include "stacks/stackfold.h"
#include "targets.h"

/* -e: how long a JVM may take to show its agent's control socket */
#define PROBE_LAUNCH_MS 10000 /* launched: JVM start to VMInit */
#define PROBE_ATTACH_MS 3000 /* -p: the attach just loaded the agent */

/* While a launched JVM starts: stop waiting when it died or we are told. */
static bool probe_give_up(void *arg)
{
	struct run *r = arg;

	run_child__reap(r);
	return r->child_done || stop__asked() ||
	       (!r->launched && !procfs__alive(r->o.pids[0]));
}

/*
 * The probed JVM is known from the start, not from its first calls'
 * drain tick as on_seen would have it: its JIT map is tailed every tick
 * (else a method compiled meanwhile is named late, [unknown] before) and
 * its interpreter is learnt now (until then each call's frames are kept
 * whole, "pending", and a burst of calls fills the interp map).
 */
static void track_jvm(struct run *r, int pid)
{
	struct pid_info *pi;
	bool added;

	if (r->jvms)
		jvms__seen(r->jvms, pid, nsec__now());
	pi = targets__get(r->pids, pid, &added);
	if (!pi || !added)
		return;
	pi->jit = pi->user = true;
	symbolizer__refresh(r->sym, pid, nsec__now());
	targets__comm(pid, pi->comm);
}

/*
 * A probe run starts the command (held until now), connects to its agent
 * or that of -p, attaches the stack counter to the agent's USDT probe,
 * and only then adds the probes, so no call goes uncounted. From launch
 * the probes wait for their classes (PROBECTL_WAIT).
 */
static int start(struct run *r)
{
	struct probes_run_cfg pc = {
	    .pid = r->launched ? r->child.pid : (int)r->o.pids[0],
	    .patterns = r->o.probes,
	    .nr_patterns = r->o.nr_probes,
	    .stacks = !r->o.count,
	    .wait = r->launched,
	};
	char path[PATH_MAX];
	int ret;

	if (r->launched && (ret = launch__go(&r->child))) {
		fprintf(stderr, "mixprof: cannot run '%s': %s\n", r->o.cmd[0],
			strerror(ret));
		return -ret;
	}
	ret = probes_run__open(&pc,
			       r->launched ? PROBE_LAUNCH_MS : PROBE_ATTACH_MS,
			       probe_give_up, r, &r->pr);
	if (ret == -EINTR && r->child_done)
		fprintf(stderr,
			"mixprof: -e: '%s' (pid %d) ended before its agent "
			"answered (is it the JVM itself?)\n",
			r->o.cmd[0], pc.pid);
	if (ret)
		return ret;
	r->tb.start_ns = nsec__now();
	r->wall_start = time(NULL);
	if (!r->o.count) {
		track_jvm(r, pc.pid);
		ret = probectl__agent_path(pc.pid, path, sizeof(path));
		if (!ret)
			ret = sampler__attach_usdt(
			    r->smp, r->tb.start_ns, pc.pid, path,
			    PROBECTL_USDT_PROVIDER, PROBECTL_USDT_NAME);
		/* no failure recorded: the agent's path was not found */
		if (ret && !sampler__failure(r->smp)->err)
			fprintf(stderr,
				"mixprof: -e: %d: cannot find its libjmap.so: "
				"%s\n",
				pc.pid, strerror(-ret));
		else if (ret)
			hints__report(sampler__failure(r->smp));
		if (ret)
			return ret;
	}
	ret = probes_run__add(r->pr);
	if (ret) /* ends the run; a held JVM goes on when we close */
		return ret;
	/* also the sign, for scripts, that the probes are in place */
	fprintf(stderr, "mixprof: probing %u methods in pid %d%s\n",
		probes_run__sites(r->pr), pc.pid,
		r->launched ? " (and those of classes loaded later)" : "");
	return r->launched ? probes_run__go(r->pr) : 0;
}

/*
 * A probe run counts calls: --count the agent's, stacks the USDT hits
 * (every hit is written, a lost stack under "[lost user stack]"). True
 * when that was all there is to say.
 */
static bool summary(struct run *r, const uint64_t *st, double secs)
{
	struct probe_count *t = probes_run__table(r->pr);

	if (r->o.count) {
		fprintf(stderr,
			"mixprof: %" PRIu64 " calls of %u methods in %.1f s\n",
			probe_count__total(t), probe_count__methods(t), secs);
		return true;
	}
	fprintf(stderr,
		"mixprof: %" PRIu64 " calls in %.1f s (%s), %" PRIu64
		" written%s\n",
		st[STAT_SAMPLES], secs, sampler__event_name(r->smp),
		run_report__written(r), run_report__not_written(r));
	return false; /* the rest as for samples */
}

/* --count as pprof: each method's one-frame line, typed as it is built. */
struct count_line {
	struct pprof_writer *w;
	struct fold_line line;
	struct fold_frame *fr;
	size_t cap;
};

/*
 * One method's calls as a one-frame stack under the process "java": its
 * name as the agent wrote it, a compiled Java frame (fold.c makes it
 * safe, the ';'s of its descriptor as ':').
 */
static int count_line(const char *name, uint64_t count, void *ctx)
{
	static const struct fold_type process = {.kind = FOLD_PROCESS};
	struct count_line *cl = ctx;
	int n;

	fold_line__reset(&cl->line);
	n = fold_line__push_role(&cl->line, "java", &process)
		?: fold_line__push_java(&cl->line, name, FOLD_JIT, 0, -1);
	if (!n)
		n = fold_line__as_frames(&cl->line, &cl->fr, &cl->cap);
	return n < 0 ? n : pprof_writer__add_frames(cl->w, cl->fr, n, count, 0);
}

/* --count as pprof: each probed method a sample, valued in calls. */
static int write_pprof(struct run *r)
{
	struct pprof_meta m = {.type = "calls",
			       .unit = "count",
			       .duration_ns = r->end_ns - r->tb.start_ns,
			       .time_ns =
				   (uint64_t)r->wall_start * NSEC_PER_SEC};
	struct count_line cl = {0};
	int ret = -ENOMEM;

	fold_line__init(&cl.line, true);
	cl.w = pprof_writer__new(&m);
	if (cl.w)
		ret = probe_count__each(probes_run__table(r->pr), count_line,
					&cl);
	ret = ret ?: pprof_writer__write(cl.w, r->table);
	pprof_writer__free(cl.w);
	fold_line__release(&cl.line);
	free(cl.fr);
	return ret;
}

/* --count's table, as text or pprof, to -o or stdout. */
static int write_table(struct run *r)
{
	int ret;

	if (!r->table)
		return 0;
	ret = r->o.format == PROFILE_PPROF
		  ? write_pprof(r)
		  : probe_count__print(probes_run__table(r->pr), r->table,
				       (r->end_ns - r->tb.start_ns) / 1e9);
	if (ret == -EPIPE && r->table == stdout)
		ret = 0; /* its reader left (| head): not a failure */
	if (ret)
		fprintf(stderr, "mixprof: writing %s: %s\n",
			r->o.output ? r->o.output : "stdout", strerror(-ret));
	return ret;
}

/*
 * Every tick, after the drain: a JVM that exits takes its counts along;
 * one we launched waits at exit for this poll, so its last counts and
 * stacks are read while it lives.
 */
static void tick(struct run *r, unsigned int n)
{
	if (!r->o.count && !r->launched)
		return;
	probes_run__poll(r->pr);
	/* not alone: a stopped JVM's agent answers nothing and a request
	 * waits (probectl.h) */
	probes_run__watch(r->pr);
}

/* The last counts, then the agent removes the probes. */
static void stop(struct run *r)
{
	if (r->o.count)
		probes_run__poll(r->pr);
	probes_run__end(r->pr);
}

static void subtitle(const struct run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f s, %" PRIu64 " calls of %s%s",
		 (r->end_ns - r->tb.start_ns) / 1e9, sliceout__total(r->out),
		 r->o.probes[0], r->o.nr_probes > 1 ? ", ..." : "");
}

/* Every stack drained each tick: a call's stack is named while fresh. */
const struct run_mode run_probe_mode = {
    .start = start,
    .tick = tick,
    .stop = stop,
    .write = write_table,
    .summary = summary,
    .subtitle = subtitle,
};
