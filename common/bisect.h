/*
 * bisect: the first of n records sorted by a uint64_t field whose field
 * is not below key (C++'s lower_bound), for arrays of any record: base,
 * the records' size and the field's offset (offsetof) describe them.
 */
#ifndef MIXPROF_COMMON_BISECT_H
#define MIXPROF_COMMON_BISECT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The index of that record, n when every field is below key. */
static inline size_t bisect__lower(const void *base, size_t n, size_t size,
				   size_t off, uint64_t key)
{
	size_t lo = 0, hi = n;
	uint64_t v;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		memcpy(&v, (const char *)base + mid * size + off, sizeof(v));
		if (v < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
