/*
 * lock.bpf.h: --lock, the time a JVM's threads wait for a contended lock,
 * by stack, a part of sampler.bpf.c (included at its end, after
 * offcpu.bpf.h, whose weighted add it uses).
 *
 * Two uprobes on libjvm.so (jvm/hsprobes.h names them) begin a wait: a
 * monitor's contended entry and a thread's park; what each reads of the
 * JVM to find the lock (its class) and its owner, and which parks are
 * counted, is jvm/jlocks.bpf.h's. Each makes a key as a sample does (the
 * user stack from the probe's registers; the lock as a two-frame
 * "kernel" stack, lock.h) and keeps it by tid with the time; the
 * uretprobe of the same function adds the nanoseconds since to that key,
 * one more event (a contention), in the bucket of that moment.
 *
 * Stack: a program's whole call chain must fit 512 bytes on kernels
 * before 6.13, and the walk's chain takes almost all of it; so the key is
 * the per-CPU one and what the lock's memory gives is read by a
 * subprogram of its own into a per-CPU record, before the walk.
 */
#ifndef MIXPROF_LOCK_BPF_H
#define MIXPROF_LOCK_BPF_H

#include "lock.h"
#include "jvm/jlocks.bpf.h"

/* tid -> the key of its wait, whose bucket holds the wait's start */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct sample_key);
	__uint(max_entries, LOCK_WAITS);
} lock_waits SEC(".maps");

/* the wait a probe on this CPU is beginning: its start and lock */
struct lock_seen {
	__u64 start;
	struct jlock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct lock_seen);
	__uint(max_entries, 1);
} lock_seen SEC(".maps");

static __always_inline struct lock_seen *lock_seen_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&lock_seen, &zero);
}

/*
 * The lock a probe's hit waits for (mon the monitor, or 0: a park), into
 * the per-CPU lock_seen with the time; 1, or 0 (nothing to count). A
 * subprogram: its frame is gone before the walk's.
 */
static __noinline int lock_read(__u32 tgid, __u32 tid, __u64 mon)
{
	struct lock_seen *s = lock_seen_get();

	if (!s)
		return 0;
	s->start = bpf_ktime_get_ns();
	return mon ? jlocks_monitor(mon, &s->lock)
		   : jlocks_park(tgid, tid, &s->lock);
}

/* A wait begins: the key, kept by tid with the time in its bucket. */
static __always_inline int lock_begin(struct pt_regs *ctx, __u32 tid)
{
	struct sample_key *key = uprobe_key(ctx);
	struct lock_seen *s = lock_seen_get();
	__u64 *ips = stack_buf();
	__u32 n = 1;

	if (!key || !s || !ips)
		return 0;
	ips[0] = LOCK_MARK(LOCK_CLASS_BASE, s->lock.klass);
	if (s->lock.owner) {
		ips[1] = s->lock.owner;
		n = 2;
	}
	key->kern_stack = store_stack(n, STAT_KERN_LOST, 0);
	/* the start, until the return: taken before the walk, whose time
	 * (tens of us on a loaded host) is part of the wait */
	key->bucket = s->start;
	bpf_map_update_elem(&lock_waits, &tid, key, BPF_ANY);
	return 0;
}

/* A wait ends (the probed function returns): its nanoseconds counted. */
static __always_inline int lock_end(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct sample_key *key = bpf_map_lookup_elem(&lock_waits, &tid);
	__u64 now = bpf_ktime_get_ns();

	if (!key)
		return 0;
	if (now > key->bucket && key->bucket >= start_ns) {
		__u64 d = now - key->bucket;

		key->bucket = (now - start_ns) / bucket_ns;
		offcpu_add(key, d);
	}
	bpf_map_delete_elem(&lock_waits, &tid);
	return 0;
}

/* A probe's hit: mon the monitor (enter), or 0 (park). */
static __always_inline int lock_probe(struct pt_regs *ctx, __u64 mon)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;

	/* the probes are the process's, its filter ours: a target first,
	 * before any read of the lock */
	if (filter_pids && !bpf_map_lookup_elem(&targets, &tgid))
		return 0;
	if (lock_read(tgid, tid, mon))
		lock_begin(ctx, tid);
	return 0;
}

SEC("uprobe")
int mixprof_lock_enter(struct pt_regs *ctx)
{
	__u64 mon = JLOCKS_ENTER_MONITOR(ctx);

	return mon ? lock_probe(ctx, mon) : 0;
}

SEC("uprobe")
int BPF_KPROBE(mixprof_lock_park)
{
	return lock_probe(ctx, 0);
}

/* the return of either probed function (two links) */
SEC("uretprobe")
int BPF_KRETPROBE(mixprof_lock_end)
{
	return lock_end();
}

#endif
