/*
 * profile: the profile command. Sets the run up (privileges, stack depth,
 * BPF, the launched command or the -p targets), then ticks: every
 * TICK_MS it tails the JIT maps and checks whether the run is over, and
 * every DRAIN_TICKS it drains finished time buckets from the kernel into
 * folded lines. At the
 * end it detaches first, drains everything, writes, and sums up.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <limits.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "attach/agentpath.h"
#include "common/safefile.h"
#include "sampler/cpus.h"
#include "jvm/hotspot.h"
#include "jvmkids.h"
#include "jvmprep.h"
#include "sampler/ksymbpf.h"
#include "launch.h"
#include "linefilter.h"
#include "sampler/maxstack.h"
#include "attach/probectl.h"
#include "probes_run.h"
#include "pprof/pprof.h"
#include "profile.h"
#include "profile_opts.h"
#include "render_out.h"
#include "sampler/sampler_ctl.h"
#include "unwind/loader.h"
#include "sliceout.h"
#include "stackfold.h"
#include "status.h"
#include "targets.h"

/* what an --off-cpu count is, in graphs and tooltips */
#define OFFCPU_COUNTNAME "us off-CPU"
#define WALL_COUNTNAME "us wall"
#define TICK_MS 100
#define ROWS_WAIT_NS 200000000ULL /* start-up wait for unwind rows */
#define DRAIN_TICKS 2 /* a profile reads the counts every other tick */
/*
 * How long after a bucket ends its keys are drained and named. 50 ms
 * would be enough for the counts (no BPF program can still hit an ended
 * bucket), but HotSpot writes a method's map line from a service thread
 * after the code is already running, and on a busy machine that thread
 * lags by hundreds of milliseconds: naming earlier leaves fresh JIT code
 * "[unknown]". The samples wait in the kernel map meanwhile.
 */
#define GUARD_NS (1000 * 1000000ULL)
/* -e: how long a JVM may take to show its agent's control socket */
#define PROBE_LAUNCH_MS 10000 /* launched: JVM start to VMInit */
#define PROBE_ATTACH_MS 3000 /* -p: the attach just loaded the agent */

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

struct run {
	struct profile_opts o;
	struct timebase tb;
	int *cpus, nr_cpus;
	struct sampler *smp;
	struct symbolizer *sym;
	struct ksymbpf *ksym; /* kernel names from the kernel, or NULL */
	struct interp *interp; /* JVMs learnt, Java frames named; or NULL */
	struct stackfold *sf;
	struct pidset *pids;
	struct sliceout *out;
	struct renderout *ro; /* --svg, --html, --heatmap, --montage */
	bool render_failed; /* a graph could not be written (reported) */
	uint64_t out_lines; /* distinct lines held before the end's write */
	struct mallinfo2 heap; /* then (-v) */
	unsigned int expiries; /* expire() passes, for malloc_trim */
	struct probes_run *pr; /* -e: the agent's probes */
	FILE *table; /* -e --count: where the table goes */
	time_t wall_start; /* for the graphs' subtitle */
	struct launch child;
	bool launched, child_done;
	int child_status;
	int old_maxstack;
	uint32_t unwind_mode; /* enum unwind_mode */
	uint64_t now_ns, end_ns;
	bool final;
	bool full; /* refresh every process, not only JVMs */
	int err; /* first drain/write error */
	uint64_t filtered; /* samples -I/-X/--tid/--thread left out */
	struct status status; /* start line, live status line */
	sigset_t old_mask;
};

static bool verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	return verbose ? vfprintf(stderr, fmt, args) : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Name the capabilities we lack into buf; 0 when none are missing. */
static int missing_caps(char *buf, size_t len)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {};
	bool bpf, perfmon;

	if (syscall(SYS_capget, &h, d))
		return 0; /* cannot tell: let the kernel decide */
#define HAS(c) (d[(c) / 32].effective & (1U << ((c) % 32)))
	if (HAS(CAP_SYS_ADMIN))
		return 0;
	bpf = HAS(CAP_BPF);
	perfmon = HAS(CAP_PERFMON);
#undef HAS
	if (bpf && perfmon)
		return 0;
	snprintf(buf, len, "%s%s%s", bpf ? "" : "CAP_BPF",
		 !bpf && !perfmon ? " and " : "", perfmon ? "" : "CAP_PERFMON");
	return -EPERM;
}

static void perm_error(const char *caps)
{
	fprintf(stderr,
		"mixprof: permission denied: needs %s (run as root, "
		"or grant CAP_BPF and CAP_PERFMON)\n",
		caps);
}

/* ---- the drain ---------------------------------------------------------- */

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
	if (k->user_stack != STACK_NONE && r->interp)
		interp__seen(r->interp, k, r->now_ns);
	pi = pidset__get(r->pids, k->pid, &added);
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
		proc_comm(k->pid, pi->comm);
	if (!pi->user)
		return;
	/*
	 * Tail a JVM's map every tick from the first sight, not from the next
	 * full refresh: lines read in one late refresh share one lower time
	 * bound, and a whole second of them (code freed and reused meanwhile)
	 * would all look older than the samples. With -p or a command the
	 * few processes are all tailed; host-wide, those with a map so far.
	 */
	pi->jit = r->launched || r->o.nr_pids || proc_has_jit_map(k->pid);
	symbolizer__refresh(r->sym, k->pid, r->now_ns);
}

/* A key of a finished bucket: its folded line to the outputs. */
static void on_take(struct run *r, const struct sample_key *k, uint64_t count)
{
	struct pid_info *pi = pidset__find(r->pids, k->pid);
	uint64_t when = timebase__bucket_end(&r->tb, k->bucket);
	const char *line;
	int ret;

	line = stackfold__line(r->sf, k, count, when, pi ? pi->comm : NULL);
	if (line && r->o.filter &&
	    !linefilter__keep(r->o.filter, line, r->o.per_thread)) {
		r->filtered += count;
		return;
	}
	ret = line
		  ? sliceout__add(r->out, timebase__slice_of(&r->tb, k->bucket),
				  line, count)
		  : -errno;
	if (!ret && r->ro)
		ret = renderout__add(r->ro, k->bucket, line, count);
	if (ret && !r->err)
		r->err = ret;
}

