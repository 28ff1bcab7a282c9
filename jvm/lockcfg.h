/*
 * lockcfg: where --lock's probes find a lock's class and owner in a
 * JVM's memory (jlocks.bpf.h reads by it), read once by user space
 * (jlocks.h) and set in the sampler's BPF program before the attach.
 * Fixed-width types only, no includes (as sampler/sampler_abi.h): the
 * BPF side and user space both include it. Offsets are in bytes.
 */
#ifndef MIXPROF_LOCKCFG_H
#define MIXPROF_LOCKCFG_H

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
