/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vthread.bpf.h: the BPF half of jvm/vthread.h, included by the sampler's
 * walk (sampler.bpf.c). A virtual thread's lowest thawed frame returns
 * into the continuation return barrier (interp_proc.barrier_lo/hi); its
 * callers are frozen in heap stack chunks, not on the carrier's stack, so
 * the walk stops there with UNWIND_FROZEN ("[frozen frames]") instead of
 * following the barrier's frame pointer to the carrier's Continuation.run.
 */
#ifndef MIXPROF_VTHREAD_BPF_H
#define MIXPROF_VTHREAD_BPF_H

/* Is ip the barrier's code (a frame returning there, or a leaf in it)? */
static __always_inline bool vthread__frozen(const struct interp_proc *p,
					    __u64 ip)
{
	return p && ip >= p->barrier_lo && ip < p->barrier_hi;
}

#endif
