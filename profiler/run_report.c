/*
 * run_report: the end of a run on stderr (run_report.h): every sample
 * accounted for (written, filtered, lost and why), how whole the stacks
 * were, and the graphs' title and subtitle.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "common/nsec.h"
#include "common/procfs.h"
#include "common/safename.h"
#include "jvm/jvms.h"
#include "jvm/jvmkids.h"
#include "output/render_out.h"
#include "run.h"
#include "run_report.h"
#include "sampler/sampler_ctl.h"
#include "output/sliceout.h"
#include "stacks/stackfold.h"
#include "targets.h"
#include "unwind/loader.h"
#include "stacks/unwindcheck.h"

/*
 * Samples written: to the folded output, or without one (--svg alone) to
 * the graphs, unless those failed.
 */
uint64_t run_report__written(struct run *r)
{
	if (r->render_failed && !r->o.output && !r->o.folded_stdout)
		return 0;
	return sliceout__written(r->out);
}

/* Why the summary's "written" is short of the samples, or "". */
const char *run_report__not_written(struct run *r)
{
	int err = sliceout__error(r->out);

	if (err == -EPIPE && !r->o.output)
		return " (stdout closed by its reader)";
	return err || (sliceout__total(r->out) && !run_report__written(r))
		   ? " (the output could not be written)"
		   : "";
}

/*
 * A reader that closes our stdout early (`mixprof ... | head`) chose to
 * stop reading: the run still ends well (exit 0), with its summary.
 */
bool run_report__reader_left(struct run *r, int ret)
{
	return ret == -EPIPE && !r->o.output &&
	       sliceout__error(r->out) == -EPIPE;
}

/* An output error the writers have already reported, naming the file. */
bool run_report__reported(struct run *r, int ret)
{
	return ret && (ret == sliceout__error(r->out) ||
		       ret == renderout__error(r->ro));
}

/*
 * Stacks lost: the ring that carries new stacks to user space was full
 * (the drain fell behind), or a stack was forgotten before its key came
 * (sampler/README.md, "Stacks by content"); nothing to raise.
 */
static void lost_stacks(const struct stackfold_stats *fs, const uint64_t *st)
{
	fprintf(stderr,
		"mixprof:   %" PRIu64 " samples lost their user stack, %" PRIu64
		" their kernel stack (%" PRIu64
		" stack records the ring could not take: the drain fell "
		"behind)\n",
		fs->user_lost, fs->kern_lost,
		st[STAT_USER_LOST] + st[STAT_KERN_LOST]);
}

static int cmp_root(const void *a, const void *b)
{
	const struct stackfold_root *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 : 0;
}

/* -v: the whole-stack share of the processes with the most samples. */
static void roots_by_process(const struct run *r)
{
	const struct stackfold_gone *g = stackfold__gone(r->sf);
	const struct stackfold_root *t;
	size_t cap = stackfold__roots(r->sf, &t), n = 0;
	struct stackfold_root *v = calloc(cap + GONE_TOP, sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < cap; i++)
		if (t[i].pid && t[i].samples)
			v[n++] = t[i];
	for (size_t i = 0; i < GONE_TOP; i++) /* exited, or idle */
		if (g->top[i].pid && g->top[i].samples)
			v[n++] = g->top[i];
	qsort(v, n, sizeof(*v), cmp_root);
	for (size_t i = 0; i < n && i < 10; i++)
		fprintf(stderr,
			"mixprof:     pid %u: %.1f%% of %" PRIu64
			" reach the root (%.1f%% of the %" PRIu64
			" of the first second)\n",
			v[i].pid, 100.0 * v[i].root / v[i].samples,
			v[i].samples,
			v[i].first ? 100.0 * v[i].first_root / v[i].first : 0.0,
			v[i].first);
	free(v);
}

/*
 * The root share of the processes whose table has rows (unwind/): what
 * the rows are for; the others (none of their files has CFI we read, or
 * gone before their table was loaded) are walked by frame pointer.
 */
