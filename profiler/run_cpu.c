/*
 * run_cpu: the start of a sampling run (run_cpu.h): CPU samples,
 * --off-cpu, --wall, --alloc or --lock (run_lock.h), on -p targets, a
 * launched command or the whole host.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/safename.h"
#include "common/stop.h"
#include "check/hints.h"
#include "jvm/hotspot.h"
#include "run.h"
#include "run_child.h"
#include "run_cpu.h"
#include "run_events.h"
#include "run_lock.h"
#include "run_vtwait.h"
#include "run_setup.h"
#include "sampler/sampler_ctl.h"
#include "run_report.h"
#include "output/sliceout.h"
#include "stacks/stackfold.h"
#include "targets.h"

#define ROWS_WAIT_NS (200 * NSEC_PER_MSEC) /* start-up wait for unwind rows */
/* host-wide: the busiest processes (at least HOST_BUSY CPUs' worth over
 * their life) read as JVMs before sampling, as -p's target is */
#define HOST_JVMS 16
#define HOST_BUSY 0.05
/* below (a thousandth of a CPU over its life: sleeping daemons, kernel
 * threads), a process's table waits for its first sample */
#define HOST_IDLE 0.001

struct busy_pid {
	double busy;
	int pid;
};

static int cmp_busy(const void *a, const void *b)
{
	const struct busy_pid *x = a, *y = b;

	return x->busy < y->busy ? 1 : x->busy > y->busy ? -1 : 0;
}

/*
 * Host-wide: the unwind table of every process but the idle ones asked
 * for before sampling starts (the start-up cost: unwind/README.md: a
 * reading of its mappings and of each new file's ELF header); the others
 * on first sight. The busiest first (targets__busy): their samples come first,
 * and the loader takes them in the order asked; a host's hundreds of
 * idle processes take it seconds on a loaded host. A JVM's main thread
 * sleeps, so "running now" alone put two busy JVMs behind them.
 * The busiest are read as JVMs now (jvms__prepare): their first
 * samples walked with their threads' frame anchors, not from the first
 * drain on.
 */
static void host_rows(struct run *r)
{
	DIR *d = opendir("/proc");
	struct busy_pid *v = NULL, *nv;
	size_t n = 0, cap = 0, i;
	struct dirent *e;
	char *end;
	long pid;

	if (!d)
		return;
	while (!stop__asked() && (e = readdir(d))) {
		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid > INT_MAX || pid == getpid())
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break; /* those listed still go first */
			v = nv;
		}
		v[n].pid = pid;
		v[n++].busy = targets__busy(pid);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_busy);
	for (i = 0; i < n && v[i].busy >= HOST_IDLE && !stop__asked(); i++)
		sampler__unwind_refresh(r->smp, v[i].pid, nsec__now());
	for (i = 0; r->jvms && i < n && i < HOST_JVMS && !stop__asked() &&
		    v[i].busy >= HOST_BUSY;
	     i++)
		jvms__prepare(r->jvms, v[i].pid);
	free(v);
}

/* The live status line, on a terminal: samples so far, and lost ones. */
static void show_status(struct run *r)
{
	uint64_t st[STAT_NR] = {};

	if (r->status.quiet || !r->status.live)
		return;
	sampler__stats(r->smp, st);
	status__tick(&r->status, r->now_ns - r->tb.start_ns, st[STAT_SAMPLES],
		     st[STAT_USER_LOST] + st[STAT_KERN_LOST] +
			 st[STAT_COUNTS_FULL]);
}

