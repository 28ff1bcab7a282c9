/*
 * lock.bpf.h: --lock, the time a JVM's threads wait for a contended lock,
 * by stack, a part of sampler.bpf.c (included at its end, after
 * offcpu.bpf.h, whose weighted add it uses).
 *
 * Two uprobes on libjvm.so (lock.h names them) begin a wait: a monitor's
 * contended entry (`this` the ObjectMonitor: the class of its object,
 * its _owner) and Unsafe_Park (the parking thread's parkBlocker, counted
 * only when it is an AbstractOwnableSynchronizer: ReentrantLock's and
 * ReentrantReadWriteLock's Sync, anything under AQS; its
 * exclusiveOwnerThread's eetop is the owner's JavaThread*). Each makes a
 * key as a sample does (the user stack from the probe's registers; the
 * lock as a two-frame "kernel" stack, lock.h) and keeps it by tid with
 * the time; the uretprobe of the same function adds the nanoseconds
 * since to that key, one more event (a contention), in the bucket of
 * that moment.
 *
 * Stack: a program's whole call chain must fit 512 bytes on kernels
 * before 6.13, and the walk's chain takes almost all of it; so the key is
 * the per-CPU one and what the lock's memory gives is read by a
 * subprogram of its own into a per-CPU record, before the walk.
 */
#ifndef MIXPROF_LOCK_BPF_H
#define MIXPROF_LOCK_BPF_H

#include "lock.h"

struct lock_cfg lock_cfg = {}; /* set by user space before the attach */

/* tid -> the key of its wait, whose bucket holds the wait's start */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct sample_key);
	__uint(max_entries, LOCK_WAITS);
} lock_waits SEC(".maps");

/* the wait a probe on this CPU is beginning: its start and lock frames */
struct lock_seen {
	__u64 start, klass, owner;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct lock_seen);
	__uint(max_entries, 1);
} lock_seen SEC(".maps");

/* An oop field (at addr), decoded; 0 when null or unreadable. */
static __always_inline __u64 lock_oop(__u64 addr)
{
	__u32 n = 0;

	if (!lock_cfg.coops)
		return read_u64(addr);
	if (bpf_probe_read_user(&n, sizeof(n), (const void *)addr) || !n)
		return 0;
	return lock_cfg.oop_base + ((__u64)n << (lock_cfg.oop_shift & 63));
}

/* An object's Klass*; 0 when unreadable. */
static __always_inline __u64 lock_klass(__u64 obj)
{
	__u32 n = 0;

	if (!lock_cfg.ccp)
		return read_u64(obj + lock_cfg.oop_klass);
	if (bpf_probe_read_user(&n, sizeof(n),
				(const void *)(obj + lock_cfg.oop_klass)) ||
	    !n)
		return 0;
	return lock_cfg.klass_base + ((__u64)n << (lock_cfg.klass_shift & 63));
}

static __always_inline struct lock_seen *lock_seen_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&lock_seen, &zero);
}

/* A monitor's class and owner now; 1, or 0 (nothing to count). */
static __noinline int lock_monitor(__u64 mon)
{
	struct lock_seen *s = lock_seen_get();
	__u64 obj, owner;

	if (!s || !mon)
		return 0;
	s->start = bpf_ktime_get_ns();
	obj = read_u64(read_u64(mon + lock_cfg.om_object));
	owner = read_u64(mon + lock_cfg.om_owner);
	s->klass = obj ? lock_klass(obj) : 0;
	s->owner = 0;
	/* not free, anonymous or being deflated (0, 1, 2; -1 in JDK 17) */
	if (owner > 2 && owner < 0x800000000000ULL)
		s->owner = LOCK_MARK(lock_cfg.owner_is_id ? LOCK_OWNER_ID_BASE
							  : LOCK_OWNER_BASE,
				     owner);
	return 1;
}

/*
 * The parking thread's blocker and that lock's owner; 1 when the blocker
 * is a j.u.c. lock, else 0. The thread's JavaThread* is the one user
 * space lists for the unwinder's frame anchors (java_threads: a thread
 * is known from the JVM's first tick after its start): HotSpot does not
 * publish where the JNIEnv the probe gets lies in it.
 */
static __noinline int lock_park(__u32 tgid, __u32 tid)
{
	struct java_thread_key jk = {.tgid = tgid, .tid = tid};
	struct lock_seen *s = lock_seen_get();
	__u64 *jt = bpf_map_lookup_elem(&java_threads, &jk);
	__u64 thread, blocker, k, owner;

	if (!s || !jt || !lock_cfg.aos_klass)
		return 0;
	s->start = bpf_ktime_get_ns();
	thread = read_u64(read_u64(*jt + lock_cfg.jt_obj));
	blocker = thread ? lock_oop(thread + lock_cfg.park_blocker) : 0;
	k = blocker ? lock_klass(blocker) : 0;
	if (!k || read_u64(k + lock_cfg.aos_super) != lock_cfg.aos_klass)
		return 0;
	owner = lock_oop(blocker + lock_cfg.aos_owner);
	s->klass = k;
	s->owner = 0;
	if (owner && (owner = read_u64(owner + lock_cfg.eetop)))
		s->owner = LOCK_MARK(LOCK_OWNER_BASE, owner);
	return 1;
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
	ips[0] = LOCK_MARK(LOCK_CLASS_BASE, s->klass);
	if (s->owner) {
		ips[1] = s->owner;
		n = 2;
	}
	key->kern_stack = store_stack(n, STAT_KERN_LOST);
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
	if (mon ? lock_monitor(mon) : lock_park(tgid, tid))
		lock_begin(ctx, tid);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(mixprof_lock_enter, __u64 mon)
{
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
