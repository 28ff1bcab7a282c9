/*
 * run: the state of one profile command run, shared by the modules that
 * carry it out (profile.c drives them):
 *   run_setup   privileges, -p targets, stack depth, BPF, naming, outputs
 *   run_child   the launched command: fork, hold, reap, its exit status
 *   run_cpu     a sampling run's start (CPU, --off-cpu, --wall, --alloc,
 *               --lock)
 *   run_lock    --lock's JVM and probes
 *   run_probe   a probe run's start (-e), its --count table and summary
 *   run_tick    what a tick does: drain, tail JIT maps, expire, unwind rows
 *   run_report  the end: the summary on stderr, the graphs' titles
 *   run_events  --events: HotSpot's own events beside any run
 * Not a library: one struct run lives in profile__cmd for the whole run,
 * and each module reads and writes the fields its job names.
 */
#ifndef MIXPROF_RUN_H
#define MIXPROF_RUN_H

#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "common/nsec.h"
#include "launch.h"
#include "profile_opts.h"
#include "output/timebase.h"
#include "status.h"

#define TICK_MS 100
/*
 * The drain runs this often, between ticks too: it learns the keys new
 * since the last one (a ring buffer: no system call when there are none)
 * and names their interpreted and compiled frames' methods from the JVM's
 * memory while their classes are alive. Under class churn a hidden class
 * (a method handle's lambda form) lives a fraction of a second and its
 * name's Symbol is freed and reused soon after it is unloaded: drained
 * every 200 ms, 9-25% of a 150 ms-phase churn's samples kept an unnamed
 * frame; every 25 ms, about 1%. The counts map is read whole only when a
 * bucket is done, whatever this period.
 */
#define DRAIN_MS 25
/* a launched JVM starting is looked at this often (run_child.h) */
#define EARLY_MS 10
/*
 * How long after a bucket ends its keys are drained and named. 50 ms
 * would be enough for the counts (no BPF program can still hit an ended
 * bucket), but HotSpot writes a method's map line from a service thread
 * after the code is already running, and on a busy machine that thread
 * lags by hundreds of milliseconds: naming earlier leaves fresh JIT code
 * "[unknown]". The samples wait in the kernel map meanwhile.
 */
#define GUARD_NS (1000 * NSEC_PER_MSEC)

struct run;

/*
 * What a sampling run (run_cpu.h) and a probe run (run_probe.h) do
 * differently, so that the loop, the end and the summary never ask which
 * one this is. A NULL hook does nothing.
 */
struct run_mode {
	/* after setup: 0 or a negative errno, reported */
	int (*start)(struct run *r);
	/* every tick, after its drain; tick counts from 1 */
	void (*tick)(struct run *r, unsigned int tick);
	/* at the end, after the detach, before the last drain */
	void (*stop)(struct run *r);
	/* after the folded output and graphs: 0 or a negative errno, reported */
	int (*write)(struct run *r);
	/* the summary's first line; true when there is no more to say */
	bool (*summary)(struct run *r, const uint64_t *st, double secs);
	/* the graphs' subtitle after the start time, into buf */
	void (*subtitle)(const struct run *r, char *buf, size_t len);
};

struct run {
	const struct run_mode *mode; /* run_cpu_mode or run_probe_mode */
	struct profile_opts o;
	struct timebase tb;
	int *cpus, nr_cpus;
	struct sampler *smp;
	struct symbolizer *sym;
	struct ksymbpf *ksym; /* kernel names from the kernel, or NULL */
	struct jvms *jvms; /* JVMs learnt and given to BPF; or NULL */
	struct jstacks *jstacks; /* their Java frames named; or NULL */
	struct stackfold *sf;
	struct targets *pids;
	struct pidwatch *watch; /* the -p targets, alive or not */
	struct containers *ct; /* --per-container, else NULL */
	struct sliceout *out;
	struct renderout *ro; /* --svg, --html, --heatmap, --montage */
	bool render_failed; /* a graph could not be written (reported) */
	uint64_t out_lines; /* distinct lines held before the end's write */
	struct mallinfo2 heap; /* then (-v) */
	unsigned int expiries; /* run_tick__expire() passes, for malloc_trim */
	struct probes_run *pr; /* -e: the agent's probes */
	struct runev *ev; /* --events (run_events.h), or NULL */
	struct locknames *locks; /* --lock (run_lock.h), or NULL */
	bool lock_attached; /* its probes are in */
	uint64_t lock_retry_ns; /* when to read the JVM's lock view, or
				 * j.u.c.'s class, again */
	const char *lock_why; /* what of it could not be read, */
	int lock_err; /* and why (a negative errno) */
	struct vtwaits *vtw; /* --off-cpu, --wall: virtual threads' probes
			      * (run_vtwait.h), or NULL */
	FILE *table; /* -e --count: where the table goes */
	time_t wall_start; /* for the graphs' subtitle */
	struct launch child;
	bool launched, child_done;
	bool child_early; /* still to be read as a JVM: run_child__identify */
	int child_status;
	struct rusage child_ru; /* its CPU times, once done */
	uint32_t unwind_mode; /* enum unwind_mode */
	uint64_t now_ns, end_ns;
	uint64_t open_waits; /* off-CPU: waits still open at the end */
	bool final;
	bool full; /* refresh every process, not only JVMs */
	int err; /* first drain/write error */
	uint64_t filtered; /* samples -I/-X/--tid/--thread left out */
	struct status status; /* start line, live status line */
	sigset_t old_mask;
};

#endif
