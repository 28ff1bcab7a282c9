/*
 * array: a growing array's one growth rule, shared by every table that
 * doubles (symbolizer/symtab.c, stacks/foldtab.c, flamegraph/tree.c).
 */
#ifndef MIXPROF_COMMON_ARRAY_H
#define MIXPROF_COMMON_ARRAY_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Make room for need elements of size bytes in *p (*cap of them now),
 * doubling from 64. 0, or -ENOMEM with *p and *cap as they were: also
 * when need * size would overflow, as a corrupt file's claimed count
 * can. Big arrays are mmap'ed by malloc and realloc moves them with
 * mremap, so growth copies nothing and leaves no second copy.
 */
static inline int array__grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	if (need > SIZE_MAX / 2 / size)
		return -ENOMEM;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

#endif
