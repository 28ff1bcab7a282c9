/*
 * phases.bpf.h: the phase timer of a BPF_PHASES=1 build (phases.h): each
 * phase's time (bpf_ktime_get_ns around it) and count added to this
 * CPU's row of the `phases` array, which user space sums (-v). Built
 * without it (the default), the macros are empty: no clock read, no map
 * (nothing the verifier or a sample pays for). Included by sampler.bpf.c
 * after the helpers.
 */
#ifndef MIXPROF_PHASES_BPF_H
#define MIXPROF_PHASES_BPF_H

#include "phases.h"

#ifdef MIXPROF_PHASES
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct phase_stat);
	__uint(max_entries, PH_NR);
} phases SEC(".maps");

static __always_inline void phase_add(__u32 ph, __u64 t0)
{
	struct phase_stat *s = bpf_map_lookup_elem(&phases, &ph);

	if (s) {
		s->ns += bpf_ktime_get_ns() - t0;
		s->n++;
	}
}

/* a clock read into a new variable v; then v's time added to phase ph */
#define PHASE_START(v) __u64 v = bpf_ktime_get_ns()
#define PHASE_END(ph, v) phase_add(ph, v)
/* the kind of the step being walked (walk_step times it by kind) */
#define PHASE_KIND(w, k) ((w)->ph_kind = (k))
#else
#define PHASE_START(v)
#define PHASE_END(ph, v)
#define PHASE_KIND(w, k) ((void)0)
#endif

#endif
