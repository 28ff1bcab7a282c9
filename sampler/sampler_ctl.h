/*
 * sampler_ctl: user space of the BPF sampler. Loads sampler.bpf.c with
 * the run's configuration, opens a timed perf event per online CPU with
 * the program attached, and hands finished buckets of the counts map to
 * the caller (the drain). Nothing here prints except through libbpf's
 * print callback; errors come back as negative errno.
 */
#ifndef MIXPROF_SAMPLER_CTL_H
#define MIXPROF_SAMPLER_CTL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "phases.h"
#include "sampler_abi.h"

struct sampler_cfg {
	uint64_t freq; /* Hz per CPU */
	uint64_t bucket_ns;
	uint32_t counts_size; /* counts map entries */
	uint32_t depth; /* frames per stack */
	bool filter_pids; /* only targets (and their descendants) */
	bool per_thread;
	bool user, kernel; /* which stacks to take */
	bool no_hotspot; /* skip the HotSpot walk (interpreted and compiled
			  * frames: JVMs are then walked by fp) */
	uint32_t unwind_mode; /* enum unwind_mode (sampler_abi.h) */
	/* each rows step the frame-record bitmap would take checked against
	 * its row, and counted (STAT_ROWS_FP*: a test's switch) */
	bool rows_verify;
	bool usdt; /* a probe run: sampler__attach_usdt, no perf events */
	/* --off-cpu: no perf events; at each sched_switch of a target that
	 * blocks, count its blocked time in microseconds (offcpu.bpf.h) */
	bool off_cpu;
	bool off_cpu_preempt; /* runnable (preempted) switches count too */
	/* --wall: off_cpu (with off_cpu_preempt) and perf events at freq
	 * whose samples count 1 s / freq in microseconds */
	bool wall;
	bool alloc; /* --alloc: sampler__attach_alloc, no perf events */
	bool lock; /* --lock: sampler__attach_lock, no perf events */
	uint64_t min_block_ns, max_block_ns; /* 0: no bound */
	const int *cpus;
	int nr_cpus;
};

struct sampler;

/* What a step that failed was doing: the kind of hook decides the fix. */
enum sampler_step {
	SAMPLER_STEP_LOAD, /* loading a BPF object (the verifier, maps) */
	SAMPLER_STEP_PERF_OPEN, /* perf_event_open of a sampling event */
	SAMPLER_STEP_PERF_ATTACH, /* a perf_event program on that event */
	SAMPLER_STEP_TP_BTF, /* a BTF-typed tracepoint (needs the BTF) */
	SAMPLER_STEP_RAW_TP, /* a raw tracepoint */
	SAMPLER_STEP_TRACEPOINT, /* a tracepoint by its tracefs id (none of
				  * ours: a host without tracefs fails it) */
	SAMPLER_STEP_UPROBE, /* a uprobe on a library's symbol */
	SAMPLER_STEP_USDT, /* a USDT probe (a uprobe at its note) */
	SAMPLER_STEP_SETUP, /* user space's part (memory, ring, rows) */
};

/*
 * The step that failed, for the caller to report: prog is the program
 * (for a load: the program or map libbpf named, else the BPF object;
 * for a setup: "sampler"), event what it was being attached to ("perf
 * event cycles on CPU 3", "tp_btf/sched_switch"...; for a load: the
 * object, or what was done to it; for a setup: what was being set up),
 * err a positive errno. Empty (err 0) until something fails.
 */
struct sampler_fail {
	enum sampler_step step;
	char prog[64];
	char event[128];
	int err;
};

/*
 * Open and load (nothing runs yet). NULL and errno (-EPERM: privilege);
 * then *fail (when not NULL) says which object or program and why.
 */
struct sampler *sampler__new(const struct sampler_cfg *cfg,
			     struct sampler_fail *fail);
/*
 * Add a tgid to the targets (before attach, or any time after). Its frames
 * are walked "pending" (sampler_abi.h) until set_interp or clear_interp.
 */
int sampler__add_target(struct sampler *s, uint32_t pid);
/*
 * The sampling perf event a run opens on cpu, every process's, at freq
 * Hz: hardware cycles (hw) or software cpu-clock. An fd (close it) or
 * -1 and errno; for `mixprof check` too.
 */
int sampler__open_event(int cpu, uint64_t freq, bool hw);
/*
 * Start sampling, with bucket 0 starting at start_ns (CLOCK_MONOTONIC,
 * not later than now). 0 or negative errno.
 */
