/*
 * sampler.h: the types the BPF sampler (sampler.bpf.c) and user space
 * (sampler.c) share. Fixed-width types only, explicit padding, no
 * includes: the BPF side gets __u32/__u64 from vmlinux.h, user space from
 * <linux/types.h>; user space _Static_asserts the sizes.
 */
#ifndef MIXPROF_SAMPLER_H
#define MIXPROF_SAMPLER_H

#define SAMPLER_COMM_LEN 16

/*
 * One counted stack: the counts map is key -> __u64 samples. Samples of
 * one bucket (a bucket_ns slice of time since start_ns) share keys, so the
 * map holds one entry per distinct stack per bucket, and user space drains
 * whole buckets once no sample can hit them any more.
 */
struct sample_key {
	__u32 pid; /* tgid */
	__u32 tid; /* 0 unless per-thread */
	__s32 user_stack_id; /* stack map id, or negative errno */
	__s32 kern_stack_id; /* stack map id, or negative errno */
	__u64 bucket; /* (ktime - start_ns) / bucket_ns */
	__u64 interp_id; /* reserved: interpreted frames, 0 for now */
	char comm[SAMPLER_COMM_LEN];
};

/* Per-CPU counters for the end-of-run summary: index into stats map. */
enum sampler_stat {
	STAT_SAMPLES, /* samples of targeted processes */
	STAT_USER_LOST, /* user stack not stored (map full/collision) */
	STAT_KERN_LOST, /* kernel stack not stored */
	STAT_USER_EMPTY, /* no user stack (kernel thread, fault) */
	STAT_COUNTS_FULL, /* counts map full: sample dropped */
	STAT_CHILDREN, /* descendants added to the targets */
	STAT_NR,
};

#endif
