/*
 * lock.h: what --lock's probes (lock.bpf.h) and user space share.
 * Fixed-width types only, no includes (as sampler_abi.h).
 *
 * A --lock key's "kernel stack" is the lock: its class's Klass* as the
 * leaf frame and, under it, the owner the lock had when the wait began,
 * each under a mark no pc can have (a non-canonical address). User space
 * names the class (`[lock] pkg/Class`) and the owner (`[owner] NAME
 * [tid]`) from the JVM. Which functions the probes sit on, and what they
 * read there, is HotSpot's: jvm/hsprobes.h, jvm/jlocks.bpf.h.
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

/* Waits being waited at once (threads between a probe and its return). */
#define LOCK_WAITS 16384

/* Where the probes find a lock's class and owner: jvm/lockcfg.h's
 * struct lock_cfg. */

#endif
