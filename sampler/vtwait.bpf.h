/*
 * vtwait.bpf.h: a virtual thread's waits for --off-cpu and --wall (JDK
 * 21+), a part of sampler.bpf.c (included at its end, after offcpu.bpf.h,
 * whose weighted add it uses, and jvm/vthread.bpf.h, whose mounted
 * thread it asks).
 *
 * A virtual thread that sleeps, parks or waits for I/O is no kernel
 * thread's wait: HotSpot freezes its frames into the heap and its carrier
 * goes on with other work, so the switch-out program never sees it. Two
 * uprobes on libjvm.so (user space finds the functions through the
 * freeze_entry and thaw_entry statics, jvm/vthread.h) see it instead:
 *
 *   freeze (the yield's call into the VM, its frames still on the
 *     carrier's stack): the stack walked from the probe's registers, as a
 *     sample's, kept with the time by (process, virtual thread's id);
 *   thaw of the top frames (kind thaw_top: a mount; the return barrier's
 *     thaws are the same mount going on): the time since that freeze, in
 *     microseconds, added to its stack in the bucket of that moment.
 *
 * A freeze that fails (a pinned thread) leaves its record: that thread
 * then waits on its carrier, which the switch-out program counts, and
 * its next freeze replaces the record. A thread that never mounts again
 * keeps its record (an LRU map: the oldest go first when it is full).
 */
#ifndef MIXPROF_VTWAIT_BPF_H
#define MIXPROF_VTWAIT_BPF_H

#define VT_THAW_TOP 0 /* Continuation::thaw_kind: a mount */

/* struct vt_wait_id, struct vt_wait: sampler_abi.h (user space reads
 * the map's open waits: drain.c) */

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct vt_wait_id);
	__type(value, struct vt_wait);
	__uint(max_entries, VT_WAITS);
} vt_waits SEC(".maps");

/* the freeze this CPU is recording: not on the program's stack, which
 * the walk's call chain takes all of on 6.1 (alloc.bpf.h) */
struct vt_wait_rec {
	struct vt_wait_id id;
	struct vt_wait w;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct vt_wait_rec);
	__uint(max_entries, 1);
} vt_wait_rec SEC(".maps");

static __always_inline struct vt_wait_rec *vt_rec(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&vt_wait_rec, &zero);
}

/*
 * This CPU's record of a freeze begun: 1 with its id, that of the virtual
 * thread mounted on the current thread, and the time; 0 when it is none
 * (not a target, no virtual thread mounted, the layout not read yet). A
 * global function: its frame is gone before the walk's chain begins.
 */
__noinline int vtwait__begin(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	struct vt_wait_rec *r = vt_rec();

	if (!r || (filter_pids && !bpf_map_lookup_elem(&targets, &tgid)))
		return 0;
	r->id.tgid = tgid;
	r->id.vtid = vthread__mounted(interp_proc_of(tgid), tgid, (__u32)id);
	if (!r->id.vtid)
		return 0;
	__builtin_memset(&r->w.key, 0, sizeof(r->w.key));
	r->w.ts = bpf_ktime_get_ns();
	stat_inc(STAT_SAMPLES); /* as a switch out is */
	return 1;
}

SEC("uprobe")
int BPF_KPROBE(mixprof_vt_freeze)
{
	struct vt_wait_rec *r;
	__u32 tgid, tid;

	if (!vtwait__begin() || !(r = vt_rec()))
		return 0;
	tgid = r->id.tgid;
	tid = (__u32)bpf_get_current_pid_tgid();
	key_head(&r->w.key, tgid, tid);
	r->w.key.kern_stack = STACK_NONE; /* no kernel wait */
	r->w.key.user_stack =
	    walk_user(interp_proc_of(tgid), tgid, tid, PT_REGS_IP(ctx),
		      PT_REGS_SP(ctx), PT_REGS_FP(ctx), &r->w.key.interp_id);
	bpf_map_update_elem(&vt_waits, &r->id, &r->w, BPF_ANY);
	return 0;
}

/* thaw<ConfigT>(JavaThread *thread, int kind) */
SEC("uprobe")
int BPF_KPROBE(mixprof_vt_thaw, void *thread, int kind)
{
	__u64 id = bpf_get_current_pid_tgid(), now, d;
	struct vt_wait_id k = {.tgid = id >> 32};
	struct vt_wait *w;

	if (kind != VT_THAW_TOP)
		return 0;
	k.vtid = vthread__mounted(interp_proc_of(k.tgid), k.tgid, (__u32)id);
	w = k.vtid ? bpf_map_lookup_elem(&vt_waits, &k) : NULL;
	if (!w)
		return 0;
	now = bpf_ktime_get_ns();
	d = now - w->ts;
	/* to the nearest microsecond, as offcpu_in */
	if (d >= offcpu_min_ns && d <= offcpu_max_ns && d >= 500) {
		w->key.bucket = (now - start_ns) / bucket_ns;
		stat_inc(STAT_VT_WAITS);
		offcpu_add(&w->key, (d + 500) / 1000);
	}
	bpf_map_delete_elem(&vt_waits, &k);
	return 0;
}

#endif
