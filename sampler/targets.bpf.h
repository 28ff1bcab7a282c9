/*
 * targets.bpf.h: the maps sampler.bpf.c and fork.bpf.c share (user space
 * loads fork.bpf.c on the sampler's fds), defined once for both.
 */
#ifndef MIXPROF_TARGETS_BPF_H
#define MIXPROF_TARGETS_BPF_H

/* tgids to sample when filter_pids; descendants are added on fork */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* memory as targets come */
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 65536);
} targets SEC(".maps");

/* per-CPU counters, indexed by STAT_* (sampler_abi.h) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, STAT_NR);
} stats SEC(".maps");

static __always_inline void stat_inc(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		(*v)++;
}

#endif
