/*
 * stackcache: user space's copy of the stacks the kernel holds, by stack
 * key (sampler_abi.h: a content hash, so a key always means the same frames).
 *
 * Each drain read shows it the stack keys of the counted keys that may be
 * new since the last read, with their bucket; every key is shown at least
 * once. A stack is read from the kernel once, when first shown. Its kernel
 * copy is deleted once every counted key shown to use it has been taken
 * (bucket <= the drain's taken bucket) and the read did not show it: a
 * later sample stores it again. The copy here stays one read longer: a
 * sample taken between a read and that delete still refers to it, and the
 * next read shows it.
 */
#ifndef MIXPROF_STACKCACHE_H
#define MIXPROF_STACKCACHE_H

#include <stddef.h>
#include <stdint.h>

struct stackcache;

struct stackcache *stackcache__new(void);
void stackcache__free(struct stackcache *c);

/* A read of the counts map starts. */
void stackcache__begin(struct stackcache *c);
/*
 * Stack key is used by a key of bucket in this read. 1 when the frames
 * are here; 0 when they are not (fetch them from the kernel and put them).
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
 * taken is UINT64_MAX: none). Stacks this read did not show whose kernel
 * copy still exists go into *out (the caller deletes them there; valid
 * until the next call); those no key needs any more are forgotten.
 * Returns how many keys are in *out, or -errno.
 */
long stackcache__sweep(struct stackcache *c, uint64_t taken,
		       const uint64_t **out);
/* Stacks held. */
size_t stackcache__size(const struct stackcache *c);

#endif
