// SPDX-License-Identifier: GPL-2.0
/*
 * events.bpf.c: HotSpot's own events (GC, safepoints, VM operations,
 * compilations, class loads, uncommon traps) as they happen, each hit of a
 * USDT probe of libjvm.so (or the uprobe on its uncommon trap entry) one
 * struct jvm_event in the ring buffer (events_abi.h): the ring, the
 * event's making and a probe's (pointer, length) names read here; which
 * probes, what their arguments mean and what the uprobes read of the
 * JVM, in jvm/jevents.bpf.h (included at the end). No state kept here
 * but a compiler thread's task: user space pairs begins with ends. A target's strings are read bounded
 * (JEV_STR bytes), faulted in if need be (the programs are sleepable),
 * and made safe by user space.
 */
#include "sampler/vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>
#include "events/events_abi.h"

char LICENSE[] SEC("license") = "GPL";

/* 1 MiB: 2,730 events between two reads (a tick, 100 ms): a JVM starting
 * loads a few thousand classes a second, compiles hundreds */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1024 * 1024);
} jev_ring SEC(".maps");

/* compiler thread -> the tier (low byte) and OSR (0x100) of its task, as
 * jevents.bpf.h's jev_task read it for the compile__begin that follows */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} jev_tasks SEC(".maps");

__u64 lost; /* events the ring buffer had no room for */

/*
 * e's common fields. The caller reserves e and checks it itself: with
 * the reserve and its NULL check inlined here and checked again by the
 * caller, 6.1's verifier lost the reference on one path ("Unreleased
 * reference").
 */
static __always_inline void ev_init(struct jvm_event *e, __u32 kind)
{
	__u64 id = bpf_get_current_pid_tgid();

	e->ts = bpf_ktime_get_ns();
	e->kind = kind;
	e->tid = (__u32)id;
	e->tgid = id >> 32;
	e->arg0 = e->arg1 = 0;
	e->len[0] = e->len[1] = e->len[2] = 0;
}

#define EV_RESERVE() bpf_ringbuf_reserve(&jev_ring, sizeof(struct jvm_event), 0)

/* Name i of e from USDT arguments ptr_arg (a char *) and ptr_arg + 1
 * (its length, the JVM's: not trusted past JEV_STR). */
static void ev_str(struct pt_regs *ctx, struct jvm_event *e, int i, int ptr_arg)
{
	long ptr = 0, len = 0;
	__u32 n;

	if (i < 0 || i >= JEV_NSTR || bpf_usdt_arg(ctx, ptr_arg, &ptr) ||
	    bpf_usdt_arg(ctx, ptr_arg + 1, &len) || len <= 0 || !ptr)
		return;
	n = len > JEV_STR ? JEV_STR : len;
	if (bpf_copy_from_user(e->str[i], n, (void *)ptr))
		return;
	e->len[i] = len > 0xffff ? 0xffff : len;
}

/* A compilation's tier and OSR, as its task said just before. */
static void task_of(struct jvm_event *e)
{
	/* a key on the stack: 6.1's verifier takes no ring buffer memory
	 * as a map key */
	__u32 tid = e->tid;
	__u64 *t = bpf_map_lookup_elem(&jev_tasks, &tid);

	if (t) {
		e->arg0 = *t & 0xff;
		e->arg1 = *t >> 8;
	}
}

/*
 * One event of kind: names from the first nstr (pointer, length) pairs of
 * the probe's arguments, arg0 from argument arg (none when < 0).
 */
static int ev_emit(struct pt_regs *ctx, __u32 kind, int nstr, int arg)
{
	struct jvm_event *e = EV_RESERVE();
	long v = 0;

	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	ev_init(e, kind);
	for (int i = 0; i < nstr && i < JEV_NSTR; i++)
		ev_str(ctx, e, i, 2 * i);
	if (arg >= 0 && !bpf_usdt_arg(ctx, arg, &v))
		e->arg0 = v;
	if (kind == JEV_COMPILE_BEGIN)
		task_of(e);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* A program for one probe: ev_emit's nstr names and argument arg. */
#define JEV_USDT(prog, kind, nstr, arg)                                        \
	SEC("usdt") int prog(struct pt_regs *ctx)                              \
	{                                                                      \
		return ev_emit(ctx, kind, nstr, arg);                          \
	}

/* The programs of HotSpot's probes, and what they read there. */
#include "jvm/jevents.bpf.h"