/* The start line: what is profiled, how fast, until when. */
static void say_start(struct run *r)
{
	char what[256], comm[PROCFS_COMM_SHOW];
	size_t n = 0;

	/* the command and a process's comm may hold anything: made safe */
	if (r->o.cmd) {
		n = snprintf(what, sizeof(what), "'");
		n += run_report__cmdline(r->o.cmd, what + n, sizeof(what) - n);
		snprintf(what + n, sizeof(what) - n, "' (pid %d)",
			 r->child.pid);
	} else if (r->o.nr_pids == 1) {
		procfs__comm_show(r->o.pids[0], comm);
		snprintf(what, sizeof(what), "%s (pid %u)", *comm ? comm : "?",
			 r->o.pids[0]);
	} else if (r->o.nr_pids) {
		snprintf(what, sizeof(what), "%d processes", r->o.nr_pids);
	} else {
		snprintf(what, sizeof(what), "the whole host (%d CPUs)",
			 r->nr_cpus);
	}
	if (r->o.off_cpu || r->o.alloc || r->o.lock)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 r->o.off_cpu ? " off-CPU time"
			 : r->o.alloc ? " allocations"
				      : " lock waits");
	status__start(&r->status, what,
		      r->o.off_cpu || r->o.alloc || r->o.lock ? 0 : r->o.freq,
		      r->o.duration_ns, r->o.cmd || r->o.nr_pids);
}

/* --alloc: uprobes on the JVM's own libjvm.so, as its mount sees it. */
static int attach_alloc(struct run *r)
{
	char path[4096], lib[4200];
	uint32_t pid = r->o.pids[0];
	int ret = hotspot__libjvm(pid, path, sizeof(path));

	if (ret) {
		fprintf(stderr,
			"mixprof: %u: no libjvm.so mapped (not a "
			"HotSpot JVM?)\n",
			pid);
		return -ENOENT;
	}
	snprintf(lib, sizeof(lib), "/proc/%u/root%s", pid, path);
	ret = sampler__attach_alloc(r->smp, r->tb.start_ns, pid, lib);
	if (ret == -ENOENT) /* the path is the target's to choose */
		fprintf(stderr,
			"mixprof: %s: no AllocTracer hooks in its .symtab\n",
			safename__show(lib, sizeof(lib), path));
	return ret;
}

static int start(struct run *r)
{
	int ret;

	if (!r->o.nr_pids && !r->launched)
		host_rows(r);
	/* the rows of running processes before their first sample, but
	 * not at any price: a loaded host takes seconds for libjvm's */
	sampler__unwind_wait(r->smp, ROWS_WAIT_NS);
	/* running JVMs unwound by their tables from the first sample */
	for (int i = 0; r->jvms && i < r->o.nr_pids; i++) {
		char d[768];
		uint32_t pid = r->o.pids[i];

		jvms__prepare(r->jvms, pid);
		if (jvms__describe(r->jvms, pid, d, sizeof(d)) > 0 &&
		    r->o.verbose)
			fprintf(stderr, "mixprof: %u: %s\n", r->o.pids[i], d);
	}
	/* time starts when sampling does, not when loading did */
	r->tb.start_ns = nsec__now();
	r->wall_start = time(NULL);
	/* the first second's share in the summary: rows on demand's test */
	stackfold__first_until(r->sf, r->tb.start_ns + NSEC_PER_SEC);
	ret = r->o.alloc  ? attach_alloc(r)
	      : r->o.lock ? run_lock__start(r)
			  : sampler__attach(r->smp, r->tb.start_ns);
	if ((ret == -ENOENT && r->o.alloc) || (ret && r->o.lock))
		return ret; /* named by attach_alloc, run_lock */
	if (ret) {
		hints__report(sampler__failure(r->smp));
		return ret;
	}
	if (r->o.verbose && sampler__fallback(r->smp))
		fprintf(stderr, "mixprof: %s\n", sampler__fallback(r->smp));
	ret = run_events__start(r);
	if (ret)
		return ret;
	say_start(r);
	if (!r->launched)
		return 0;
	ret = launch__go(&r->child);
	if (ret) {
		fprintf(stderr, "mixprof: cannot run '%s': %s\n", r->o.cmd[0],
			strerror(ret));
		return -ret;
	}
	run_child__rows(r);
	return 0;
}

/* Which switches out count as off-CPU time. */
static const char *offcpu_states(const struct run *r)
{
	if (r->o.wall)
		return "on-CPU samples of 1 s / -F, off-CPU blocked and "
		       "preempted";
	return r->o.off_cpu_preempt ? "blocked and preempted"
				    : "blocked only, not preempted";
}

