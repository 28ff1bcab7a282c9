/*
 * run_setup: what a run sets up before it starts (run_setup.h): checks
 * privileges and -p targets, raises the stack depth, loads the BPF
 * sampler, builds the naming path, opens the outputs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/safefile.h"
#include "containers.h"
#include "check/hints.h"
#include "jfr/jfr.h"
#include "pprof/pprof.h"
#include "output/render_out.h"
#include "run.h"
#include "run_setup.h"
#include "sampler/ksymbpf.h"
#include "sampler/maxstack.h"
#include "sampler/sampler_ctl.h"
#include "output/sliceout.h"
#include "stacks/stackfold.h"
#include "targets.h"

/* what an --off-cpu count is, in graphs and tooltips */
#define OFFCPU_COUNTNAME "us off-CPU"
#define WALL_COUNTNAME "us wall"
#define LOCK_COUNTNAME "ns waited for locks"

/* Every -p target must exist; a thread id stands for its process. */
int run_setup__pids(struct run *r)
{
	int i, tgid;

	for (i = 0; i < r->o.nr_pids; i++) {
		tgid = procfs__tgid(r->o.pids[i]);
		if (tgid <= 0 || !procfs__alive(tgid)) {
			fprintf(stderr, "mixprof: no process %u\n",
				r->o.pids[i]);
			return -ESRCH;
		}
		r->o.pids[i] = tgid;
	}
	return 0;
}

void run_setup__depth(const struct run *r)
{
	int cur;

	/* the default depth is for user stacks: kernel ones deeper than
	 * the kernel's 127 are rare, not worth a line on every run */
	if (!r->o.stack_depth_set || r->o.user_only)
		return;
	cur = maxstack__get();
	if (cur >= 0 && (uint32_t)cur < r->o.stack_depth)
		fprintf(stderr,
			"mixprof: kernel stacks are cut at %d frames "
			"(kernel.perf_event_max_stack, which mixprof leaves "
			"as it is); user stacks at %u\n",
			cur, r->o.stack_depth);
}

/*
 * Room for every key alive at once when every sample is a new stack: a
 * bucket, the guard and a drain period of samples from every CPU. The drain
 * reads the whole map each tick, so it is not bigger than that.
 */
static uint32_t auto_counts_size(const struct run *r)
{
	uint64_t alive_ns =
	    r->tb.bucket_ns + GUARD_NS + (DRAIN_MS + TICK_MS) * NSEC_PER_MSEC;
	uint64_t keys = timebase__samples_in(r->o.freq, r->nr_cpus, alive_ns);
	uint32_t size = 4096;

	while (size < keys && size < (1U << 24))
		size <<= 1;
	return size;
}

/*
 * MIXPROF_UNWIND (a debug switch): "fp" walks JVMs by frame pointers
 * only, "check" walks each JVM sample both ways and counts agreement;
 * unset or "hotspot", the HotSpot unwinder. -EINVAL for anything else.
 */
static int unwind_mode(uint32_t *mode)
{
	const char *e = getenv("MIXPROF_UNWIND");

	if (!e || !strcmp(e, "hotspot"))
		*mode = UNWIND_MODE_HOTSPOT;
	else if (!strcmp(e, "fp"))
		*mode = UNWIND_MODE_FP;
	else if (!strcmp(e, "check"))
		*mode = UNWIND_MODE_CHECK;
	else
		return -EINVAL;
	return 0;
}

