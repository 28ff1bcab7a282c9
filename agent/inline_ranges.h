/*
 * inline_ranges: which code sub-ranges of a compiled method run inlined
 * code, from HotSpot's JVMTI_CMLR_INLINE_INFO record.
 *
 * HotSpot gives one PCStackInfo per debug point (PcDesc) of the nmethod:
 * pc is a call's return address or a safepoint poll, methods[] the scope
 * chain at that pc, innermost first (methods[numstackframes - 1] is the
 * compiled method itself). A record covers the code (previous pc, pc],
 * the same "approximate" rule HotSpot uses to find the debug info of an
 * arbitrary pc: exact at return addresses (the ip of every non-leaf frame,
 * and ip - 1 too), and code between two debug points is attributed to the
 * point it leads to. Code after the last point (out-of-line slow paths,
 * exception handlers) gets no range.
 *
 * Pure: memory in, ranges out; jmethodIDs are only compared.
 */
#ifndef MIXPROF_JMAP_INLINE_RANGES_H
#define MIXPROF_JMAP_INLINE_RANGES_H

#include <stdint.h>
#include <jvmti.h>
#include <jvmticmlr.h>

struct code_range {
	uint64_t start; /* first byte */
	uint64_t end; /* one past the last byte */
	const PCStackInfo *pc; /* the chain (numstackframes >= 2) */
};

/*
 * Fill out[] with the ranges of code [code_start, code_end) that run
 * inlined code: ascending, non-overlapping, adjacent ranges of the same
 * chain merged, ranges whose chain is just the method itself left out.
 * out must hold npcs entries. pcs must be sorted by pc (HotSpot emits them
 * so); returns the number of ranges, or -EINVAL when pcs is not sorted.
 */
int inline_ranges__build(const PCStackInfo *pcs, int npcs, uint64_t code_start,
			 uint64_t code_end, struct code_range *out);

/* Same chain of methods (bcis ignored: names do not show them)? */
int inline_ranges__same_chain(const PCStackInfo *a, const PCStackInfo *b);

#endif
