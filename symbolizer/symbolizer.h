/*
 * symbolizer: turns sampled addresses into frame names.
 *
 * One object serves a whole run: it knows every process it has been told
 * about (its mappings, its ELF files, its JIT map) and the kernel. Each file
 * is parsed once per run; lookups are binary searches over sorted ranges.
 *
 * Time: every timestamp is CLOCK_MONOTONIC nanoseconds, the clock
 * bpf_ktime_get_ns() reads, so sample times compare with it directly.
 *
 * Ownership: names returned in struct frame belong to the symbolizer and
 * stay valid until symbolizer__free(), symbolizer__forget() of their pid or
 * symbolizer__expire() (the JIT lines and ELF files it drops), whichever
 * comes first: copy them before either. Nothing here prints; errors come back as negative errno
 * and the caller reports them.
 */
#ifndef MIXPROF_SYMBOLIZER_H
#define MIXPROF_SYMBOLIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum frame_kind {
	FRAME_JAVA, /* JIT-compiled Java method (outermost of an inline chain) */
	FRAME_INLINED, /* Java method inlined into the frame above it */
	FRAME_INTERP, /* interpreted Java method (named by Method*) */
	FRAME_STUB, /* JVM-generated code: Interpreter, call stubs, adapters */
	FRAME_NATIVE, /* ELF symbol: C, demangled C++, vdso */
	FRAME_KERNEL, /* kernel or module symbol */
	FRAME_UNKNOWN, /* "[libfoo.so]" (known file, no symbol) or "[unknown]" */
};

struct frame {
	const char *name;
	enum frame_kind kind;
};

struct symbolizer_opts {
	const char *map_dir; /* where JIT maps live inside the target's
				 * mount namespace; NULL means "/tmp" */
	bool no_inline; /* keep "a->b->c" as one frame */
	/* Added after v1; zero means the default. */
	const char *debug_root; /* separate debuginfo; NULL: /usr/lib/debug */
	uint64_t jit_slack_ns; /* see "JIT time rule"; 0: 10 ms */
};

struct symbolizer;

/*
 * NULL and errno on failure (EINVAL: map_dir not absolute, ENOMEM).
 * opts may be NULL for the defaults.
 */
struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts);
void symbolizer__free(struct symbolizer *s);

/*
 * Learn about process pid now (CLOCK_MONOTONIC now_ns): read its mappings,
 * open the files they name (so the process may exit afterwards), and read
 * whatever its JIT map gained since the last call, stamping new entries
 * with now_ns. Cheap to call often: only new data is read.
 * Returns 0, or -ESRCH when the process is gone and was never seen.
 */
int symbolizer__refresh(struct symbolizer *s, uint32_t pid, uint64_t now_ns);

/*
 * Name user address ip of process pid as it stood at time when_ns (the
 * sample's time): JIT code is named by the map entry that covered ip then,
 * not by whatever covers it at the end. Fills out[0..n) outermost first (an
 * inline chain gives several frames) and returns n >= 1; unknown addresses
 * still give one FRAME_UNKNOWN frame. max must be >= 1 (else -EINVAL).
 *
 * Addresses in file-backed mappings are named by ELF symbols (C++
 * demangled without parameter lists: "JavaCalls::call_helper"), else
 * "[libfoo.so]"; [vdso] by the kernel's vdso ("__vdso_clock_gettime");
 * all other memory (anonymous, memfd) by the JIT map, else "[name]" of a
 * non-ELF file or "[unknown]". A pid never refreshed is refreshed once on
 * its first lookup; an ip outside every known mapping re-reads the maps
 * once per refresh while the process lives (never after it is gone: what
 * refresh saw stays). Not thread-safe: one thread uses one symbolizer.
 *
 * JIT time rule. Each map line is stamped by the refresh that read it and
 * carries "lower", the time of the refresh before that one for the same
 * file (0 when it is the file's first read): the line was written in
 * (lower, stamp]. For a sample at when_ns, an entry covering ip is
 * eligible when lower < when_ns + jit_slack_ns, i.e. its code may already
 * have existed at the sample; among eligible entries the one written last
 * in the file wins. Hence (a) code reusing an address after unloading
 * names only samples later than the poll before it was read (plus slack),
 * older samples keep the old name; (b) code compiled just before a sample
 * and read at the next poll is still named, however long the poll
 * interval; (c) inline sub-range lines written after their method's line
 * override it there. The slack covers code that runs before its line is
 * written (JVMTI posts CompiledMethodLoad after installing the code).
 * If no covering entry is eligible, the frame is "[unknown]".
 */