/*
 * One drain tick: the sampler's batch, looked at in order. New keys'
 * processes are learnt and new kernel addresses sent to be named (in one
 * batch) before any key of the batch is named.
 */
static int drain(struct run *r)
{
	struct sampler_batch b;
	size_t i;
	int ret;

	ret = sampler__drain(
	    r->smp, timebase__done_below(&r->tb, r->now_ns, GUARD_NS), r->final,
	    &b);
	if (ret < 0)
		return ret;
	for (i = 0; i < b.nseen; i++)
		on_seen(r, &b.seen[i]);
	for (i = 0; i < b.nkips; i++)
		symbolizer__kernel_want(r->sym, b.kips[i]);
	for (i = 0; i < b.ntaken; i++)
		on_take(r, &b.taken[i], b.counts[i]);
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
	uint64_t pending_ns = r->tb.bucket_ns + GUARD_NS + 1000000000ULL;

	if (pi->gone || !pi->user || (!pi->jit && !r->full))
		return;
	if (!pi->jit && r->now_ns - pi->seen_ns > pending_ns)
		return;
	if (!pi->jit)
		pi->jit = proc_has_jit_map(pi->pid);
	/* an exit is noticed within a second; -p targets are watched by
	 * over() every tick */
	if (symbolizer__refresh(r->sym, pi->pid, r->now_ns) == -ESRCH ||
	    (r->full && !proc_alive(pi->pid)))
		pi->gone = true;
	else if (r->full) /* after an exec (a script's "exec java") */
		proc_comm(pi->pid, pi->comm);
}

/*
 * Memory of a long run: a process none of whose keys can still be waiting
 * (no new key for a bucket, the guard and EXPIRE_IDLE_NS) is forgotten
 * when it is gone, or when it is idle without a JIT map (its maps are
 * read again if it comes back; a JVM's map is too dear to read again):
 * its symbolizer and interpreter state and its entry here. JIT lines of
 * code replaced before any sample still waiting are dropped.
 */
#define EXPIRE_IDLE_NS (10 * 1000000000ULL)

static uint64_t expire_wait(const struct run *r)
{
	return r->tb.bucket_ns + GUARD_NS + EXPIRE_IDLE_NS;
}

static bool keep_pid(struct pid_info *pi, void *ctx)
{
	struct run *r = ctx;

	if (r->now_ns - pi->seen_ns <= expire_wait(r))
		return true;
	if (!pi->gone && pi->jit && proc_alive(pi->pid))
		return true;
	symbolizer__forget(r->sym, pi->pid);
	interp__forget(r->interp, pi->pid);
	return false;
}

static void expire(struct run *r)
{
	if (r->now_ns <= expire_wait(r))
		return;
	pidset__filter(r->pids, keep_pid, r);
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

	if (pi->gone || !pi->user || r->now_ns - pi->seen_ns > 2000000000ULL)
		return;
	sampler__unwind_refresh(r->smp, pi->pid, r->now_ns);
}

static void reap_child(struct run *r);

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
		sampler__unwind_refresh(r->smp, pid, now_ns());
	}
	closedir(d);
}

/*
 * The launched command's unwind rows while its dynamic loader maps its
 * libraries (a few ms): asked every 2 ms for 20 ms, so its first samples
 * do not wait for the first tick (100 ms). A sample before is counted
 * (STAT_ROWS_NOT_READY) and walked by frame pointers.
 */
static void launch_rows(struct run *r)
{
	const struct timespec ms2 = {0, 2000000};

	for (int i = 0; i < 10; i++) {
		nanosleep(&ms2, NULL);
		sampler__unwind_refresh(r->smp, r->child.pid, now_ns());
	}
}

/* ---- setup -------------------------------------------------------------- */

/* Every -p target must exist; a thread id stands for its process. */
static int check_pids(struct run *r)
{
	int i, tgid;

	for (i = 0; i < r->o.nr_pids; i++) {
		tgid = proc_tgid(r->o.pids[i]);
		if (tgid <= 0 || !proc_alive(tgid)) {
			fprintf(stderr, "mixprof: no process %u\n",
				r->o.pids[i]);
			return -ESRCH;
		}
		r->o.pids[i] = tgid;
	}
	return 0;
}

static int setup_depth(struct run *r)
{
	int ret = maxstack__raise(r->o.stack_depth, &r->old_maxstack);
	int cur;

	if (!ret)
		return 0;
	cur = maxstack__get();
	if (cur < 8)
		return ret;
	/* user stacks are walked by our own program: only the kernel's
	 * own stacks are cut at its limit */
	fprintf(stderr,
		"mixprof: cannot raise kernel.perf_event_max_stack "
		"to %u (%s); kernel stacks are cut at %d frames\n",
		r->o.stack_depth, strerror(-ret), cur);
	return 0;
}

/*
 * Room for every key alive at once when every sample is a new stack: a
 * bucket, the guard and a drain period of samples from every CPU. The drain
 * reads the whole map each tick, so it is not bigger than that.
 */