int run_setup__bpf(struct run *r)
{
	struct sampler_cfg cfg = {
	    .freq = r->o.freq,
	    .bucket_ns = r->tb.bucket_ns,
	    .counts_size =
		r->o.counts_size ? r->o.counts_size : auto_counts_size(r),
	    .depth = r->o.stack_depth,
	    .filter_pids = r->o.nr_pids || r->o.cmd,
	    .per_thread = r->o.per_thread,
	    .user = !r->o.kernel_only,
	    .kernel = !r->o.user_only,
	    .no_hotspot = getenv("MIXPROF_NO_INTERP") != NULL,
	    .rows_verify = getenv("MIXPROF_ROWS_VERIFY") != NULL,
	    .usdt = r->o.nr_probes > 0,
	    .off_cpu = r->o.off_cpu,
	    .off_cpu_preempt = r->o.off_cpu_preempt,
	    .wall = r->o.wall,
	    .alloc = r->o.alloc,
	    .lock = r->o.lock,
	    .min_block_ns = r->o.min_block_ns,
	    .max_block_ns = r->o.max_block_ns,
	    .cpus = r->cpus,
	    .nr_cpus = r->nr_cpus,
	};
	struct sampler_fail fail;
	char caps[64];
	int i, ret;

	if (unwind_mode(&cfg.unwind_mode)) {
		fprintf(stderr,
			"mixprof: MIXPROF_UNWIND=%s: not fp, hotspot "
			"or check\n",
			getenv("MIXPROF_UNWIND"));
		return -EINVAL;
	}
	r->unwind_mode = cfg.unwind_mode;
	r->smp = sampler__new(&cfg, &fail);
	if (!r->smp) {
		ret = -errno;
		/* with the capabilities, EACCES is the verifier saying no */
		if ((ret == -EPERM || ret == -EACCES) &&
		    hints__missing_caps(caps, sizeof(caps)))
			hints__perm_error(caps);
		else
			hints__report(&fail);
		return ret;
	}
	for (i = 0; i < r->o.nr_pids; i++) {
		ret = sampler__add_target(r->smp, r->o.pids[i]);
		if (ret)
			return ret;
		/* rows before the first sample; failure: frame pointers */
		sampler__unwind_target(r->smp, r->o.pids[i]);
	}
	/* host-wide, mixprof is in the profile too, busiest in its first
	 * second (tables, rows): its own files' rows early, as a target's */
	if (!cfg.filter_pids)
		sampler__unwind_target(r->smp, (uint32_t)getpid());
	return 0;
}

/*
 * Kernel frames named by the kernel, the addresses seen only, rather than
 * from all of /proc/kallsyms; without the program, from /proc/kallsyms.
 */
static void kernel_names(struct run *r)
{
	if (getenv("MIXPROF_KALLSYMS")) /* tests: the other way */
		return;
	r->ksym = ksymbpf__new();
	if (!r->ksym) {
		if (r->o.verbose)
			fprintf(stderr,
				"mixprof: kernel names from /proc/kallsyms: "
				"%s\n",
				strerror(errno));
		return;
	}
	symbolizer__kernel_source(
	    r->sym, &(struct ksym_source){ksymbpf__names, r->ksym});
}

int run_setup__naming(struct run *r)
{
	struct stackfold_cfg fc = {
	    .user = !r->o.kernel_only,
	    .kernel = !r->o.user_only,
	    .delimit = r->o.delimit,
	    .per_thread = r->o.per_thread,
	    .annotate = r->o.annotate,
	    .depth = r->o.stack_depth,
	    .no_hotspot = getenv("MIXPROF_NO_INTERP") != NULL,
	    .probe_leaf = r->o.nr_probes > 0,
	    .lines = r->o.lines,
	    /* JFR's frames have a bytecode index (pprof's Lines have none) */
	    .bci = r->o.format == PROFILE_JFR,
	    .check_names = getenv("MIXPROF_NAMES_CHECK") != NULL,
	};
	struct stacksrc src;

	stacksrc__sampler(&src, r->smp);
	r->sym = symbolizer__new(NULL);
	r->pids = targets__new();
	if (fc.user && !fc.no_hotspot) {
		r->jvms = jvms__new(&src, NULL, fc.lines ? JVMS_LINES : 0);
		r->jstacks = r->jvms ? jstacks__new(&src, r->jvms) : NULL;
	}
	r->sf = r->sym ? stackfold__new(&fc, &src, r->sym, r->jstacks) : NULL;
	if (!r->sym || !r->pids || !r->sf ||
	    (fc.user && !fc.no_hotspot && !r->jstacks)) {
		fprintf(stderr, "mixprof: %s\n", strerror(errno));
		return -ENOMEM;
	}
	if (fc.kernel)
		kernel_names(r);
	return 0;
}

