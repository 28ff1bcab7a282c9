/*
 * run_cpu: the start of a sampling run (run_cpu.h): CPU samples,
 * --off-cpu, --wall or --alloc, on -p targets, a launched command or the
 * whole host.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jvm/hotspot.h"
#include "run.h"
#include "run_child.h"
#include "run_cpu.h"
#include "run_probe.h"
#include "run_setup.h"
#include "sampler/sampler_ctl.h"
#include "stackfold.h"
#include "targets.h"

#define ROWS_WAIT_NS (200 * NSEC_PER_MSEC) /* start-up wait for unwind rows */

/*
 * Host-wide: every running process's unwind rows before sampling starts
 * (the start-up cost: unwind/README.md); later ones on first sight.
 */
static void host_rows(struct run *r)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char *end;
	long pid;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid > INT_MAX || pid == getpid())
			continue;
		sampler__unwind_refresh(r->smp, pid, nsec__now());
	}
	closedir(d);
}

/* The live status line, on a terminal: samples so far, and lost ones. */
void run_cpu__status(struct run *r)
{
	uint64_t st[STAT_NR] = {};

	if (r->status.quiet || !r->status.live || r->pr)
		return;
	sampler__stats(r->smp, st);
	status__tick(&r->status, r->now_ns - r->tb.start_ns, st[STAT_SAMPLES],
		     st[STAT_USER_LOST] + st[STAT_KERN_LOST] +
			 st[STAT_COUNTS_FULL]);
}

/* The start line: what is profiled, how fast, until when. */
static void say_start(struct run *r)
{
	char what[256], comm[16] = "";
	size_t n = 0;

	if (r->o.cmd) {
		n = snprintf(what, sizeof(what), "'");
		for (int i = 0; r->o.cmd[i] && n < sizeof(what); i++)
			n += snprintf(what + n, sizeof(what) - n, "%s%s",
				      i ? " " : "", r->o.cmd[i]);
		if (n < sizeof(what))
			snprintf(what + n, sizeof(what) - n, "' (pid %d)",
				 r->child.pid);
	} else if (r->o.nr_pids == 1) {
		proc_comm(r->o.pids[0], comm);
		snprintf(what, sizeof(what), "%s (pid %u)", *comm ? comm : "?",
			 r->o.pids[0]);
	} else if (r->o.nr_pids) {
		snprintf(what, sizeof(what), "%d processes", r->o.nr_pids);
	} else {
		snprintf(what, sizeof(what), "the whole host (%d CPUs)",
			 r->nr_cpus);
	}
	if (r->o.off_cpu || r->o.alloc)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 r->o.off_cpu ? " off-CPU time" : " allocations");
	status__start(&r->status, what,
		      r->o.off_cpu || r->o.alloc ? 0 : r->o.freq,
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
	if (ret == -ENOENT)
		fprintf(stderr,
			"mixprof: %s: no AllocTracer hooks in its .symtab\n",
			path);
	return ret;
}

int run_cpu__start(struct run *r)
{
	int ret;

	if (r->o.nr_probes)
		return run_probe__start(r);

	if (!r->o.nr_pids && !r->launched)
		host_rows(r);
	/* the rows of running processes before their first sample, but
	 * not at any price: a loaded host takes seconds for libjvm's */
	sampler__unwind_wait(r->smp, ROWS_WAIT_NS);
	/* running JVMs unwound by their tables from the first sample */
	for (int i = 0; i < r->o.nr_pids; i++) {
		char d[512];

		if (stackfold__prepare(r->sf, r->o.pids[i], d, sizeof(d)) > 0 &&
		    r->o.verbose)
			fprintf(stderr, "mixprof: %u: %s\n", r->o.pids[i], d);
	}
	/* time starts when sampling does, not when loading did */
	r->tb.start_ns = nsec__now();
	r->wall_start = time(NULL);
	ret = r->o.alloc ? attach_alloc(r)
			 : sampler__attach(r->smp, r->tb.start_ns);
	if (ret == -ENOENT && r->o.alloc)
		return ret; /* named by attach_alloc */
	if (ret) {
		if (ret == -EPERM || ret == -EACCES)
			run_setup__perm_error("CAP_PERFMON");
		else
			fprintf(stderr,
				"mixprof: cannot attach to perf "
				"events: %s\n",
				strerror(-ret));
		return ret;
	}
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
