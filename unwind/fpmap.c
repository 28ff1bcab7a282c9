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
 * The runs of record rows, as [lo, hi) address ranges (neighbours with the
 * same rule are merged by rowgen, but a record row may follow another
 * record row from the next FDE): each run's inner blocks are set.
 */
int fpmap__make(const struct unwind_row *rows, size_t n, __u64 **words,
		size_t *nwords, __u32 *block0)
{
	__u64 lo = 0, b, k, first = ~0ULL, last = 0, *w;
	size_t i, pass;

	*words = NULL;
	*nwords = 0;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i + 1 < n; i++) {
			if (!fpmap__is_record(&rows[i]))
				continue;
			if (!i || !fpmap__is_record(&rows[i - 1]))
				lo = rows[i].pc;
			if (fpmap__is_record(&rows[i + 1]) && i + 2 < n)
				continue; /* the run goes on */
			k = inner_blocks(lo, rows[i + 1].pc, &b);
			if (!k)
				continue;
			if (!pass) {
				first = b < first ? b : first;
				last = b + k > last ? b + k : last;
				continue;
			}
			for (; k; k--, b++)
				w[(b - first) / 64] |= 1ULL
						       << ((b - first) % 64);
		}
		if (pass)
			break;
		if (first == ~0ULL)
			return -ENOENT;
		first &= ~63ULL;
		*nwords = (last - first + 63) / 64;
		w = calloc(*nwords, sizeof(*w));
		if (!w)
			return -ENOMEM;
	}
	*words = w;
	*block0 = first;
	return 0;
}
