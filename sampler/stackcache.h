/*
 * stackcache: user space's copy of the stacks the BPF program sent, by
 * stack key (sampler_abi.h: a content hash, so a key always means the
 * same frames). It is the only copy: no kernel map keeps stacks.
 *
 * Each drain read shows it the stack keys of the counted keys that may be
 * new since the last read, with their bucket; every key is shown at least
 * once. A stack is "sent" (in_kernel below) while the program may take it
 * as known and not send it again; a sweep offers those no key still
 * needs (bucket <= the drain's taken bucket, not shown by the read), and
 * the caller bumps the program's stack epoch, after which a sample sends
 * them again. The copy here stays one read longer: a sample taken
 * between a read and that bump still refers to it, and the next read
 * shows it.
 */
#ifndef MIXPROF_STACKCACHE_H
#define MIXPROF_STACKCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "common/u64map.h"

struct stackcache;

struct stackcache *stackcache__new(void);
void stackcache__free(struct stackcache *c);

/* A read of the counts map starts. */
void stackcache__begin(struct stackcache *c);
/*
 * Stack key is used by a key of bucket in this read. 1 when the frames
 * are here; 0 when they are not (the key's samples lost their stack).
 */
int stackcache__touch(struct stackcache *c, uint64_t key, uint64_t bucket);
/* Keep nr frames (leaf first) under key, used in bucket. 0 or -errno. */
int stackcache__put(struct stackcache *c, uint64_t key, const uint64_t *ips,
		    uint32_t nr, uint64_t bucket);
/* The frames under key: their number and *ips, or -ENOENT. */
int stackcache__get(const struct stackcache *c, uint64_t key,
		    const uint64_t **ips);
/*
 * The read is over and every key of a bucket <= taken was taken (or
 * taken is UINT64_MAX: none). Stacks this read did not show that are
 * still taken as sent go into *out (the caller makes the program forget
 * them: a new stack epoch; valid until the next call); those offered by
 * an earlier sweep and not shown since are forgotten. Stacks in held (a
 * set of stack keys: the waits open now will be counted with them) stay
 * as they are. Returns how many keys are in *out, or -errno.
 */
long stackcache__sweep(struct stackcache *c, uint64_t taken,
		       const struct u64map *held, const uint64_t **out);
/* Stacks held. */
size_t stackcache__size(const struct stackcache *c);

#endif