/* The renderers' output files exist (and the paths work) before the run. */
static int setup_render(struct run *r)
{
	struct render_cfg rc = {
	    .svg = r->o.svg,
	    .html = r->o.html,
	    .heatmap = r->o.heatmap,
	    .montage = r->o.montage,
	    .countname = r->o.off_cpu ? OFFCPU_COUNTNAME
			 : r->o.wall  ? WALL_COUNTNAME
			 : r->o.alloc ? "bytes"
			 : r->o.lock  ? LOCK_COUNTNAME
				      : NULL,
	    .blue = r->o.off_cpu,
	    .red = r->o.lock,
	    .events = r->o.events,
	};

	if (!rc.svg && !rc.html && !rc.heatmap && !rc.montage)
		return 0;
	r->ro = renderout__new(&rc, &r->tb);
	return r->ro ? 0 : -errno;
}

/* --count's table goes to -o or stdout; the file exists before the run. */
static int setup_table(struct run *r)
{
	if (!r->o.count)
		return 0;
	r->table = r->o.output ? safefile__fcreate(r->o.output) : stdout;
	if (!r->table) {
		fprintf(stderr, "mixprof: %s: %s\n", r->o.output,
			safefile__strerror(errno));
		return -errno;
	}
	return 0;
}

/* pprof's cgroup label: the path a container id was first seen under. */
static const char *cgroup_of(void *ctx, const char *id)
{
	return containers__path(ctx, id);
}

/* pprof files: what a count is, and for CPU samples their period. */
static void setup_pprof(struct run *r)
{
	struct pprof_meta m = {
	    .type = r->o.nr_probes ? "calls"
		    : r->o.off_cpu ? "off_cpu"
		    : r->o.wall	   ? "wall"
		    : r->o.alloc   ? "alloc_space"
		    : r->o.lock	   ? "lock"
				   : "samples",
	    .unit = r->o.alloc			? "bytes"
		    : r->o.off_cpu || r->o.wall ? "microseconds"
		    : r->o.lock			? "nanoseconds"
						: "count",
	    .period_ns = r->o.nr_probes || r->o.off_cpu || r->o.wall ||
				 r->o.alloc || r->o.lock
			     ? 0
			     : NSEC_PER_SEC / r->o.freq,
	    /* hook hits: a new TLAB or an allocation outside one each;
	     * waits (a wait that parks again is two) */
	    .events_type = r->o.alloc  ? "alloc_objects"
			   : r->o.lock ? "contentions"
				       : NULL,
	    .events_unit = "count",
	    .per_thread = r->o.per_thread,
	    .per_container = r->o.per_container,
	    .cgroup_of = cgroup_of,
	    .cgroup_ctx = r->ct,
	};

	sliceout__pprof(r->out, &m);
}

/* JFR files: the events that fit what a count is (jfr/jfr.h). */
static void setup_jfr(struct run *r)
{
	struct jfr_meta m = {
	    .kind = r->o.nr_probes ? JFR_CALLS
		    : r->o.off_cpu ? JFR_OFF_CPU
		    : r->o.wall	   ? JFR_WALL
		    : r->o.alloc   ? JFR_ALLOC
				   : JFR_CPU,
	};

	sliceout__jfr(r->out, &m);
}

int run_setup__outputs(struct run *r)
{
	r->tb.bucket_ns = r->o.bucket_ns;
	r->tb.slice_ns = r->o.slice_ns;
	r->out = (r->o.output || r->o.folded_stdout) && !r->o.count
		     ? sliceout__new(&r->tb, r->o.output)
		     : sliceout__new_discard(&r->tb);
	if (!r->out) {
		int err = errno;

		fprintf(stderr, "mixprof: %s: %s\n", r->o.output,
			safefile__strerror(err));
		return -err;
	}
	/* folded text for flamegraph.pl; a montage's slices are our own
	 * graphs' input, which colour the tiers */
	if (r->o.annotate && !r->o.tiers && !r->o.montage)
		sliceout__untier(r->out);
	/* before pprof's meta, which names the table */
	if (r->o.per_container && !(r->ct = containers__new())) {
		fprintf(stderr, "mixprof: %s\n", strerror(errno));
		return -ENOMEM;
	}
	if (r->o.format == PROFILE_PPROF)
		setup_pprof(r);
	else if (r->o.format == PROFILE_JFR)
		setup_jfr(r);
	else if (r->o.folded_stdout && !r->o.nr_probes && isatty(STDOUT_FILENO))
		sliceout__top(r->out, r->o.per_thread); /* a table, not text */
	status__init(&r->status, stderr, r->o.quiet, isatty(STDERR_FILENO));
	if (setup_render(r) || setup_table(r))
		return -EIO; /* reported */
	return 0;
}
