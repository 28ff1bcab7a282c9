/*
 * alloc.bpf.h: --alloc, uprobes on libjvm.so's allocation tracing hooks
 * (jvm/hsprobes.h names them, jvm/jalloc.bpf.h reads their arguments;
 * alloc.h: the class's frame), a part of sampler.bpf.c (included at its end, after
 * offcpu.bpf.h, whose weighted add it uses). Each hit counts the
 * allocating thread's user stack (the same walk as samples, from the
 * probe's registers) and the class as a one-frame "kernel" stack, by
 * bytes: a new TLAB stands for the TLAB's bytes (the hook fires once per
 * TLAB, so a site is seen in proportion to the bytes it allocates), an
 * allocation outside a TLAB for its own.
 */
#ifndef MIXPROF_ALLOC_BPF_H
#define MIXPROF_ALLOC_BPF_H

#include "alloc.h"
#include "jvm/jalloc.bpf.h"

/*
 * A uprobe's key (here and in lock.bpf.h), the per-CPU one: not one on
 * the program's stack, as 6.1 allows a call chain 512 bytes and the
 * walk's deepest path needs them (a uprobe's program and a sample's do
 * not run nested on one CPU). Its head and the user stack from the
 * probe's registers (the same walk as samples); NULL when not counted.
 */
static __always_inline struct sample_key *uprobe_key(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct sample_key *key;

	if (filter_pids && !bpf_map_lookup_elem(&targets, &tgid))
		return NULL;
	key = perf_key_get();
	if (!key)
		return NULL;
	stat_inc(STAT_SAMPLES);
	key_head(key, tgid, tid);
	key->user_stack =
	    walk_user(interp_proc_of(tgid), tgid, tid, PT_REGS_IP(ctx),
		      PT_REGS_SP(ctx), PT_REGS_FP(ctx), &key->interp_id);
	return key;
}

static __always_inline int alloc_count(struct pt_regs *ctx, __u64 klass,
				       __u64 bytes)
{
	struct sample_key *key = uprobe_key(ctx);
	__u64 *ips = stack_buf();

	if (!key || !ips)
		return 0;
	ips[0] = ALLOC_KLASS(klass & 0x0000ffffffffffffULL);
	key->kern_stack = store_stack(1, STAT_KERN_LOST, 0);
	offcpu_add(key, bytes);
	return 0;
}

SEC("uprobe")
int mixprof_alloc_tlab(struct pt_regs *ctx)
{
	return alloc_count(ctx, JALLOC_TLAB_KLASS(ctx), JALLOC_TLAB_BYTES(ctx));
}

SEC("uprobe")
int mixprof_alloc_outside(struct pt_regs *ctx)
{
	return alloc_count(ctx, JALLOC_OUTSIDE_KLASS(ctx),
			   JALLOC_OUTSIDE_BYTES(ctx));
}

#endif
