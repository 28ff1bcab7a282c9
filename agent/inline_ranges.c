/*
 * inline_ranges: PcDesc records -> merged code ranges of inlined chains.
 */
#include <errno.h>
#include <string.h>
#include "inline_ranges.h"

int inline_ranges__same_chain(const PCStackInfo *a, const PCStackInfo *b)
{
	return a->numstackframes == b->numstackframes &&
	       !memcmp(a->methods, b->methods,
		       sizeof(jmethodID) * a->numstackframes);
}

int inline_ranges__build(const PCStackInfo *pcs, int npcs, uint64_t code_start,
			 uint64_t code_end, struct code_range *out)
{
	uint64_t prev = code_start; /* start of the next record's range */
	int i, n = 0;

	for (i = 1; i < npcs; i++)
		if ((uintptr_t)pcs[i].pc < (uintptr_t)pcs[i - 1].pc)
			return -EINVAL;
	for (i = 0; i < npcs; i++) {
		const PCStackInfo *p = &pcs[i];
		uint64_t pc = (uintptr_t)p->pc, end = pc + 1;

		/* HotSpot's sentinel PcDesc sits before the code */
		if (pc < code_start)
			continue;
		if (end > code_end)
			end = code_end;
		if (end <= prev)
			continue;
		if (p->numstackframes >= 2 && p->methods) {
			if (n && out[n - 1].end == prev &&
			    inline_ranges__same_chain(out[n - 1].pc, p)) {
				out[n - 1].end = end;
			} else {
				out[n].start = prev;
				out[n].end = end;
				out[n].pc = p;
				n++;
			}
		}
		prev = end;
	}
	return n;
}