int sampler__attach(struct sampler *s, uint64_t start_ns);
/*
 * A probe run (cfg.usdt): count the user stack at each hit of USDT
 * provider:name in path (the agent library as the host sees it) in
 * process pid, with bucket 0 starting at start_ns. Keys are those of
 * samples (kern_stack STACK_NONE), drained the same way; one hit
 * is one count. Undone by sampler__detach. 0 or negative errno.
 */
int sampler__attach_usdt(struct sampler *s, uint64_t start_ns, int pid,
			 const char *path, const char *provider,
			 const char *name);
/*
 * --alloc (cfg.alloc): count the bytes process pid allocates, by stack
 * and class (alloc.h), through uprobes on libjvm (its path as the host
 * sees it), with bucket 0 starting at start_ns. Undone by
 * sampler__detach. 0 or negative errno (-ENOENT: no such hook).
 */
int sampler__attach_alloc(struct sampler *s, uint64_t start_ns, int pid,
			  const char *libjvm);
/*
 * --lock (cfg.lock): count the nanoseconds the threads of process pid
 * wait to enter a contended monitor or to take a j.u.c. lock, by stack
 * and lock (lock.h), through uprobes and uretprobes on libjvm (its path
 * as the host sees it; cfg read from the JVM: jvm/jlocks.h), with bucket
 * 0 starting at start_ns. Undone by sampler__detach. 0 or negative
 * errno (-ENOENT: no such function).
 */
struct lock_cfg;
int sampler__attach_lock(struct sampler *s, uint64_t start_ns, int pid,
			 const char *libjvm, const struct lock_cfg *cfg);
/*
 * --off-cpu, --wall: count the waits of process pid's virtual threads,
 * unmounted from their freeze to their next mount, under their stack at
 * the freeze (vtwait.bpf.h), through uprobes at these file offsets of
 * libjvm (its path as the host sees it): its freeze functions (nfreeze
 * of them) and its thaw. All or none; undone by sampler__detach. 0 or
 * negative errno (-EINVAL: not an off-CPU run).
 */
int sampler__attach_vtwait(struct sampler *s, int pid, const char *libjvm,
			   const uint64_t *freeze, int nfreeze, uint64_t thaw);
/*
 * AbstractOwnableSynchronizer's Klass* and owner field in cfg, found after
 * the attach (the class was not loaded then): j.u.c. locks are counted
 * from now on.
 */
void sampler__lock_juc(struct sampler *s, const struct lock_cfg *cfg);
/* "cycles", "cpu-clock", "sched_switch" or "jmap:method_entry" once
 * attached. */
const char *sampler__event_name(const struct sampler *s);
/*
 * After a failed sampler__attach*: the step that failed (the last one
 * tried). Owned by s.
 */
const struct sampler_fail *sampler__failure(const struct sampler *s);
/*
 * What the sampler took instead of what it wanted ("no hardware cycles
 * event (ENOENT): cpu-clock instead"), or NULL: for -v and check.
 */
const char *sampler__fallback(const struct sampler *s);
/* Stop sampling: close the perf events and the fork hook. */
void sampler__detach(struct sampler *s);
void sampler__free(struct sampler *s);

/*
 * The drain, as batches the run loops over. sampler__drain() reads what
 * the sampler gathered since the last call into *b:
 * - seen: every key added to the counts map since then (to learn new
 *   pids early), once or (rarely) twice; its stacks are copied out of
 *   the kernel the first time they appear (stackcache.h);
 * - kips: the frames of kernel stacks copied for the first time, as
 *   they are named: the leaf's pc, each caller's return address - 1;
 * - taken: when the oldest bucket with keys left is below done_below,
 *   every key of a bucket below done_below, with its count (counts[i])
 *   and events (events[i]: struct sample_count),
 *   deleted from the counts map. final (sampling stopped): read every
 *   key left, even one whose ring record was still being written when
 *   the ring was read (pass done_below UINT64_MAX to take them all).
 * The batch, and the stacks and interpreted-frame lists its keys name,
 * stay valid until sampler__drain_end(), which the caller calls once it
 * has named the taken keys: only then are the stacks and lists no key
 * refers to any more deleted from the kernel. Returns the number taken,
 * or -errno.
 */
struct sampler_batch {
	const struct sample_key *seen;
	size_t nseen;
	const uint64_t *kips;
	size_t nkips;
	const struct sample_key *taken;
	const uint64_t *counts;
	const uint64_t *events;
	size_t ntaken;
};
int sampler__drain(struct sampler *s, uint64_t done_below, bool final,
		   struct sampler_batch *b);
