/*
 * memo.bpf.h: per-CPU memos as one plain array: a memo of SLOTS slots a CPU is a
 * BPF_MAP_TYPE_ARRAY declared with max_entries = SLOTS, which the loader
 * multiplies by the possible CPUs before load (sampler.c, size_maps), and
 * a CPU's slot s is entry cpu * SLOTS + s. A per-CPU array of the same
 * slots cost one per-CPU allocation per slot when the map was created
 * (pcpu_alloc for each of ~12,000 slots: 8% of a short run's CPU), where
 * this is one allocation. A memo is a cache: a program nested on the same
 * CPU could see a slot half-written, as it could in a per-CPU array, and
 * every memo checks its entry's key before using it. Included by
 * sampler.bpf.c and unwind.bpf.h after the helpers.
 */
#ifndef MIXPROF_MEMO_BPF_H
#define MIXPROF_MEMO_BPF_H

/*
 * CPU cpu's slot (slot & (slots - 1)) of memo, a map of slots slots a CPU
 * (a power of 2), or NULL. cpu is bpf_get_smp_processor_id()'s, or the
 * walk record's copy of it where a call's clobbered registers would grow
 * the caller's stack frame (the walk's chain has 512 bytes on 6.1). The
 * array's lookup checks the index against the map's size.
 */
static __always_inline void *memo__slot(void *memo, __u32 slots, __u32 cpu,
					__u32 slot)
{
	__u32 i = cpu * slots + (slot & (slots - 1));

	return bpf_map_lookup_elem(memo, &i);
}

/* The same, its index in *i (map memory: not a slot of the caller's stack) */
static __always_inline void *memo__at(void *memo, __u32 slots, __u32 cpu,
				      __u32 slot, __u32 *i)
{
	*i = cpu * slots + (slot & (slots - 1));
	return bpf_map_lookup_elem(memo, i);
}

#endif
