/*
 * stackfold: one counted key of the sampler into one named stack (struct
 * fold_stack, fold.h: its frames, pid, tid, thread frame), whose text is
 * the folded line: comm; [container;] [thread;] [truncated;] user frames
 * root->leaf; [-;] kernel frames root->leaf. Reads the stacks through
 * stacksrc.h, names frames with the symbolizer and jvm/jstacks.h, and
 * counts what it could not show. It only names: learning processes
 * (jvms__seen, jstacks__seen, symbolizer__refresh) is the run's.
 */
#ifndef MIXPROF_STACKFOLD_H
#define MIXPROF_STACKFOLD_H

#include <stdbool.h>
#include <stdint.h>
#include "fold.h"
#include "jvm/jstacks.h"
#include "namecache.h"
#include "stacks/stacksrc.h"
#include "symbolizer/symbolizer.h"

struct stackfold_cfg {
	bool user, kernel; /* which parts to show */
	bool delimit; /* "-" between the parts */
	bool per_thread; /* "comm [tid]" frame under the process */
	bool annotate;
	uint32_t depth; /* a stack this deep is truncated */
	bool no_hotspot; /* no HotSpot walk: Java frames left to the maps */
	bool probe_leaf; /* method entry stacks: cut the probe's own frames */
	bool lines; /* Java frames as "Class.method:LINE" (compiled ones) */
	/* Java frames typed with their bytecode index (fold.h: a frame's
	 * identity, not its text; JFR writes it), interpreted ones with
	 * lines only (the walk records their bci then) */
	bool bci;
	/* name each compiled frame by the perf map too and count whether
	 * the two agree (MIXPROF_NAMES_CHECK: the agent's inline ranges as
	 * the ground truth of the same samples) */
	bool check_names;
};

/* Per-run counts of samples (not keys) that lost something. */
struct stackfold_stats {
	uint64_t truncated; /* a stack hit depth */
	uint64_t user_samples; /* samples with a user stack */
	uint64_t root_samples; /* ... whose stack reaches a thread's root */
	uint64_t broken[UNWIND_NR]; /* ... whose walk broke, by reason */
	uint64_t user_lost; /* user stack missing from the stack map */
	uint64_t kern_lost; /* kernel stack missing */
	/* interpreted frames (frames and samples, weighted by count) */
	uint64_t interp_named; /* frames named by their Java method */
	uint64_t interp_unnamed; /* frames left as "Interpreter" */
	uint64_t interp_samples; /* samples with an interpreted frame */
	uint64_t interp_unnamed_samples; /* ... with one left "Interpreter" */
	uint64_t interp_jvms; /* JVMs whose frames are walked */
	uint64_t interp_misaligned; /* listed frames not where their pc is */
	uint64_t interp_unreadable; /* listed frames without readable names */
	uint64_t interp_chunks_gone; /* deep lists missing chunks (jstacks.h) */
	/* compiled frames named from the JVM's memory (jvm/jstacks.h), per
	 * naming (a kept part is not named again) */
	uint64_t compiled_named, compiled_stale, compiled_failed;
	/* check_names: namings of compiled frames the map also named, and
	 * of them those whose method chain differs */
	uint64_t check_same, check_diff;
	/* frames the symbolizer counted unknown that a CodeBlob named */
	uint64_t stubs_fresh;
	/* JVMs whose metadata jnamer cannot read (jvm/jvms.h), the last one */
	uint64_t no_names;
	uint32_t no_names_pid;
	int no_names_err;
	uint64_t over; /* interp_stats' */
	uint32_t over_pid;
	const char *over_why;
	/* frames named from the cache of named stacks, and of them unknown
	 * (the symbolizer's stats count the frames it named) */
	uint64_t frames, frames_unknown;
};

struct stackfold;

/* Per process: samples with a user stack, and of them reaching a root;
 * early: of those, walked before the unwind rows they needed were
 * loaded (UNWIND_MARK_NOROWS); first: taken up to the time set by
 * stackfold__first_until (a run's first second: what rows on demand
 * must already serve). */
