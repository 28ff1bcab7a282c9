// SPDX-License-Identifier: GPL-2.0
/* fpmap: the blocks of a file's code whose rows are the frame record. */
#include <errno.h>
#include <stdlib.h>
#include "fpmap.h"

bool fpmap__is_record(const struct unwind_row *r)
{
	return r->kind == ROW_CFA_RBP && r->cfa_off == 16 && r->rbp_slot == -2;
}

/* The blocks wholly inside [lo, hi): first in *b, count returned. */
static __u64 inner_blocks(__u64 lo, __u64 hi, __u64 *b)
{
	__u64 first = (lo + (1u << UNWIND_FP_SHIFT) - 1) >> UNWIND_FP_SHIFT;
	__u64 end = hi >> UNWIND_FP_SHIFT;

	*b = first;
	return end > first ? end - first : 0;
}

/*
 * The next run of record rows from row *i on, as the blocks wholly
 * inside its [lo, hi) (first in *b; neighbours with the same rule are
 * merged by rowgen, but a record row may follow another record row from
 * the next FDE): their count, *i past the run; 0 when no run is left.
 * The last row's end is not known: it ends a run, never begins one.
 */
static __u64 next_run(const struct unwind_row *rows, size_t n, size_t *i,
		      __u64 *b)
{
	size_t s, e;
	__u64 k;

	while (*i + 1 < n) {
		s = (*i)++;
		if (!fpmap__is_record(&rows[s]))
			continue;
		for (e = s; e + 2 < n && fpmap__is_record(&rows[e + 1]); e++)
			;
		*i = e + 1;
		k = inner_blocks(rows[s].pc, rows[e + 1].pc, b);
		if (k)
			return k;
	}
	return 0;
}

int fpmap__make(const struct unwind_row *rows, size_t n, __u64 **words,
		size_t *nwords, __u32 *block0)
{
	__u64 b, k, first = ~0ULL, last = 0, *w;
	size_t i = 0;

	*words = NULL;
	*nwords = 0;
	while ((k = next_run(rows, n, &i, &b))) {
		first = b < first ? b : first;
		last = b + k > last ? b + k : last;
	}
	if (first == ~0ULL)
		return -ENOENT;
	first &= ~63ULL;
	*nwords = (last - first + 63) / 64;
	w = calloc(*nwords, sizeof(*w));
	if (!w)
		return -ENOMEM;
	i = 0;
	while ((k = next_run(rows, n, &i, &b)))
		for (; k; k--, b++)
			w[(b - first) / 64] |= 1ULL << ((b - first) % 64);
	*words = w;
	*block0 = first;
	return 0;
}
