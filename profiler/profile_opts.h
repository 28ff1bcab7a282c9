/*
 * profile_opts: the profile command line, parsed into struct profile_opts.
 * A pure parser (no I/O besides getopt's state), so unit tests drive it.
 */
#ifndef MIXPROF_PROFILE_OPTS_H
#define MIXPROF_PROFILE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/nsec.h"

/* Exit codes of the profile command (documented in --help and README). */
enum profile_exit {
	EXIT_PROF_OK = 0, /* profiled; output written */
	EXIT_PROF_FAIL = 1, /* runtime failure (BPF, target, output) */
	EXIT_PROF_USAGE = 2, /* bad command line */
	EXIT_PROF_PERM = 3, /* missing privilege (CAP_BPF, CAP_PERFMON) */
};

/* -e patterns per run */
#define PROFILE_MAX_PROBES 32

/* -o's format: folded text or gzipped profile.proto */
enum profile_format {
	PROFILE_FORMAT_AUTO,
	PROFILE_FOLDED,
	PROFILE_PPROF,
	PROFILE_JFR
};

struct linefilter;

struct profile_opts {
	uint32_t *pids; /* -p, owned (free with profile_opts__release) */
	int nr_pids;
	uint64_t freq; /* -F, Hz */
	bool user_only; /* -U */
	bool kernel_only; /* -K */
	bool delimit; /* -d */
	bool per_thread;
	bool verbose;
	bool annotate; /* off with --no-annotate */
	bool tiers; /* --tiers: folded text keeps _[0] and _[1] */
	bool per_container; /* --per-container: "[container ID]" frame */
	bool lines; /* --lines */
	/* load the map agent (libjmap.so): --agent, or -e (probes need
	 * it) unless --no-attach; Java frames are named without it */
	bool attach;
	int agent_opt; /* 1: --agent, -1: --no-attach, 0: neither */
	uint32_t stack_storage; /* --stack-storage-size: no effect now */
	uint32_t counts_size; /* counts map entries */
	uint32_t stack_depth; /* frames kept per stack */
	bool stack_depth_set; /* by --stack-depth, not the default */
	uint64_t duration_ns; /* 0: until Ctrl-C or the target exits */
	uint64_t slice_ns; /* -i, 0: one profile */
	uint64_t bucket_ns; /* time resolution of the counts */
	const char *output; /* -o, NULL: stdout (see folded_stdout) */
	const char *svg; /* --svg FILE: the whole run as a flame graph */
	const char *html; /* --html FILE: the same, canvas page */
	const char *montage; /* --montage DIR: slices + DIR/index.html */
	const char *heatmap; /* --heatmap DIR: samples.timed, heatmap.html */
	const char *title; /* --title, NULL: made from the target */
	bool folded_stdout; /* no -o and nothing rendered: folded to stdout */
	enum profile_format format; /* --format, or from -o's name */
	struct linefilter *filter; /* -I -X --tid --thread, owned; NULL: none */
	bool quiet; /* -q: no start line, status or summary */
	char **cmd; /* after "--": command to launch, NULL-ended */
	/* -e: a probe run (no CPU sampling): stacks at each entry of the
	 * matching Java methods, or with --count only calls per method */
	const char *probes[PROFILE_MAX_PROBES]; /* -e patterns, argv's */
	int nr_probes;
	bool count; /* --count: a table, no stacks */
	bool freq_set; /* -F was given */
	/* --off-cpu: blocked time (us) at each switch out, not samples */
	bool off_cpu;
	bool off_cpu_preempt; /* --off-cpu-preempt: runnable switches too */
	uint64_t min_block_ns, max_block_ns; /* --min/max-block; 0: none */
	/* --wall: per thread, CPU samples weighing 1 s / freq and off-CPU
	 * time (preemption included), all in microseconds */
	bool wall;
	/* --alloc: bytes allocated by stack and class, one JVM (-p) */
	bool alloc;
	/* --lock: nanoseconds waited for contended locks, by stack, lock
	 * class and owner, one JVM (-p, or a launched java) */
	bool lock;
	/* --events FILE: HotSpot's GC, safepoints, compilations... (one
	 * JVM: -p or a launched java), one line each */
	const char *events;
	bool ttsp; /* --ttsp: only samples in a safepoint's time to reach it */
};

/* Default slice of --montage without -i, and the heat map's bucket. */
#define MONTAGE_SLICE_NS (10 * NSEC_PER_SEC)
#define HEATMAP_BUCKET_MS 10
#define TTSP_BUCKET_MS 1 /* a time to safepoint lasts milliseconds */

/* Parsed without error; --help asked (usage to print, exit 0). */
enum { OPTS_OK = 0, OPTS_HELP = 1 };

/*
 * Parse argv (argv[0] is the program). Returns OPTS_OK or OPTS_HELP, or
 * -EINVAL with a one-line message naming the flag and value in err.
 */
int profile_opts__parse(struct profile_opts *o, int argc, char **argv,
			char *err, size_t errlen);
void profile_opts__release(struct profile_opts *o);
void profile_opts__usage(FILE *out, const char *prog);

/*
 * Seconds as text ("0.5", "30") to nanoseconds, at least min_ns.
 * 0 or -EINVAL. Shared by -i and the positional duration.
 */
int profile_opts__seconds(const char *s, uint64_t min_ns, uint64_t *ns);

#endif
