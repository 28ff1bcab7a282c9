/*
 * hash: the 64-bit mixer the user-space tables hash their keys with
 * (MurmurHash3's finalizer: every input bit reaches every output bit).
 */
#ifndef MIXPROF_COMMON_HASH_H
#define MIXPROF_COMMON_HASH_H

#include <stdint.h>

static inline uint64_t hash__mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

#endif