static void roots_with_rows(const struct run *r)
{
	const struct stackfold_gone *g = stackfold__gone(r->sf);
	const struct stackfold_root *t;
	size_t cap = stackfold__roots(r->sf, &t);
	/* forgotten processes: whether they had rows when forgotten */
	uint64_t procs = g->procs, with = g->with_rows;
	uint64_t samples = g->rows.samples, root = g->rows.root;
	uint64_t early = g->rows.early, early_root = g->rows.early_root;
	uint64_t first = g->rows.first, first_root = g->rows.first_root;

	for (size_t i = 0; i < cap; i++) {
		if (!t[i].pid || !t[i].samples)
			continue;
		procs++;
		if (sampler__unwind_proc_maps(r->smp, t[i].pid) <= 0)
			continue;
		with++;
		samples += t[i].samples;
		root += t[i].root;
		early += t[i].early;
		early_root += t[i].early_root;
		first += t[i].first;
		first_root += t[i].first_root;
	}
	if (samples)
		fprintf(
		    stderr,
		    "mixprof:   processes with unwind rows: %" PRIu64
		    " of %" PRIu64 "; %.1f%% of their %" PRIu64
		    " samples reach the root, %.1f%% of the %" PRIu64
		    " taken once their rows were loaded, %.1f%% of the %" PRIu64
		    " of the first second\n",
		    with, procs, 100.0 * root / samples, samples,
		    samples > early
			? 100.0 * (root - early_root) / (samples - early)
			: 0.0,
		    samples - early, first ? 100.0 * first_root / first : 0.0,
		    first);
}

/* What the native unwind rows cost, and the samples that came before. */
/*
 * Check mode's differences of one side (the oracle's blind spots, or
 * the rest) by code, most first, each on a line of its own.
 */
static void check_codes(const uint64_t *d, bool blind, const char *what)
{
	bool shown[CHECK_CODES] = {0};
	uint32_t c, best;

	for (;;) {
		best = CHECK_CODES;
		for (c = 0; c < CHECK_CODES; c++)
			if (d[c] && !shown[c] &&
			    unwindcheck__blind(c) == blind &&
			    (best == CHECK_CODES || d[c] > d[best]))
				best = c;
		if (best == CHECK_CODES)
			break;
		fprintf(stderr, "mixprof:     %s: %" PRIu64 " %s\n", what,
			d[best], unwindcheck__why(best));
		shown[best] = true;
	}
}

/*
 * Check mode's line: how often the two walks agree, leaving out only
 * the samples where the oracle provably cannot see a frame (each such
 * reason counted), and frame for frame; then the oracle's blind spots
 * and the real differences by code.
 */
static void check_summary(const uint64_t *st)
{
	const uint64_t *d = st + STAT_CHECK_DIFF;
	uint64_t n = st[STAT_CHECK_SAME], blind = 0;
	uint32_t c;

	for (c = 0; c < CHECK_CODES; c++) {
		n += d[c];
		if (unwindcheck__blind(c))
			blind += d[c];
	}
	fprintf(stderr,
		"mixprof:   check: the HotSpot and frame-pointer walks agree "
		"on %" PRIu64 " of %" PRIu64 " JVM samples (%.2f%%) but for "
		"the oracle's blind spots (%" PRIu64 " samples where the "
		"frame-pointer walk cannot see a frame); frame for frame on "
		"%" PRIu64 " (%.2f%%)\n",
		st[STAT_CHECK_SAME] + blind, n,
		n ? 100.0 * (st[STAT_CHECK_SAME] + blind) / n : 0.0, blind,
		st[STAT_CHECK_SAME], n ? 100.0 * st[STAT_CHECK_SAME] / n : 0.0);
	check_codes(d, false, "differ");
	check_codes(d, true, "blind spot");
}

static void unwind_summary(const struct run *r, const uint64_t *st)
{
	struct unwind_loader_stats us;
	struct unwind_built b;
	char path[512];

	if (!sampler__unwind_stats(r->smp, &us))
		return;
	fprintf(stderr,
		"mixprof:   unwind rows: %" PRIu64 " files (%" PRIu64
		" without, %" PRIu64 " by .debug_frame, %" PRIu64
		" from the cache; %" PRIu64
		" mapped files no sample needed), %" PRIu64 " rows and %" PRIu64
		" pages (%.1f MB in BPF maps), %.0f ms to load; %" PRIu64
		" samples before the rows they needed were loaded\n",
		us.files, us.files_without, us.files_debug_frame,
		us.files_cached, us.pending, us.rows, us.pages,
		(us.rows * 8.0 + us.pages * 16.0 + us.fp_words * 8.0) /
		    (1 << 20),
		us.load_ns / 1e6, st[STAT_ROWS_NOT_READY]);
	if (st[STAT_ROWS_FP]) /* MIXPROF_ROWS_VERIFY */
		fprintf(stderr,
			"mixprof:   rows steps in frame-record blocks: %" PRIu64
			", checked against their rows: %" PRIu64 " differ\n",
			st[STAT_ROWS_FP], st[STAT_ROWS_FP_DIFF]);
	if (!r->o.verbose)
		return;
	/* -v: which files, in the order built, and why (rows on demand) */
	for (size_t i = 0;
	     sampler__unwind_built(r->smp, i, &b, path, sizeof(path)); i++)
		fprintf(stderr,
			"mixprof:     rows of %s: at %.0f ms, %.0f ms to "
			"%s, %u frames waited%s\n",
			path, b.at_ns / 1e6, b.took_ns / 1e6,
			b.cached ? "read from the cache" : "build", b.wanted,
			b.eager ? ", a target's" : "");
}