struct stackfold_root {
	uint32_t pid; /* 0: an empty slot */
	uint64_t samples, root;
	uint64_t early, early_root;
	uint64_t first, first_root;
};

/*
 * src (copied; NULL: no stacks) is the sampler's, or a test's fake; in
 * names Java frames (NULL: none) and is the caller's, who tells it of
 * new keys (jstacks__seen) before their lines are asked for.
 */
struct stackfold *stackfold__new(const struct stackfold_cfg *cfg,
				 const struct stacksrc *src,
				 struct symbolizer *sym, struct jstacks *js);
void stackfold__free(struct stackfold *sf);
/*
 * A --lock run's: its keys' lock frames (sampler/lock.h) are named by ln
 * (the caller's) as their leaves.
 */
struct locknames;
void stackfold__locks(struct stackfold *sf, struct locknames *ln);
/*
 * Key k was seen (new in the counts map): its lock frames named now,
 * while the JVM runs (a launched one may be gone when k is taken).
 */
void stackfold__lock_seen(struct stackfold *sf, const struct sample_key *k);

/*
 * Name k (count samples) as of when_ns: its frames, whose text the
 * writers use and nobody splits again (fold.h). targets__comm (NULL if
 * unknown) names the process frame with --per-thread, and that of keys
 * without a comm (threads other than the main one); container (NULL:
 * none) is the process's container id, a "[container ID]" frame under
 * the process frame (common/cgroup.h). Valid until the next call. NULL
 * and errno on failure.
 */
const struct fold_stack *stackfold__stack(struct stackfold *sf,
					  const struct sample_key *k,
					  uint64_t count, uint64_t when_ns,
					  const char *targets__comm,
					  const char *container);
/* The same without container, as its folded text (the tests'). */
const char *stackfold__line(struct stackfold *sf, const struct sample_key *k,
			    uint64_t count, uint64_t when_ns,
			    const char *targets__comm);
const struct stackfold_stats *stackfold__stats(const struct stackfold *sf);
/*
 * The per-process counts: a table of the returned size in *out, empty
 * slots with pid 0; valid until the next stackfold__stack().
 */
size_t stackfold__roots(const struct stackfold *sf,
			const struct stackfold_root **out);
/*
 * Samples named as of a time up to end_ns (CLOCK_MONOTONIC) count in
 * struct stackfold_root's first, first_root (0, the default: none).
 */
void stackfold__first_until(struct stackfold *sf, uint64_t end_ns);

/*
 * Is the frame named name..name+len one a thread's stack begins with
 * (start_thread, clone, _start...): a walk that reached it is whole.
 */
bool stackfold__is_root(const char *name, size_t len);

/*
 * The counts of forgotten processes (stackfold__forget): their totals,
 * those of the ones that had unwind rows then, and the GONE_TOP with the
 * most samples (empty slots with pid 0).
 */
#define GONE_TOP 10
struct stackfold_gone {
	uint64_t procs, with_rows;
	struct stackfold_root rows; /* summed over with_rows; pid 0 */
	struct stackfold_root top[GONE_TOP];
};

/*
 * pid's keys are all taken (run_tick.c): its counts leave the per-process
 * table for the totals above (rows: it had unwind rows), so the table
 * holds live processes only, not every pid a host-wide run ever saw.
 */
void stackfold__forget(struct stackfold *sf, uint32_t pid, bool rows);
const struct stackfold_gone *stackfold__gone(const struct stackfold *sf);

/*
 * Frames the symbolizer counted unknown, less the stubs a CodeBlob named
 * of them (struct stackfold_stats.stubs_fresh): the unknown shown.
 */
static inline uint64_t stackfold__less_stubs(uint64_t unknown, uint64_t stubs)
{
	return unknown - (stubs < unknown ? stubs : unknown);
}

/* Bytes its cache of named stacks holds, and the cache's budget. */
size_t stackfold__cache_bytes(const struct stackfold *sf, size_t *budget);

#endif
