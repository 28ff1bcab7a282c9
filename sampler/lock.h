/*
 * lock.h: what --lock's probes (lock.bpf.h) and user space share.
 * Fixed-width types only, no includes (as sampler_abi.h).
 *
 * A --lock key's "kernel stack" is the lock: its class's Klass* as the
 * leaf frame and, under it, the owner the lock had when the wait began,
 * each under a mark no pc can have (a non-canonical address). User space
 * names the class (`[lock] pkg/Class`) and the owner (`[owner] NAME
 * [tid]`) from the JVM.
 */
#ifndef MIXPROF_LOCK_H
#define MIXPROF_LOCK_H

#define LOCK_MARK_MASK 0xffff000000000000ULL
#define LOCK_ADDR_MASK 0x0000ffffffffffffULL
#define LOCK_CLASS_BASE 0x10c1000000000000ULL /* a Klass* */
#define LOCK_OWNER_BASE 0x10c2000000000000ULL /* a JavaThread* */
#define LOCK_OWNER_ID_BASE 0x10c3000000000000ULL /* an owner id (JDK 24+) */
#define LOCK_MARK(base, v) ((base) | ((v)&LOCK_ADDR_MASK))
#define LOCK_IS(base, ip) (((ip)&LOCK_MARK_MASK) == (base))
#define LOCK_VALUE(ip) ((ip)&LOCK_ADDR_MASK)

/*
 * libjvm.so's functions the probes sit on, by their .symtab names. A
 * monitor's contended entry: after the fast path and the first spin
 * failed, ObjectMonitor::enter calls EnterI (JDK 17), which later
 * JDKs (25) call enter_internal; it returns once the thread owns the
 * monitor.
 * `this` is the ObjectMonitor. A j.u.c. lock's wait: LockSupport.park's
 * native, Unsafe_Park(JNIEnv*, jobject, jboolean, jlong), with the
 * lock in the thread's parkBlocker.
 */
#define LOCK_SYM_ENTER_17 "_ZN13ObjectMonitor6EnterIEP10JavaThread"
#define LOCK_SYM_ENTER_25 "_ZN13ObjectMonitor14enter_internalEP10JavaThread"
#define LOCK_SYM_PARK "Unsafe_Park"

/* Waits being waited at once (threads between a probe and its return). */
#define LOCK_WAITS 16384

/*
 * Where the probes find a lock's class and owner in the JVM's memory,
 * read once by user space (jvm/jlocks.h). Offsets are in bytes.
 */
struct lock_cfg {
	__u64 oop_base, klass_base; /* compressed oops and class pointers */
	__u64 aos_klass; /* AbstractOwnableSynchronizer's Klass*; 0: not
			  * loaded yet (no j.u.c. lock counted) */
	__u32 oop_shift, klass_shift;
	__u32 coops, ccp; /* 1: compressed */
	__u32 oop_klass; /* oopDesc's class pointer */
	__u32 om_object; /* ObjectMonitor::_object (a WeakHandle: oop*) */
	__u32 om_owner; /* ObjectMonitor::_owner */
	__u32 owner_is_id; /* it holds an owner id, not a JavaThread* */
	__u32 jt_obj; /* JavaThread::_threadObj + OopHandle::_obj */
	__u32 pad;
	__u32 park_blocker; /* java.lang.Thread.parkBlocker */
	__u32 eetop; /* java.lang.Thread.eetop: its JavaThread* */
	__u32 aos_owner; /* AbstractOwnableSynchronizer.exclusiveOwnerThread */
	__u32 aos_super; /* Klass::_primary_supers[1]: a subclass of AOS
			  * (depth 1) has AOS there */
};

#endif
