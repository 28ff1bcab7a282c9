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
#include <stdint.h>
#include "sampler.h"

struct sampler_cfg {
	uint64_t freq; /* Hz per CPU */
	uint64_t bucket_ns;
	uint32_t stack_storage; /* stack map entries */
	uint32_t counts_size; /* counts map entries */
	uint32_t depth; /* frames per stack */
	bool filter_pids; /* only targets (and their descendants) */
	bool per_thread;
	bool user, kernel; /* which stacks to take */
	const int *cpus;
	int nr_cpus;
};

struct sampler;

/* Open and load (nothing runs yet). NULL and errno (-EPERM: privilege). */
struct sampler *sampler__new(const struct sampler_cfg *cfg);
/* Add a tgid to the targets (before attach, or any time after). */
int sampler__add_target(struct sampler *s, uint32_t pid);
/*
 * Start sampling, with bucket 0 starting at start_ns (CLOCK_MONOTONIC,
 * not later than now). 0 or negative errno.
 */
int sampler__attach(struct sampler *s, uint64_t start_ns);
/* "cycles" or "cpu-clock" once attached. */
const char *sampler__event_name(const struct sampler *s);
/* Stop sampling: close the perf events and the fork hook. */
void sampler__detach(struct sampler *s);
void sampler__free(struct sampler *s);

/*
 * The drain. Every key now in the counts map is shown to seen() (to learn
 * new pids early); keys done(key) says are finished are shown to take()
 * with their count and deleted, and stacks only they used are deleted
 * from the stack map afterwards. Returns the number taken, or -errno.
 */
struct sampler_drain_ops {
	void (*seen)(const struct sample_key *k, void *ctx);
	bool (*done)(const struct sample_key *k, void *ctx);
	void (*take)(const struct sample_key *k, uint64_t count, void *ctx);
	void *ctx;
};
int sampler__drain(struct sampler *s, const struct sampler_drain_ops *ops);

/*
 * Stack id -> ips (leaf first) into ips[0..depth); returns the number of
 * frames, or -ENOENT when the stack is gone.
 */
int sampler__stack(struct sampler *s, int32_t id, uint64_t *ips);

/* BPF counters summed over CPUs, indexed by enum sampler_stat. */
int sampler__stats(struct sampler *s, uint64_t out[STAT_NR]);

#endif
