/*
 * jlocks: what --lock needs of a HotSpot JVM. Where the probes
 * (sampler/lock.bpf.h, reading by jlocks.bpf.h) find a lock's class and
 * its owner in the JVM's memory (struct lock_cfg, lockcfg.h), and whose
 * thread an owner they recorded is (the marks: sampler/lock.h).
 *
 * Facts used (HotSpot sources, no code taken): objectMonitor.hpp (the
 * monitor's _object is a WeakHandle, a slot holding the oop; _owner a
 * JavaThread* in JDK 17, an owner id in JDK 24+: the owning thread's
 * JavaThread::_monitor_owner_id, with 0 free, 1 anonymous, 2 the
 * deflater); javaClasses.cpp (java_lang_Thread::_park_blocker_offset
 * and _eetop_offset, java_util_concurrent_locks_AbstractOwnableSynchronizer
 * ::_owner_offset: the field offsets HotSpot itself computes at start,
 * static ints its .symtab names); vmClasses.hpp (vmClasses::_klasses,
 * the well-known classes, AbstractOwnableSynchronizer among them);
 * klass.hpp (_primary_supers: a class's supers by depth).
 *
 * The pure part reads through a struct hotspot_mem (unit tests feed fake
 * memory). Nothing here prints; errors come back as -errno.
 */
#ifndef MIXPROF_JLOCKS_H
#define MIXPROF_JLOCKS_H

#include <linux/types.h>
#include <stdint.h>
#include "hotspot.h"
#include "jvm/lockcfg.h"
#include "sampler/lock.h"
#include "vmstructs.h"

/* libjvm.so's .symtab variables read (local ones: hotspot__jvm_syms). */
enum jlocks_sym {
	JL_PARK_BLOCKER, /* int java_lang_Thread::_park_blocker_offset */
	JL_EETOP, /* int java_lang_Thread::_eetop_offset */
	JL_AOS_OWNER, /* int ...AbstractOwnableSynchronizer::_owner_offset */
	JL_KLASSES, /* InstanceKlass *vmClasses::_klasses[] */
	JL_NR_SYMS,
};
extern const char *const jlocks_sym_names[JL_NR_SYMS];

/*
 * The probes' offsets from the tables (vs), the statics at syms[] and
 * the layout hl (a Klass's name): 0, -ENOENT (a field or static this
 * JVM does not have: not a JDK we know), -ENOTSUP (compact object
 * headers), -EFAULT; *why then names what could not be read.
 * out->aos_klass is 0 while that class is not loaded (jlocks__aos_klass
 * later).
 */
int jlocks__cfg_read(const struct hotspot_mem *m,
		     const struct hotspot_layout *hl,
		     const struct vmstructs *vs,
		     const uint64_t syms[JL_NR_SYMS], struct lock_cfg *out,
		     const char **why);
/*
 * AbstractOwnableSynchronizer's Klass* from vmClasses::_klasses at
 * klasses (each entry's name checked): it, or 0 (not loaded yet).
 */
uint64_t jlocks__aos_klass(const struct hotspot_mem *m,
			   const struct hotspot_layout *hl, uint64_t klasses);

/* One JVM's. */
struct jlocks;

/*
 * For the JVM h (process pid): NULL and errno (what jlocks__cfg_read
 * says, ENOMEM, or what reading the tables says), *why naming what
 * could not be read.
 */
struct jlocks *jlocks__open(struct hotspot *h, uint32_t pid, const char **why);
const struct lock_cfg *jlocks__cfg(const struct jlocks *l);
/* AbstractOwnableSynchronizer's Klass* looked for again: it, or 0. */
uint64_t jlocks__aos_retry(struct jlocks *l);
/*
 * The tid of the thread an owner frame (LOCK_OWNER_BASE or
 * LOCK_OWNER_ID_BASE, lock.h) names, among the JVM's threads now: the
 * tid, -ENOENT (no such thread now: gone, or JDK 17's stack-locked
 * owner, a BasicLock* on the owner's stack), -EFAULT.
 */
int jlocks__owner_tid(struct jlocks *l, uint64_t frame);
void jlocks__free(struct jlocks *l);

#endif
