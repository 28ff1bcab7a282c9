/*
 * jlocks.bpf.h: what --lock's probes read of HotSpot (x86-64): the
 * arguments of the libjvm functions they sit on (hsprobes.h names them)
 * and, from the memory those point to, a contended lock's class and its
 * owner (by struct lock_cfg, lockcfg.h, which user space reads from the
 * JVM: jlocks.h). Included by sampler/lock.bpf.h, the wait's timing and
 * key, which knows no HotSpot layout; it uses the sampler program's
 * read_u64 and its java_threads map (the frame anchors' map: tid ->
 * JavaThread*, filled by jvm/jthreadsync).
 */
#ifndef MIXPROF_JLOCKS_BPF_H
#define MIXPROF_JLOCKS_BPF_H

#include "jvm/lockcfg.h"
#include "sampler/lock.h"

/* ObjectMonitor::EnterI / enter_internal(JavaThread*): `this` */
#define JLOCKS_ENTER_MONITOR(ctx) PT_REGS_PARM1(ctx)

struct lock_cfg lock_cfg = {}; /* set by user space before the attach */

/* A lock as the key's "kernel stack" gives it (sampler/lock.h's marks):
 * its class's Klass*, and its owner or 0 */
struct jlock {
	__u64 klass, owner;
};

/* An oop field (at addr), decoded; 0 when null or unreadable. */
static __always_inline __u64 jlocks_oop(__u64 addr)
{
	__u32 n = 0;

	if (!lock_cfg.coops)
		return read_u64(addr);
	if (bpf_probe_read_user(&n, sizeof(n), (const void *)addr) || !n)
		return 0;
	return lock_cfg.oop_base + ((__u64)n << (lock_cfg.oop_shift & 63));
}

/* An object's Klass*; 0 when unreadable. */
static __always_inline __u64 jlocks_klass(__u64 obj)
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

/* A monitor's class and owner now, into *l; 1, or 0 (nothing to count). */
static __always_inline int jlocks_monitor(__u64 mon, struct jlock *l)
{
	__u64 obj, owner;

	if (!mon)
		return 0;
	obj = read_u64(read_u64(mon + lock_cfg.om_object));
	owner = read_u64(mon + lock_cfg.om_owner);
	l->klass = obj ? jlocks_klass(obj) : 0;
	l->owner = 0;
	/* not free, anonymous or being deflated (0, 1, 2; -1 in JDK 17) */
	if (owner > 2 && owner < 0x800000000000ULL)
		l->owner = LOCK_MARK(lock_cfg.owner_is_id ? LOCK_OWNER_ID_BASE
							  : LOCK_OWNER_BASE,
				     owner);
	return 1;
}

/*
 * The parking thread's blocker and that lock's owner, into *l; 1 when
 * the blocker is a j.u.c. lock, else 0. The thread's JavaThread* is the
 * one user space lists for the unwinder's frame anchors (java_threads: a
 * thread is known from the JVM's first tick after its start): HotSpot
 * does not publish where the JNIEnv the probe gets lies in it.
 */
static __always_inline int jlocks_park(__u32 tgid, __u32 tid, struct jlock *l)
{
	struct java_thread_key jk = {.tgid = tgid, .tid = tid};
	__u64 *jt = bpf_map_lookup_elem(&java_threads, &jk);
	__u64 thread, blocker, k, owner;

	if (!jt || !lock_cfg.aos_klass)
		return 0;
	thread = read_u64(read_u64(*jt + lock_cfg.jt_obj));
	blocker = thread ? jlocks_oop(thread + lock_cfg.park_blocker) : 0;
	k = blocker ? jlocks_klass(blocker) : 0;
	if (!k || read_u64(k + lock_cfg.aos_super) != lock_cfg.aos_klass)
		return 0;
	owner = jlocks_oop(blocker + lock_cfg.aos_owner);
	l->klass = k;
	l->owner = 0;
	if (owner && (owner = read_u64(owner + lock_cfg.eetop)))
		l->owner = LOCK_MARK(LOCK_OWNER_BASE, owner);
	return 1;
}

#endif