int symbolizer__user(struct symbolizer *s, uint32_t pid, uint64_t ip,
		     uint64_t when_ns, struct frame *out, int max);

/*
 * What names pid's addresses for samples at when_ns, so callers can keep
 * names: two lookups under equal versions name every address alike
 * (FRAME_UNKNOWN frames aside: a later miss may re-read the maps). gen
 * changes with the process's executable mappings, a replaced or stale JIT
 * map, pid reuse; it is 0 when nothing can be promised (an unknown
 * process, a JIT map read again from its start). jit counts the JIT map
 * lines eligible at when_ns (the time rule below).
 */
struct symbolizer_version {
	uint64_t gen, jit;
};
void symbolizer__version(struct symbolizer *s, uint32_t pid, uint64_t when_ns,
			 struct symbolizer_version *v);
/*
 * Are addresses ips[0..n) of pid named alike under versions a and b (as
 * looked up: return addresses minus one)? Also true when only JIT lines
 * that cover none of them told them apart.
 */
bool symbolizer__same_names(struct symbolizer *s, uint32_t pid,
			    const struct symbolizer_version *a,
			    const struct symbolizer_version *b,
			    const uint64_t *ips, size_t n);
/*
 * Name kernel address ip; always one frame: FRAME_KERNEL (module symbols
 * without their "[module]"), or FRAME_UNKNOWN "[kernel.kallsyms]" below
 * the first text symbol or far past a symbol. Names come from the kernel
 * source when one is set (below), else (and for any address it cannot
 * name) from /proc/kallsyms, read on first need, once.
 */
int symbolizer__kernel(struct symbolizer *s, uint64_t ip, struct frame *out);

/*
 * Use this kallsyms text instead of /proc/kallsyms (tests, offline runs).
 * Call before the first symbolizer__kernel(). 0 or -errno.
 */
int symbolizer__load_kallsyms(struct symbolizer *s, const char *text,
			      size_t len);

/*
 * A source of kernel names cheaper than all of /proc/kallsyms: name(ctx,
 * ips, n, out) with n <= SYMBOLIZER_KSYM_BATCH stores in out[i] the name
 * of the symbol holding ips[i] (no offset, no module), or NULL when it
 * has none; the strings need live only until the next call. 0, or -errno
 * to give up: /proc/kallsyms is used from then on.
 */
#define SYMBOLIZER_KSYM_BATCH 128
struct ksym_source {
	int (*name)(void *ctx, const uint64_t *ips, size_t n, const char **out);
	void *ctx;
};
void symbolizer__kernel_source(struct symbolizer *s,
			       const struct ksym_source *src);
/*
 * Kernel address ip will be named soon: with a source, addresses are
 * named in batches, all those wanted so far on the next lookup that
 * misses the cache.
 */
void symbolizer__kernel_want(struct symbolizer *s, uint64_t ip);

/*
 * Memory of a long run. The caller knows when names are no longer asked
 * for; both calls void the names handed out before for what they drop.
 *
 * forget: pid's samples are all named (it exited, its last keys were
 * taken): free what names its addresses. A later call about pid starts
 * afresh, as for a new process (versions never repeat).
 *
 * expire: no lookup will come for a sample time before before_ns: JIT
 * lines of code that was freed and replaced at its address before then
 * (jitmap__expire) are dropped, in maps that doubled since their last
 * expiry (so each line is looked at a bounded number of times); every
 * tenth call, the ELF files no process record maps any more are freed
 * (parsed again if a process maps them again).
 */
void symbolizer__forget(struct symbolizer *s, uint32_t pid);
void symbolizer__expire(struct symbolizer *s, uint64_t before_ns);

/* Counters for the end-of-run summary. */
struct symbolizer_stats {
	uint64_t map_lines_bad; /* JIT map lines skipped as malformed */
	uint64_t maps_stale; /* maps ignored: older than their process */
	uint64_t maps_refused; /* maps ignored: a link, not a regular file,
				* another user's or too big (said once per
				* process on stderr) */
	uint64_t frames; /* frames resolved */
	uint64_t frames_unknown; /* of which FRAME_UNKNOWN */
	uint64_t jit_gap_max_ns; /* longest time between two reads of
					 * one JIT map: new code at a reused
					 * address may name samples up to this
					 * (plus the slack) before it came */
	uint64_t jit_expired; /* JIT lines dropped by symbolizer__expire */
	uint64_t jit_over; /* JIT lines skipped: JITMAP_MAX_LINES held */
	uint64_t procs_forgotten; /* by symbolizer__forget */
	uint64_t elfs_freed; /* ELF files no process maps, by __expire */
};
void symbolizer__stats(const struct symbolizer *s, struct symbolizer_stats *st);

#endif