/*
 * The frame anchors' map: the entries each JVM holds (-v), and Java
 * threads listed without one: past a JVM's cap or the map full (always:
 * their native frames lose their Java callers), or not the listing JVM's
 * own threads (-v: a JVM in another pid namespace lists tids the host
 * does not know, a hostile one another process's).
 */
static void java_threads_summary(const struct run *r)
{
	struct jvms_anchored a[8];
	struct jvms_stats is;
	size_t n;

	if (!r->jvms)
		return;
	jvms__stats(r->jvms, &is);
	if (is.jvms_over)
		fprintf(stderr,
			"mixprof:   %" PRIu64 " JVM(s) (pid %u%s) with more "
			"than %d Java threads: the rest have no frame anchor\n",
			is.jvms_over, is.jvms_over_pid,
			is.jvms_over > 1 ? " the last" : "",
			JAVA_THREADS_PER_JVM);
	if (is.threads_full)
		fprintf(stderr,
			"mixprof:   %" PRIu64 " Java threads without a frame "
			"anchor: the map was full\n",
			is.threads_full);
	if (r->o.verbose && is.early_pid)
		fprintf(stderr,
			"mixprof:   launched JVM (pid %u) read at %.0f ms of "
			"its life, as soon as its tables were there\n",
			is.early_pid, is.early_age_ns / 1e6);
	n = jvms__anchored(r->jvms, a, 8);
	if (!r->o.verbose || (!n && !is.threads_foreign))
		return;
	fprintf(stderr, "mixprof:   java_threads: %zu JVM(s)", n);
	for (size_t i = 0; i < n && i < 8; i++)
		fprintf(stderr, "%s pid %u %u", i ? "," : ":", a[i].pid,
			a[i].threads);
	fprintf(stderr,
		"%s; %" PRIu64 " listed threads refused, not the JVM's own",
		n > 8 ? ", ..." : "", is.threads_foreign);
	if (is.threads_foreign)
		fprintf(stderr, " (the last: pid %u)", is.threads_foreign_pid);
	fputc('\n', stderr);
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
			      "read (a JVM: its first ms, before libjvm.so "
			      "was in its unwind table; up to 2 s of a "
			      "command that is not a JVM)"},
	    [UNWIND_NO_ROW] = {"no row",
			       "native code whose .eh_frame has no rule the "
			       "BPF walk follows (a signal frame, an "
			       "expression)"},
	    [UNWIND_FROZEN] = {"frozen frames",
			       "a virtual thread's frame returning into the "
			       "continuation return barrier: its callers are "
			       "frozen in heap stack chunks (JDK 21+), not "
			       "walked; the stack stops there rather than "
			       "under Continuation.run"},
	    [UNWIND_CHUNK] = {"bad chunk",
			      "a virtual thread's frozen frames that did not "
			      "read as HotSpot lays them out (a chunk being "
			      "frozen or thawed as it was read)"},
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
	roots_with_rows(r);
	for (int i = 1; i < UNWIND_NR; i++)
		if (fs->broken[i])
			fprintf(stderr, "mixprof:     %" PRIu64 " [%s%s]: %s\n",
				fs->broken[i],
				i == UNWIND_FROZEN ? "" : "unwind: ", why[i][0],
				why[i][1]);
	if (r->o.verbose)
		fprintf(stderr,
			"mixprof:   unwinder: %" PRIu64 " resumed at a Java "
			"frame anchor, %" PRIu64 " broken native walks "
			"of threads not (yet) known as Java threads, %" PRIu64
			" went on into virtual threads' frozen frames\n",
			st[STAT_ANCHOR], st[STAT_NO_THREAD],
			st[STAT_VT_CHUNKS]);
	java_threads_summary(r);
	if (r->o.verbose)
		roots_by_process(r);
	if (r->unwind_mode == UNWIND_MODE_CHECK)
		check_summary(st);
}