/* --off-cpu: the counts are microseconds, from switches, not samples. */
static void offcpu_summary(struct run *r, const uint64_t *st, double secs)
{
	fprintf(stderr,
		"mixprof: %" PRIu64 " %s in %.1f s (%s, %s), %.3f s %s "
		"written; counts are microseconds of %s time\n",
		st[STAT_SAMPLES],
		r->o.wall ? "samples and switches out" : "switches out", secs,
		sampler__event_name(r->smp), offcpu_states(r),
		sliceout__total(r->out) / 1e6,
		r->o.wall ? "of thread time" : "off-CPU",
		r->o.wall ? "wall-clock" : "off-CPU");
	fprintf(stderr, "mixprof:   (below, a \"sample\" is a microsecond)\n");
	fprintf(stderr,
		"mixprof:   %" PRIu64 " waits still open at the end, counted "
		"up to it\n",
		r->open_waits);
	if (st[STAT_VT_WAITS])
		fprintf(stderr,
			"mixprof:   %" PRIu64 " virtual threads' waits counted "
			"(unmounted, from freeze to mount, under the stack "
			"they froze)\n",
			st[STAT_VT_WAITS]);
	if (r->o.min_block_ns || r->o.max_block_ns)
		fprintf(stderr,
			"mixprof:   blocks of %" PRIu64 " us to %s%" PRIu64
			" us only\n",
			r->o.min_block_ns / 1000,
			r->o.max_block_ns ? "" : "(no bound) ",
			r->o.max_block_ns / 1000);
}

/* The summary's first line: what was counted, how much was written. */
static bool summary(struct run *r, const uint64_t *st, double secs)
{
	if (r->o.lock)
		run_lock__summary(r, st, secs);
	else if (r->o.alloc) {
		fprintf(stderr,
			"mixprof: %" PRIu64 " allocation hook hits in %.1f s "
			"(new TLABs and allocations outside them), %.1f MB "
			"written; counts are bytes\n",
			st[STAT_SAMPLES], secs, sliceout__total(r->out) / 1e6);
		fprintf(stderr, "mixprof:   (below, a \"sample\" is a byte)\n");
	} else if (r->o.off_cpu || r->o.wall)
		offcpu_summary(r, st, secs);
	else
		fprintf(stderr,
			"mixprof: %" PRIu64 " samples in %.1f s (%s, %" PRIu64
			" Hz, %d CPUs), %" PRIu64 " written%s\n",
			st[STAT_SAMPLES], secs, sampler__event_name(r->smp),
			r->o.freq, r->nr_cpus, run_report__written(r),
			run_report__not_written(r));
	return false; /* the rest of the summary applies */
}

static void subtitle(const struct run *r, char *buf, size_t len)
{
	double secs = (r->end_ns - r->tb.start_ns) / 1e9;

	if (r->o.off_cpu || r->o.wall)
		snprintf(buf, len, "%.1f s, %.1f ms %s (%s)", secs,
			 sliceout__total(r->out) / 1e3,
			 r->o.wall ? "of thread time" : "off-CPU",
			 offcpu_states(r));
	else if (r->o.lock)
		snprintf(buf, len, "%.1f s, %.1f ms waited for locks", secs,
			 sliceout__total(r->out) / 1e6);
	else
		snprintf(buf, len,
			 "%.1f s at %" PRIu64 " Hz, %" PRIu64 " samples", secs,
			 r->o.freq, sliceout__total(r->out));
}

/* The live status line about once a second. */
/* every tick: status__tick keeps to one line a second by the clock, as
 * ticks stretch when the drain is slow (a host-wide start: cli_habits
 * saw no line in a 4 s run) */
static void tick(struct run *r, unsigned int n)
{
	(void)n;
	show_status(r);
	if (r->o.lock && !r->err)
		r->err = run_lock__tick(r);
	if ((r->o.off_cpu || r->o.wall) && !r->err)
		r->err = run_vtwait__tick(r);
}

const struct run_mode run_cpu_mode = {
    .start = start,
    .tick = tick,
    .summary = summary,
    .subtitle = subtitle,
};