static uint32_t auto_counts_size(const struct run *r)
{
	uint64_t alive_ns = r->tb.bucket_ns + GUARD_NS +
			    (DRAIN_TICKS + 1) * TICK_MS * 1000000ULL;
	uint64_t keys = r->o.freq * r->nr_cpus * alive_ns / 1000000000ULL;
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

static int setup_bpf(struct run *r)
{
	struct sampler_cfg cfg = {
	    .freq = r->o.freq,
	    .bucket_ns = r->tb.bucket_ns,
	    .stack_storage = r->o.stack_storage,
	    .counts_size =
		r->o.counts_size ? r->o.counts_size : auto_counts_size(r),
	    .depth = r->o.stack_depth,
	    .filter_pids = r->o.nr_pids || r->o.cmd,
	    .per_thread = r->o.per_thread,
	    .user = !r->o.kernel_only,
	    .kernel = !r->o.user_only,
	    .no_interp = getenv("MIXPROF_NO_INTERP") != NULL,
	    .usdt = r->o.nr_probes > 0,
	    .off_cpu = r->o.off_cpu,
	    .off_cpu_preempt = r->o.off_cpu_preempt,
	    .wall = r->o.wall,
	    .alloc = r->o.alloc,
	    .min_block_ns = r->o.min_block_ns,
	    .max_block_ns = r->o.max_block_ns,
	    .cpus = r->cpus,
	    .nr_cpus = r->nr_cpus,
	};
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
	r->smp = sampler__new(&cfg);
	if (!r->smp) {
		ret = -errno;
		/* with the capabilities, EACCES is the verifier saying no */
		if ((ret == -EPERM || ret == -EACCES) &&
		    missing_caps(caps, sizeof(caps)))
			perm_error(caps);
		else
			fprintf(stderr,
				"mixprof: cannot load the BPF "
				"sampler: %s%s\n",
				strerror(-ret),
				verbose ? "" : " (-v shows why)");
		return ret;
	}
	for (i = 0; i < r->o.nr_pids; i++) {
		ret = sampler__add_target(r->smp, r->o.pids[i]);
		if (ret)
			return ret;
		/* rows before the first sample; failure: frame pointers */
		sampler__unwind_refresh(r->smp, r->o.pids[i], now_ns());
	}
	return 0;
}

static int setup_launch(struct run *r)
{
	char *agent = r->o.attach ? agent_path() : NULL, pid[16];
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
	jvmprep_launched(r->child.pid);
	return sampler__add_target(r->smp, r->child.pid);
}

/* While a launched JVM starts: stop waiting when it died or we are told. */
static bool probe_give_up(void *arg)
{
	struct run *r = arg;
	sigset_t pend;

	reap_child(r);
	if (r->child_done || sigpending(&pend))
		return true;
	return sigismember(&pend, SIGINT) || sigismember(&pend, SIGTERM) ||
	       sigismember(&pend, SIGHUP) ||
	       (!r->launched && !proc_alive(r->o.pids[0]));
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

	if (r->interp)
		interp__learn(r->interp, pid, now_ns());
	pi = pidset__get(r->pids, pid, &added);
	if (!pi || !added)
		return;
	pi->jit = pi->user = true;
	symbolizer__refresh(r->sym, pid, now_ns());
	proc_comm(pid, pi->comm);
}

/*
 * A probe run starts the command (held until now), connects to its agent
 * or that of -p, attaches the stack counter to the agent's USDT probe,
 * and only then adds the probes, so no call goes uncounted. From launch
 * the probes wait for their classes (PROBECTL_WAIT).
 */
static int start_probes(struct run *r)
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
	r->tb.start_ns = now_ns();
	r->wall_start = time(NULL);
	if (!r->o.count) {
		track_jvm(r, pc.pid);
		ret = probectl__agent_path(pc.pid, path, sizeof(path));
		if (!ret)
			ret = sampler__attach_usdt(
			    r->smp, r->tb.start_ns, pc.pid, path,
			    PROBECTL_USDT_PROVIDER, PROBECTL_USDT_NAME);
		if (ret) {
			fprintf(stderr,
				"mixprof: -e: cannot attach to %s:%s of "
				"libjmap.so in %d: %s\n",
				PROBECTL_USDT_PROVIDER, PROBECTL_USDT_NAME,
				pc.pid, strerror(-ret));
			return ret;
		}
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

/* The live status line, on a terminal: samples so far, and lost ones. */
static void show_status(struct run *r)
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

static int start(struct run *r)
{
	int ret;

	if (r->o.nr_probes)
		return start_probes(r);

	if (!r->o.nr_pids && !r->launched)
		host_rows(r);
	/* the rows of running processes before their first sample, but
	 * not at any price: a loaded host takes seconds for libjvm's */
	sampler__unwind_wait(r->smp, ROWS_WAIT_NS);
	/* running JVMs unwound by their tables from the first sample */
	for (int i = 0; r->interp && i < r->o.nr_pids; i++) {
		char d[512];
		uint32_t pid = r->o.pids[i];

		interp__prepare(r->interp, pid);
		if (interp__describe(r->interp, pid, d, sizeof(d)) > 0 &&
		    verbose)
			fprintf(stderr, "mixprof: %u: %s\n", r->o.pids[i], d);
	}
	/* time starts when sampling does, not when loading did */
	r->tb.start_ns = now_ns();
	r->wall_start = time(NULL);
	ret = r->o.alloc ? attach_alloc(r)
			 : sampler__attach(r->smp, r->tb.start_ns);
	if (ret == -ENOENT && r->o.alloc)
		return ret; /* named by attach_alloc */
	if (ret) {
		if (ret == -EPERM || ret == -EACCES)
			perm_error("CAP_PERFMON");
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
	launch_rows(r);
	return 0;
}

/* ---- the loop ----------------------------------------------------------- */

static void reap_child(struct run *r)
{
	int status;

	if (!r->launched || r->child_done)
		return;
	if (waitpid(r->child.pid, &status, WNOHANG) == r->child.pid) {
		r->child_done = true;
		r->child_status = status;
	}
}

/* Is the run over: time is up, or nothing is left to profile? */
static bool over(struct run *r, uint64_t deadline)
{
	int i;

	if (deadline && r->now_ns >= deadline)
		return true;
	if (r->launched)
		return r->child_done;
	for (i = 0; i < r->o.nr_pids; i++)
		if (proc_alive(r->o.pids[i]))
			return false;
	return r->o.nr_pids > 0;
}

static int loop(struct run *r, const sigset_t *sigs)
{
	uint64_t deadline =
	    r->o.duration_ns ? r->tb.start_ns + r->o.duration_ns : 0;
	uint64_t wait_ns, now = now_ns();
	struct timespec ts;
	unsigned int tick = 0;
	int sig, ret;

	for (;;) {
		/* wake at the deadline itself, so the run lasts what was asked */
		wait_ns = TICK_MS * 1000000ULL;
		if (deadline && deadline > now && deadline - now < wait_ns)
			wait_ns = deadline - now;
		ts.tv_sec = wait_ns / 1000000000ULL;
		ts.tv_nsec = wait_ns % 1000000000ULL;
		sig = sigtimedwait(sigs, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			return 0;
		r->now_ns = now = now_ns();
		reap_child(r);
		if (over(r, deadline))
			return 0;
		r->full = tick % 10 == 0;
		pidset__for_each(r->pids, refresh_one, r);
		/* JIT maps every tick, the counts every DRAIN_TICKS: reading
		 * the whole counts map is the biggest cost of a tick */
		ret = tick++ % DRAIN_TICKS == 0 || r->pr ? drain(r) : 0;
		if (ret)
			return ret;
		if (r->full)
			expire(r);
		/* after the drain, which identifies new JVMs: loading a big
		 * library's rows (libjvm: ~0.3 s) must not delay that */
		pidset__for_each(r->pids, unwind_one, r);
		if (r->launched && !r->child_done)
			sampler__unwind_refresh(r->smp, r->child.pid, now);
		/* every tick, after the drain: a JVM that exits takes its
		 * counts along; one we launched waits at exit for this poll,
		 * so its last counts and stacks are read while it lives */
		if (r->pr && (r->o.count || r->launched)) {
			probes_run__poll(r->pr);
			/* not alone: a stopped JVM's agent answers nothing
			 * and a request waits (probectl.h) */
			probes_run__watch(r->pr);
		}
		if (tick % (1000 / TICK_MS) == 0)
			show_status(r);
	}
}

/* ---- the end ------------------------------------------------------------ */

static void report_child(struct run *r)
{
	int st = r->child_status;

	if (!r->launched)
		return;
	if (!r->child_done)
		fprintf(stderr, "mixprof: '%s' (pid %d) still runs\n",
			r->o.cmd[0], r->child.pid);
	else if (WIFEXITED(st))
		fprintf(stderr, "mixprof: '%s' exited with status %d\n",
			r->o.cmd[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		fprintf(stderr, "mixprof: '%s' killed by signal %d (%s)\n",
			r->o.cmd[0], WTERMSIG(st), strsignal(WTERMSIG(st)));
}

/*
 * A profiled launch passes on its command's failure, as perf record and
 * strace do: its exit status, or 128 + the signal that killed it (the
 * shell's rule). Our own failures return before this, with a "mixprof:"
 * line on stderr.
 */
static int child_exit(const struct run *r)
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

/*
 * Samples written: to the folded output, or without one (--svg alone) to
 * the graphs, unless those failed.
 */
static uint64_t written(struct run *r)
{
	if (r->render_failed && !r->o.output && !r->o.folded_stdout)
		return 0;
	return sliceout__written(r->out);
}

/* Why the summary's "written" is short of the samples, or "". */
static const char *not_written(struct run *r)
{
	int err = sliceout__error(r->out);

	if (err == -EPIPE && !r->o.output)
		return " (stdout closed by its reader)";
	return err || (sliceout__total(r->out) && !written(r))
		   ? " (the output could not be written)"
		   : "";
}

/*
 * A reader that closes our stdout early (`mixprof ... | head`) chose to
 * stop reading: the run still ends well (exit 0), with its summary.
 */
static bool reader_left(struct run *r, int ret)
{
	return ret == -EPIPE && !r->o.output &&
	       sliceout__error(r->out) == -EPIPE;
}

/* An output error the writers have already reported, naming the file. */
static bool reported(struct run *r, int ret)
{
	return ret && (ret == sliceout__error(r->out) ||
		       ret == renderout__error(r->ro));
}

/*
 * A probe run counts calls: --count the agent's, stacks the USDT hits
 * (every hit is written, a lost stack under "[lost user stack]"). True
 * when that was all there is to say.
 */
static bool probe_summary(struct run *r, const uint64_t *st, double secs)
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
		st[STAT_SAMPLES], secs, sampler__event_name(r->smp), written(r),
		not_written(r));
	return false; /* the rest as for samples */
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
	if (r->o.min_block_ns || r->o.max_block_ns)
		fprintf(stderr,
			"mixprof:   blocks of %" PRIu64 " us to %s%" PRIu64
			" us only\n",
			r->o.min_block_ns / 1000,
			r->o.max_block_ns ? "" : "(no bound) ",
			r->o.max_block_ns / 1000);
}

/*
 * Stacks lost: to a full stack map (the option fixes it), or for want of
 * kernel memory at sample time (the maps are not preallocated; nothing
 * to raise).
 */
static void lost_stacks(const struct stackfold_stats *fs, const uint64_t *st)
{
	uint64_t nomem = st[STAT_STACK_NOMEM],
		 refused = st[STAT_USER_LOST] + st[STAT_KERN_LOST];

	fprintf(stderr,
		"mixprof:   %" PRIu64 " samples lost their user stack, %" PRIu64
		" their kernel stack (",
		fs->user_lost, fs->kern_lost);
	if (nomem < refused)
		fprintf(stderr,
			"stack map full%s: raise --stack-storage-size%s",
			nomem ? " for some" : "", nomem ? "; " : "");
	if (nomem)
		fprintf(stderr,
			"%" PRIu64 " found no kernel memory at sample time",
			nomem);
	fprintf(stderr, ")\n");
}

static int cmp_root(const void *a, const void *b)
{
	const struct stackfold_root *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 : 0;
}

/* -v: the whole-stack share of the processes with the most samples. */
static void roots_by_process(const struct run *r)
{
	const struct stackfold_root *t;
	size_t cap = stackfold__roots(r->sf, &t), n = 0;
	struct stackfold_root *v = calloc(cap ? cap : 1, sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < cap; i++)
		if (t[i].pid && t[i].samples)
			v[n++] = t[i];
	qsort(v, n, sizeof(*v), cmp_root);
	for (size_t i = 0; i < n && i < 10; i++)
		fprintf(stderr,
			"mixprof:     pid %u: %.1f%% of %" PRIu64
			" reach the root\n",
			v[i].pid, 100.0 * v[i].root / v[i].samples,
			v[i].samples);
	free(v);
}

/* What the native unwind rows cost, and the samples that came before. */
static void unwind_summary(const struct run *r, const uint64_t *st)
{
	struct unwind_loader_stats us;

	if (!sampler__unwind_stats(r->smp, &us))
		return;
	fprintf(stderr,
		"mixprof:   unwind rows: %" PRIu64 " files (%" PRIu64
		" without), %" PRIu64 " rows and %" PRIu64
		" pages (%.1f MB in BPF maps), %.0f ms to load; %" PRIu64
		" samples before their process's rows were loaded\n",
		us.files, us.files_without, us.rows, us.pages,
		(us.rows * 8.0 + us.pages * 16.0) / (1 << 20), us.load_ns / 1e6,
		st[STAT_ROWS_NOT_READY]);
}

/*
 * Whole stacks: how many user stacks reach their thread's root, which
 * walks broke and why (each with what to do), and in check mode how
 * often the HotSpot walk and the frame-pointer walk agreed.
 */
static void stack_truth(const struct run *r, const struct stackfold_stats *fs,
			const uint64_t *st)
{
	static const char *const why[UNWIND_NR][2] = {
	    [UNWIND_NO_BLOB] = {"no codeblob", "a pc in the code cache that "
					       "HotSpot's tables do not place"},
	    [UNWIND_BAD_PC] = {"bad pc", "a compiled frame whose caller is "
					 "not code: a layout we do not know"},
	    [UNWIND_BAD_FP] = {"bad fp",
			       "native code built without frame pointers, or "
			       "a Java thread younger than a drain tick"},
	    [UNWIND_BAD_SP] = {"bad sp", "a walk leaving the thread's stack"},
	    [UNWIND_READ] = {"unreadable", "stack memory gone (a thread "
					   "exiting)"},
	    [UNWIND_EARLY] = {"not identified yet",
			      "a launched process's first moments, walked "
			      "as a JVM might be before its tables were "
			      "read (up to 2 s for one that is not a JVM)"},
	    [UNWIND_NO_ROW] = {"no row",
			       "native code whose .eh_frame has no rule the "
			       "BPF walk follows (a signal frame, an "
			       "expression, code between functions)"},
	};
	uint64_t broken = 0;

	if (!fs->user_samples)
		return;
	for (int i = 0; i < UNWIND_NR; i++)
		broken += fs->broken[i];
	fprintf(stderr,
		"mixprof:   whole stacks: %.1f%% of %" PRIu64
		" samples with a user stack reach their thread's root; "
		"%" PRIu64 " walks broke\n",
		100.0 * fs->root_samples / fs->user_samples, fs->user_samples,
		broken);
	unwind_summary(r, st);
	for (int i = 1; i < UNWIND_NR; i++)
		if (fs->broken[i])
			fprintf(stderr,
				"mixprof:     %" PRIu64 " [unwind: %s]: %s\n",
				fs->broken[i], why[i][0], why[i][1]);
	if (verbose)
		fprintf(stderr,
			"mixprof:   unwinder: %" PRIu64 " resumed at a Java "
			"frame anchor, %" PRIu64 " broken native walks "
			"of threads not (yet) known as Java threads\n",
			st[STAT_ANCHOR], st[STAT_NO_THREAD]);
	if (verbose)
		roots_by_process(r);
	if (r->unwind_mode == UNWIND_MODE_CHECK)
		fprintf(stderr,
			"mixprof:   check: the HotSpot and frame-pointer walks "
			"agree on %" PRIu64 " of %" PRIu64 " JVM samples "
			"(%.2f%%)\n",
			st[STAT_CHECK_SAME],
			st[STAT_CHECK_SAME] + st[STAT_CHECK_DIFF],
			st[STAT_CHECK_SAME] + st[STAT_CHECK_DIFF]
			    ? 100.0 * st[STAT_CHECK_SAME] /
				  (st[STAT_CHECK_SAME] + st[STAT_CHECK_DIFF])
			    : 0.0);
}

/*
 * Nothing ran: say so plainly, and for a -p pid that is a wrapper, name
 * the JVM below it again (the hint at the start may have scrolled away).
 */
static void no_samples(struct run *r)
{
	char comm[16] = "";
	int i;

	if (!r->o.nr_pids && !r->launched)
		return; /* a whole host that did not run: nothing to explain */
	if (r->o.nr_pids == 1) {
		proc_comm(r->o.pids[0], comm);
		fprintf(stderr,
			"mixprof: no samples: pid %u (%s) and its new "
			"children did not run on a CPU\n",
			r->o.pids[0], comm);
	} else {
		fprintf(stderr,
			"mixprof: no samples: %s did not run on a CPU\n",
			r->o.nr_pids ? "none of the pids" : "the command");
	}
	for (i = 0; i < r->o.nr_pids; i++)
		jvmkids__hint(r->o.pids[i]);
}

/* -v: what bounds the run's memory, and what it held at the end. */
static void memory_summary(struct run *r, const struct symbolizer_stats *ss)
{
	size_t budget, cache = stackfold__cache_bytes(r->sf, &budget);

	fprintf(stderr,
		"mixprof:   memory: %" PRIu64 " processes forgotten after "
		"their last samples, %" PRIu64 " ELF files and %" PRIu64
		" JIT lines of replaced code dropped; name cache %zu of "
		"%zu KiB; output %" PRIu64 " distinct lines held at the end; "
		"heap %zu KiB in use of %zu\n",
		ss->procs_forgotten, ss->elfs_freed, ss->jit_expired,
		cache >> 10, budget >> 10, r->out_lines, r->heap.uordblks >> 10,
		(r->heap.arena + r->heap.hblkhd) >> 10);
}

/* Account for every sample: what was written, what was lost and why. */
static void summary(struct run *r)
{
	const struct stackfold_stats *fs = stackfold__stats(r->sf);
	struct symbolizer_stats ss = {};
	uint64_t st[STAT_NR] = {};
	double secs = (r->end_ns - r->tb.start_ns) / 1e9;

	sampler__stats(r->smp, st);
	symbolizer__stats(r->sym, &ss);
	ss.frames += fs->interp_named; /* named by interp.c, not symbolizer */
	ss.frames += fs->frames; /* named from stackfold's cache */
	ss.frames_unknown += fs->frames_unknown;
	ss.frames_unknown -= fs->stubs_fresh < ss.frames_unknown
				 ? fs->stubs_fresh
				 : ss.frames_unknown;
	if (r->pr && probe_summary(r, st, secs))
		return;
	if (r->o.alloc)
		fprintf(stderr,
			"mixprof: %" PRIu64 " allocation hook hits in %.1f s "
			"(new TLABs and allocations outside them), %.1f MB "
			"written; counts are bytes\n",
			st[STAT_SAMPLES], secs, sliceout__total(r->out) / 1e6);
	else if (r->o.off_cpu || r->o.wall)
		offcpu_summary(r, st, secs);
	else if (!r->pr)
		fprintf(stderr,
			"mixprof: %" PRIu64 " samples in %.1f s (%s, %" PRIu64
			" Hz, %d CPUs), %" PRIu64 " written%s\n",
			st[STAT_SAMPLES], secs, sampler__event_name(r->smp),
			r->o.freq, r->nr_cpus, written(r), not_written(r));
	if (!st[STAT_SAMPLES])
		no_samples(r);
	if (r->filtered)
		fprintf(stderr,
			"mixprof:   %" PRIu64 " samples left out by "
			"-I/-X/--tid/--thread\n",
			r->filtered);
	if (st[STAT_COUNTS_FULL])
		fprintf(stderr,
			"mixprof:   %" PRIu64 " dropped: counts map "
			"full (raise --counts-size)\n",
			st[STAT_COUNTS_FULL]);
	if (verbose)
		fprintf(
		    stderr,
		    "mixprof:   bpf: %" PRIu64 " user, %" PRIu64
		    " kernel stack ids refused; %" PRIu64 " child processes "
		    "followed\n",
		    st[STAT_USER_LOST], st[STAT_KERN_LOST], st[STAT_CHILDREN]);
	if (verbose)
		memory_summary(r, &ss);
	if (verbose && ss.jit_gap_max_ns)
		fprintf(stderr,
			"mixprof:   JIT maps read at most %" PRIu64
			" ms apart\n",
			ss.jit_gap_max_ns / 1000000);
	if (fs->user_lost || fs->kern_lost)
		lost_stacks(fs, st);
	if (fs->truncated)
		fprintf(stderr,
			"mixprof:   %" PRIu64 " stacks truncated at "
			"%u frames (raise --stack-depth)\n",
			fs->truncated, r->o.stack_depth);
	if (!r->o.kernel_only)
		stack_truth(r, fs, st);
	if (st[STAT_USER_EMPTY] && !r->o.kernel_only)
		fprintf(stderr,
			"mixprof:   %" PRIu64 " samples without a "
			"user stack (kernel threads)\n",
			st[STAT_USER_EMPTY]);
	if (fs->interp_samples)
		fprintf(stderr,
			"mixprof:   interpreted frames: %" PRIu64 " named, "
			"%" PRIu64 " left as Interpreter (in %.2f%% of the "
			"%" PRIu64 " samples with interpreted frames)\n",
			fs->interp_named, fs->interp_unnamed,
			100.0 * fs->interp_unnamed_samples / fs->interp_samples,
			fs->interp_samples);
	if (fs->interp_samples && verbose)
		fprintf(
		    stderr,
		    "mixprof:   interpreted: %" PRIu64 " JVMs walked, %" PRIu64
		    " frames off their stack, %" PRIu64 " unreadable, "
		    "%" PRIu64 " samples without a list (interp map full)\n",
		    fs->interp_jvms, fs->interp_misaligned,
		    fs->interp_unreadable, st[STAT_INTERP_FULL]);
	if (fs->no_names)
		fprintf(stderr,
			"mixprof:   %" PRIu64
			" JVM(s) (pid %u%s) whose compiled "
			"frames cannot be named from their metadata (%s: "
			"JDK 18-20, compact object headers, or a layout we do "
			"not know): named from a perf map, run them with "
			"--agent\n",
			fs->no_names, fs->no_names_pid,
			fs->no_names > 1 ? " the last" : "",
			strerror(fs->no_names_err));
	if (fs->check_same + fs->check_diff)
		fprintf(stderr,
			"mixprof:   names check: %" PRIu64 " of %" PRIu64
			" compiled frames named as the perf map names them\n",
			fs->check_same, fs->check_same + fs->check_diff);
	if (fs->compiled_named + fs->compiled_stale)
		fprintf(stderr,
			"mixprof:   compiled Java frames named from the JVM: "
			"%" PRIu64 ", by their method only (code freed "
			"first: no inlined frames) %" PRIu64 ", left to the "
			"maps %" PRIu64 "\n",
			fs->compiled_named, fs->compiled_stale,
			fs->compiled_failed);
	if (ss.frames)
		fprintf(stderr,
			"mixprof:   %.1f%% of %" PRIu64 " frames "
			"unresolved%s\n",
			100.0 * ss.frames_unknown / ss.frames, ss.frames,
			ss.frames_unknown
			    ? " (Java: run the JVM "
			      "with the agent; native: install debug symbols)"
			    : "");
}

/*
 * The graphs' default title names what was profiled: "mixprof: java -jar
 * app.jar", "mixprof: pid 1234 (java)", "mixprof: whole host".
 */
static void make_title(struct run *r, char *buf, size_t len)
{
	char comm[16] = "";
	size_t n;
	int i;

	n = snprintf(buf, len, "mixprof: ");
	if (r->o.cmd) {
		for (i = 0; r->o.cmd[i] && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      r->o.cmd[i]);
	} else if (r->o.nr_pids == 1) {
		proc_comm(r->o.pids[0], comm);
		snprintf(buf + n, len - n, "pid %u%s%s%s", r->o.pids[0],
			 *comm ? " (" : "", comm, *comm ? ")" : "");
	} else if (r->o.nr_pids) {
		n += snprintf(buf + n, len - n, "pids");
		for (i = 0; i < r->o.nr_pids && n < len; i++)
			n += snprintf(buf + n, len - n, "%c%u", i ? ',' : ' ',
				      r->o.pids[i]);
	} else {
		snprintf(buf + n, len - n, "whole host");
	}
}

/* Title and subtitle (when it started, how long, how many), then draw. */
static int render(struct run *r)
{
	char title[160], sub[128], when[32] = "";
	struct tm tm;

	make_title(r, title, sizeof(title));
	if (localtime_r(&r->wall_start, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S, ", &tm);
	if (r->o.nr_probes)
		snprintf(sub, sizeof(sub),
			 "%s%.1f s, %" PRIu64 " calls of %s%s", when,
			 (r->end_ns - r->tb.start_ns) / 1e9,
			 sliceout__total(r->out), r->o.probes[0],
			 r->o.nr_probes > 1 ? ", ..." : "");
	else if (r->o.off_cpu || r->o.wall)
		snprintf(sub, sizeof(sub), "%s%.1f s, %.1f ms %s (%s)", when,
			 (r->end_ns - r->tb.start_ns) / 1e9,
			 sliceout__total(r->out) / 1e3,
			 r->o.wall ? "of thread time" : "off-CPU",
			 offcpu_states(r));
	else
		snprintf(sub, sizeof(sub),
			 "%s%.1f s at %" PRIu64 " Hz, %" PRIu64 " samples",
			 when, (r->end_ns - r->tb.start_ns) / 1e9, r->o.freq,
			 sliceout__total(r->out));
	return renderout__finish(r->ro, r->o.title ? r->o.title : title, sub);
}

/* Detach first, so nothing can count any more; then drain it all. */
struct count_line {
	struct pprof_writer *w;
	char *buf;
	size_t cap;
};

/* One method's calls as a one-frame stack under the process "java". */
static int count_line(const char *name, uint64_t count, void *ctx)
{
	struct count_line *cl = ctx;
	int n = snprintf(cl->buf, cl->cap, "java;%s_[j]", name);

	if (n < 0 || (size_t)n >= cl->cap)
		return 0; /* a name longer than any method's: left out */
	return pprof_writer__add(cl->w, cl->buf, n, count);
}

/* --count as pprof: each probed method a sample, valued in calls. */
static int count_pprof(struct run *r)
{
	struct pprof_meta m = {.type = "calls",
			       .unit = "count",
			       .duration_ns = r->end_ns - r->tb.start_ns,
			       .time_ns =
				   (uint64_t)r->wall_start * 1000000000ULL};
	struct count_line cl = {.cap = 65536};
	int ret = -ENOMEM;

	cl.w = pprof_writer__new(&m);
	cl.buf = malloc(cl.cap);
	if (cl.w && cl.buf)
		ret = probe_count__each(probes_run__table(r->pr), count_line,
					&cl);
	ret = ret ?: pprof_writer__write(cl.w, r->table);
	pprof_writer__free(cl.w);
	free(cl.buf);
	return ret;
}

static int finish(struct run *r)
{
	int ret;

	sampler__detach(r->smp);
	r->now_ns = r->end_ns = now_ns();
	if (r->pr) {
		if (r->o.count)
			probes_run__poll(r->pr);
		probes_run__end(r->pr); /* the agent removes the probes */
	}
	reap_child(r);
	status__clear(&r->status);
	r->full = true;
	pidset__for_each(r->pids, refresh_one, r);
	r->final = true;
	ret = drain(r);
	r->out_lines = sliceout__lines(r->out);
	r->heap = mallinfo2(); /* the output still held: the run's peak */
	if (!ret)
		ret = sliceout__finish(r->out, r->end_ns);
	if (ret && !reported(r, ret))
		fprintf(stderr, "mixprof: writing %s: %s\n",
			r->o.output ? r->o.output : "output", strerror(-ret));
	/* the renderers print their own errors, naming their files */
	if (!ret && r->ro && (ret = render(r)))
		r->render_failed = true;
	if (!ret && r->table) {
		ret = r->o.format == PROFILE_PPROF
			  ? count_pprof(r)
			  : probe_count__print(
				probes_run__table(r->pr), r->table,
				(r->end_ns - r->tb.start_ns) / 1e9);
		if (ret == -EPIPE && r->table == stdout)
			ret = 0; /* its reader left (| head): not a failure */
		if (ret)
			fprintf(stderr, "mixprof: writing %s: %s\n",
				r->o.output ? r->o.output : "stdout",
				strerror(-ret));
	}
	if (!r->o.quiet) {
		report_child(r);
		summary(r);
	}
	return ret;
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
		if (verbose)
			fprintf(stderr,
				"mixprof: kernel names from /proc/kallsyms: "
				"%s\n",
				strerror(errno));
		return;
	}
	symbolizer__kernel_source(
	    r->sym, &(struct ksym_source){ksymbpf__names, r->ksym});
}

static int setup_naming(struct run *r)
{
	struct stackfold_cfg fc = {
	    .user = !r->o.kernel_only,
	    .kernel = !r->o.user_only,
	    .delimit = r->o.delimit,
	    .per_thread = r->o.per_thread,
	    .annotate = r->o.annotate,
	    .depth = r->o.stack_depth,
	    .no_interp = getenv("MIXPROF_NO_INTERP") != NULL,
	    .probe_leaf = r->o.nr_probes > 0,
	    .lines = r->o.lines,
	    .check_names = getenv("MIXPROF_NAMES_CHECK") != NULL,
	};
	struct stacksrc src;

	stacksrc__sampler(&src, r->smp);
	r->sym = symbolizer__new(NULL);
	r->pids = pidset__new();
	if (fc.user && !fc.no_interp)
		r->interp = interp__new(&src, NULL);
	r->sf = r->sym ? stackfold__new(&fc, &src, r->sym, r->interp) : NULL;
	if (!r->sym || !r->pids || !r->sf ||
	    (fc.user && !fc.no_interp && !r->interp)) {
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
				      : NULL,
	    .blue = r->o.off_cpu,
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
	r->table = r->o.output ? safe_fcreate(r->o.output) : stdout;
	if (!r->table) {
		fprintf(stderr, "mixprof: %s: %s\n", r->o.output,
			safe_strerror(errno));
		return -errno;
	}
	return 0;
}

/* pprof files: what a count is, and for CPU samples their period. */
static void setup_pprof(struct run *r)
{
	struct pprof_meta m = {
	    .type = r->o.nr_probes ? "calls"
		    : r->o.off_cpu ? "off_cpu"
		    : r->o.wall	   ? "wall"
		    : r->o.alloc   ? "alloc_space"
				   : "samples",
	    .unit = r->o.alloc			? "bytes"
		    : r->o.off_cpu || r->o.wall ? "microseconds"
						: "count",
	    .period_ns =
		r->o.nr_probes || r->o.off_cpu || r->o.wall || r->o.alloc
		    ? 0
		    : 1000000000ULL / r->o.freq,
	    .per_thread = r->o.per_thread,
	};

	sliceout__pprof(r->out, &m);
}

static int run_profile(struct run *r, const sigset_t *sigs)
{
	char caps[64];
	int i, ret, fin;

	if (missing_caps(caps, sizeof(caps))) {
		perm_error(caps);
		return EXIT_PROF_PERM;
	}
	if (check_pids(r))
		return EXIT_PROF_FAIL;
	r->tb.bucket_ns = r->o.bucket_ns;
	r->tb.slice_ns = r->o.slice_ns;
	r->out = (r->o.output || r->o.folded_stdout) && !r->o.count
		     ? sliceout__new(&r->tb, r->o.output)
		     : sliceout__new_discard(&r->tb);
	if (!r->out) {
		fprintf(stderr, "mixprof: %s: %s\n", r->o.output,
			safe_strerror(errno));
		return EXIT_PROF_FAIL;
	}
	if (r->o.format == PROFILE_PPROF)
		setup_pprof(r);
	else if (r->o.folded_stdout && !r->o.nr_probes && isatty(STDOUT_FILENO))
		sliceout__top(r->out, r->o.per_thread); /* a table, not text */
	status__init(&r->status, stderr, r->o.quiet, isatty(STDERR_FILENO));
	if (setup_render(r) || setup_table(r))
		return EXIT_PROF_FAIL;
	for (i = 0; i < r->o.nr_pids; i++) {
		jvmprep(r->o.pids[i], r->o.attach, r->o.nr_probes > 0);
		jvmkids__hint(r->o.pids[i]);
	}
	ret = cpus__online(&r->cpus, &r->nr_cpus);
	if (ret) {
		fprintf(stderr, "mixprof: online CPUs: %s\n", strerror(-ret));
		return EXIT_PROF_FAIL;
	}
	if (setup_depth(r))
		return EXIT_PROF_FAIL;
	ret = setup_bpf(r);
	if (ret)
		return ret == -EPERM || ret == -EACCES ? EXIT_PROF_PERM
						       : EXIT_PROF_FAIL;
	if (setup_naming(r) || (r->o.cmd && setup_launch(r)))
		return EXIT_PROF_FAIL;
	ret = start(r);
	if (ret == -EINVAL && r->pr) /* a pattern the agent refused */
		return EXIT_PROF_USAGE;
	if (ret)
		return ret == -EPERM || ret == -EACCES ? EXIT_PROF_PERM
						       : EXIT_PROF_FAIL;
	ret = loop(r, sigs);
	if (ret && !reported(r, ret))
		fprintf(stderr, "mixprof: %s\n", strerror(-ret));
	fin = finish(r);
	if (reader_left(r, ret))
		ret = 0;
	if (reader_left(r, fin))
		fin = 0;
	return fin || ret ? EXIT_PROF_FAIL : child_exit(r);
}

static void teardown(struct run *r)
{
	int ret;

	if (r->launched && r->child.go_fd >= 0) {
		/* never started: let it die without running unprofiled */
		close(r->child.go_fd);
		waitpid(r->child.pid, NULL, 0);
	}
	probes_run__close(r->pr); /* before anything else: the probes go */
	if (r->table && r->table != stdout)
		fclose(r->table);
	stackfold__free(r->sf);
	interp__free(r->interp);
	sampler__free(r->smp);
	symbolizer__free(r->sym);
	ksymbpf__free(r->ksym);
	pidset__free(r->pids);
	sliceout__free(r->out);
	renderout__free(r->ro);
	free(r->cpus);
	ret = maxstack__restore(r->old_maxstack);
	if (ret)
		fprintf(stderr,
			"mixprof: cannot restore "
			"kernel.perf_event_max_stack to %d: %s\n",
			r->old_maxstack, strerror(-ret));
	profile_opts__release(&r->o);
}

static void on_sigpipe(int sig)
{
}

int profile_cmd(int argc, char **argv)
{
	struct run r = {.old_maxstack = -1, .child.go_fd = -1};
	char err[256];
	sigset_t sigs;
	int ret;

	ret = profile_opts__parse(&r.o, argc, argv, err, sizeof(err));
	if (ret == OPTS_HELP) {
		/* one write: `mixprof -h | grep -q` must not see EPIPE when
		 * the text is longer than a pipe's default stdio buffer */
		static char buf[1 << 16];

		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
		profile_opts__usage(stdout, "mixprof");
		return EXIT_PROF_OK;
	}
	if (ret) {
		fprintf(stderr, "mixprof: %s\n", err);
		profile_opts__release(&r.o);
		return EXIT_PROF_USAGE;
	}
	verbose = r.o.verbose;
	libbpf_set_print(libbpf_print);
	/* signals arrive through sigtimedwait in the loop, never async */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &r.old_mask);
	/*
	 * A closed stdout gives EPIPE, not a death without summary. A handler,
	 * not SIG_IGN, so a command we launch gets the default back at exec.
	 */
	sigaction(SIGPIPE, &(struct sigaction){.sa_handler = on_sigpipe}, NULL);
	ret = run_profile(&r, &sigs);
	teardown(&r);
	sigprocmask(SIG_SETMASK, &r.old_mask, NULL);
	return ret;
}