/*
 * Nothing ran: say so plainly, and for a -p pid that is a wrapper, name
 * the JVM below it again (the hint at the start may have scrolled away).
 */
static void no_samples(struct run *r)
{
	char comm[PROCFS_COMM_SHOW];
	int i;

	if (!r->o.nr_pids && !r->launched)
		return; /* a whole host that did not run: nothing to explain */
	if (r->o.nr_pids == 1) {
		fprintf(stderr,
			"mixprof: no samples: pid %u (%s) and its new "
			"children did not run on a CPU\n",
			r->o.pids[0], procfs__comm_show(r->o.pids[0], comm));
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
	if (ss->jit_over)
		fprintf(stderr,
			"mixprof:   %" PRIu64 " JIT map lines skipped: a map "
			"held its cap of live lines (symbolizer/jitmap.h; the "
			"newest code unnamed)\n",
			ss->jit_over);
}

/*
 * -v: what the run cost mixprof itself (getrusage: all its threads, not
 * the launched command, whose CPU its own line gives), per sample taken;
 * and its sampling programs' time in the kernel, where the kernel counts
 * it (kernel.bpf_stats_enabled=1; mixprof does not turn it on: it is the
 * host's, and costs every program on it), other tasks' ticks included.
 */
static void cost_summary(struct run *r, uint64_t samples)
{
	uint64_t ns, runs;
	struct rusage ru;
	double cpu;

	if (getrusage(RUSAGE_SELF, &ru))
		return;
	cpu = nsec__tv_secs(ru.ru_utime) + nsec__tv_secs(ru.ru_stime);
	fprintf(stderr,
		"mixprof:   its own cost: %.2f s of CPU (%.2f user, %.2f "
		"system)",
		cpu, nsec__tv_secs(ru.ru_utime), nsec__tv_secs(ru.ru_stime));
	if (samples)
		fprintf(stderr, ", %.1f us a sample", cpu * 1e6 / samples);
	fprintf(stderr, ", peak RSS %.1f MB", ru.ru_maxrss / 1024.0);
	/* printed without samples too: a run on an idle target measures
	 * what the other tasks' ticks cost (bench/walkcost.sh) */
	if (!sampler__bpf_time(r->smp, &ns, &runs) && runs) {
		fprintf(stderr,
			"; BPF %.1f ms in %" PRIu64
			" runs (other tasks' ticks too)",
			ns / 1e6, runs);
		if (samples)
			fprintf(stderr, ", %.1f us a sample",
				ns / 1e3 / samples);
	}
	fputc('\n', stderr);
}

/*
 * -v of a BPF_PHASES=1 build: where the sampling program's time went,
 * by phase (sampler/phases.h), each phase's ns a time and a sample; a
 * run without timed samples (--off-cpu's waits, probes) by walk instead.
 */
static void phases_summary(struct run *r)
{
#define PHASE_NAME(e, s) [e] = s,
	static const char *const name[PH_NR] = {PHASES(PHASE_NAME)};
#undef PHASE_NAME
	struct phase_stat ph[PH_NR];
	const char *per;
	uint64_t smp;

	if (!r->o.verbose || sampler__phases(r->smp, ph))
		return;
	per = ph[PH_SAMPLE].n ? "sample" : "walk";
	smp = ph[PH_SAMPLE].n ? ph[PH_SAMPLE].n : ph[PH_WALK].n;
	fprintf(stderr, "mixprof:   BPF phases (%" PRIu64 " %ss):\n", smp, per);
	for (int i = 0; i < PH_NR && smp; i++)
		if (ph[i].n)
			fprintf(stderr,
				"mixprof:     phase %-42s %9" PRIu64
				" x %7.0f ns = %7.0f ns/%s\n",
				name[i], (uint64_t)ph[i].n,
				(double)ph[i].ns / ph[i].n,
				(double)ph[i].ns / smp, per);
}

/* Account for every sample: what was written, what was lost and why. */
void run_report__summary(struct run *r)
{
	const struct stackfold_stats *fs = stackfold__stats(r->sf);
	struct symbolizer_stats ss = {};
	uint64_t st[STAT_NR] = {};
	double secs = (r->end_ns - r->tb.start_ns) / 1e9;

	sampler__stats(r->smp, st);
	symbolizer__stats(r->sym, &ss);
	ss.frames +=
	    fs->interp_named; /* named by jvm/jstacks.c, not symbolizer */
	ss.frames += fs->frames; /* named from stackfold's cache */
	ss.frames_unknown += fs->frames_unknown;
	ss.frames_unknown =
	    stackfold__less_stubs(ss.frames_unknown, fs->stubs_fresh);
	if (r->mode->summary(r, st, secs))
		return;
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
	if (r->o.verbose)
		fprintf(
		    stderr,
		    "mixprof:   bpf: %" PRIu64 " user, %" PRIu64
		    " kernel stack ids refused; %" PRIu64 " child processes "
		    "followed\n",
		    st[STAT_USER_LOST], st[STAT_KERN_LOST], st[STAT_CHILDREN]);
	if (r->o.verbose)
		memory_summary(r, &ss);
	if (r->o.verbose)
		cost_summary(r, st[STAT_SAMPLES]);
	phases_summary(r);
	if (r->o.verbose && ss.jit_gap_max_ns)
		fprintf(stderr,
			"mixprof:   JIT maps read at most %" PRIu64
			" ms apart\n",
			ss.jit_gap_max_ns / NSEC_PER_MSEC);
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
	if (fs->interp_chunks_gone)
		fprintf(stderr,
			"mixprof:     %" PRIu64 " deep lists of interpreted "
			"frames lost chunks (the kernel's LRU evicted them "
			"before they were read): their outer frames are left "
			"as Interpreter\n",
			fs->interp_chunks_gone);
	if (fs->interp_samples && r->o.verbose)
		fprintf(
		    stderr,
		    "mixprof:   interpreted: %" PRIu64 " JVMs walked, %" PRIu64
		    " frames off their stack, %" PRIu64 " unreadable, "
		    "%" PRIu64 " samples without a list (interp map full)\n",
		    fs->interp_jvms, fs->interp_misaligned,
		    fs->interp_unreadable, st[STAT_INTERP_FULL]);
	if ((st[STAT_NAMES_NOREDEF] || st[STAT_NAMES_REDEF]) && r->o.verbose)
		fprintf(stderr,
			"mixprof:   methods named from the walk's memo: in "
			"%" PRIu64 " walks by the unloaded-class count alone "
			"(no class ever redefined), in %" PRIu64
			" each Method* checked (a class redefined, or not "
			"known)\n",
			st[STAT_NAMES_NOREDEF], st[STAT_NAMES_REDEF]);
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
	if (fs->over)
		fprintf(stderr,
			"mixprof:   pid %u%s: JVM metadata too large or "
			"inconsistent (%s): named by method only, no thread "
			"names%s\n",
			fs->over_pid, fs->over > 1 ? " (the last)" : "",
			fs->over_why,
			fs->over > 1 ? "; more JVMs the same" : "");
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

size_t run_report__cmdline(char *const *cmd, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (int i = 0; cmd[i] && n + 1 < len; i++) {
		if (i)
			buf[n++] = ' ';
		n +=
		    safename__copy(buf + n, len - n, cmd[i], strlen(cmd[i]), 0);
		if (n >= len)
			return strlen(buf); /* cut */
	}
	buf[n] = '\0';
	return n;
}

/*
 * The graphs' default title names what was profiled: "mixprof: java -jar
 * app.jar", "mixprof: pid 1234 (java)", "mixprof: whole host".
 */
static void make_title(struct run *r, char *buf, size_t len)
{
	char comm[PROCFS_COMM_SHOW];
	size_t n;
	int i;

	n = snprintf(buf, len, "mixprof: ");
	if (r->o.cmd) {
		n += run_report__cmdline(r->o.cmd, buf + n, len - n);
	} else if (r->o.nr_pids == 1) {
		procfs__comm_show(r->o.pids[0], comm);
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
int run_report__render(struct run *r)
{
	char title[160], sub[128], when[32] = "";
	struct tm tm;
	int n;

	make_title(r, title, sizeof(title));
	if (localtime_r(&r->wall_start, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S, ", &tm);
	n = snprintf(sub, sizeof(sub), "%s", when);
	r->mode->subtitle(r, sub + n, sizeof(sub) - n);
	return renderout__finish(r->ro, r->o.title ? r->o.title : title, sub);
}
