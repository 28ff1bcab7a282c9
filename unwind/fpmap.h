/*
 * fpmap: where a file's rows are the standard frame-pointer record, as a
 * bitmap of code blocks (rows.h: UNWIND_FP_SHIFT bytes each; bit set:
 * every address of the block has the row CFA = rbp + 16, the return
 * address at CFA - 8, the caller's rbp at CFA - 16). BPF steps a frame
 * whose address is in such a block by that rule without looking its row
 * up (unwind.bpf.h), where Debian's libjvm, built with frame pointers,
 * has 85% of its code. Pure: derived from a file's sorted rows alone.
 */
#ifndef MIXPROF_UNWIND_FPMAP_H
#define MIXPROF_UNWIND_FPMAP_H

#include <stdbool.h>
#include <stddef.h>
#include "rows.h"

/* Is r the standard frame record (what the fp step of BPF assumes)? */
bool fpmap__is_record(const struct unwind_row *r);

/*
 * The bitmap of rows[0, n) (sorted by pc, as rowgen makes them): bit i of
 * (*words)[i / 64] stands for the block (*block0 + i) (addresses
 * (*block0 + i) << UNWIND_FP_SHIFT on); *block0 a multiple of 64, the
 * bitmap from the first block set to the last. A block past the last
 * row is never set (the last row's end is not known). 0 with *words
 * malloc'd (the caller frees it), *nwords > 0; -ENOENT: no block is set
 * (*words NULL); -ENOMEM.
 */
int fpmap__make(const struct unwind_row *rows, size_t n, __u64 **words,
		size_t *nwords, __u32 *block0);

#endif