void sampler__drain_end(struct sampler *s);

/*
 * A stack key of a key in the drain's batch (sample_key.user_stack or
 * kern_stack) -> its frames, leaf first, in *ips (valid until
 * sampler__drain_end); returns their number, or -ENOENT for STACK_NONE, STACK_LOST
 * and a stack that was gone from the kernel before it could be read.
 */
int sampler__stack(struct sampler *s, uint64_t key, const uint64_t **ips);

/*
 * Interpreted frames (see sampler_abi.h): walk pid's frames for the
 * interpreter described by p (set_interp), or stop (clear_interp).
 * 0 or -errno.
 */
int sampler__set_interp(struct sampler *s, uint32_t pid,
			const struct interp_proc *p);
int sampler__clear_interp(struct sampler *s, uint32_t pid);
/*
 * The list of interpreted and compiled frames sent under id (a
 * sample_key's interp_id) into *out (its nr frames); 0, or -ENOENT when
 * gone. Lists live until their keys are taken.
 */
int sampler__interp(struct sampler *s, uint64_t id, struct interp_stack *out);
/* A chunk of a deep list (its prev link), as sampler__interp. */
int sampler__interp_chunk(struct sampler *s, uint64_t key,
			  struct interp_stack *out);
/*
 * Java thread tid of JVM tgid: its JavaThread* (the unwinder's frame
 * anchors, looked up by the sampled thread's own tgid and tid), or forget
 * it. 0 or negative errno (-E2BIG: the map is full). The caller checks
 * that tid is a thread of tgid (jvm/jthreadsync.h).
 */
int sampler__set_thread(struct sampler *s, uint32_t tgid, uint32_t tid,
			uint64_t thread);
int sampler__clear_thread(struct sampler *s, uint32_t tgid, uint32_t tid);

/*
 * Native unwind rows (unwind/loader.h) of process pid: loaded when first
 * asked, reloaded after an exec or when its mappings change, by the
 * loader's thread (this only asks). A run without rows (frame pointers
 * only, probes) does nothing. Returns 0.
 */
int sampler__unwind_refresh(struct sampler *s, uint32_t pid, uint64_t now_ns);
/* The same for a target (-p, launched): its files' rows are built before
 * its samples ask (after what samples ask for; unwind/loader.h). */
int sampler__unwind_target(struct sampler *s, uint32_t pid);
/* pid exited, its samples all taken: its table goes (unwind/loader.h). */
void sampler__unwind_forget(struct sampler *s, uint32_t pid);
/* Wait until the rows asked for are loaded (before sampling starts), at
 * most max_ns. */
void sampler__unwind_wait(struct sampler *s, uint64_t max_ns);
/* The loader's costs; false when the run has no rows. */
struct unwind_loader_stats;
bool sampler__unwind_stats(struct sampler *s, struct unwind_loader_stats *st);
/* The i-th file whose rows were built (unwind/loader.h), or false. */
struct unwind_built;
bool sampler__unwind_built(struct sampler *s, size_t i,
			   struct unwind_built *out, char *path, size_t cap);
/* Mappings in pid's table now (files with rows, or pending: rows on
 * demand), or -ENOENT (none, no rows). */
int sampler__unwind_proc_maps(struct sampler *s, uint32_t pid);

/*
 * An off-CPU or wall run's waits still open at end_ns (threads switched
 * out and not back yet): each counted up to end_ns in its bucket, with
 * the stacks of its switch out. Call after sampler__detach, before the
 * last drain. *closed: the waits so counted. 0 (nothing to do for other
 * runs) or -errno.
 */
int sampler__offcpu_end(struct sampler *s, uint64_t end_ns, uint64_t *closed);

/* BPF counters summed over CPUs, indexed by enum sampler_stat. */
int sampler__stats(struct sampler *s, uint64_t out[STAT_NR]);

/*
 * A BPF_PHASES=1 build's phase timer (phases.h): each phase's time and
 * count summed over CPUs into out, indexed by enum phase. -ENOENT: a
 * build without it; or -errno.
 */
int sampler__phases(struct sampler *s, struct phase_stat out[PH_NR]);

/*
 * The run time and run count the kernel counted for the sampler's loaded
 * programs, summed (a perf_event program runs at every tick of every
 * CPU, other tasks' too): 0, both 0 when kernel.bpf_stats_enabled is off;
 * or -errno.
 */
int sampler__bpf_time(struct sampler *s, uint64_t *ns, uint64_t *runs);

#endif
