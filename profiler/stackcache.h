/*
 * stackcache: user space's copy of the stacks the kernel holds, by stack
 * key (sampler.h: a content hash, so a key always means the same frames).
 * The drain shows it every stack key of every counted key it reads; a
 * stack is read from the kernel once, when first seen, and its kernel
 * copy is deleted as soon as no counted key refers to it. The copy here
 * lives one read longer: a sample taken between a read and that delete
 * may still refer to it (the next read sees the sample and keeps it).
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
 * Stack key is referenced by a key of this read. 1 when the frames are
 * here; 0 when they are not (fetch them from the kernel and put them).
 */
int stackcache__touch(struct stackcache *c, uint64_t key);
/* Keep nr frames (leaf first) under key, seen in this read. 0 or -errno. */
int stackcache__put(struct stackcache *c, uint64_t key, const uint64_t *ips,
		    uint32_t nr);
/* The frames under key: their number and *ips, or -ENOENT. */
int stackcache__get(const struct stackcache *c, uint64_t key,
		    const uint64_t **ips);
/*
 * The read is over. Stacks no key referred to in it: those whose kernel
 * copy still exists go into *out (the caller deletes them from the
 * kernel; valid until the next call), those already deleted there are
 * forgotten. Returns how many keys are in *out, or -errno.
 */
long stackcache__sweep(struct stackcache *c, const uint64_t **out);
/* Stacks held. */
size_t stackcache__size(const struct stackcache *c);

#endif
