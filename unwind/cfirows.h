/*
 * cfirows: an FDE's CFA program run through, one unwind row (rows.h)
 * per range of code it describes. The rules are those libdw 0.188
 * gives for each pc (x86-64's ABI defaults before the CIE's
 * instructions, the CIE's before the FDE's, a register not mentioned
 * "undefined" or "same value" as libdw says) and become the row
 * rowgen made from libdw's answer: rsp/rbp + N, the PLT's expression,
 * the outermost frame, else ROW_NONE. A pure core over a section's
 * bytes (cfi.h), bounded: one pass over the program, a remembered-state
 * stack of CFIROWS_STACK.
 */
#ifndef MIXPROF_UNWIND_CFIROWS_H
#define MIXPROF_UNWIND_CFIROWS_H

#include "cfi.h"
#include "rows.h"

/* DW_CFA_remember_state depth (compilers use 1 or 2); a deeper program
 * ends its rows where it goes deeper (libdw would allocate on) */
#define CFIROWS_STACK 32

/* Takes each row: 0, or a negative errno that stops the rows. */
typedef int (*cfirows_emit)(void *ctx, const struct unwind_row *row);

/*
 * The rows of f from pc (f->start <= pc < f->end) up to limit: one per
 * range with its own rule, in order, row.pc = its first address. *endp:
 * where they end (limit or past it, f->end, or where the program
 * breaks: an opcode we do not know, a truncated operand, a restore
 * with nothing remembered). Returns 0, or emit's error.
 */
int cfirows__fde(const struct cfi *c, const struct cfi_fde *f, __u64 pc,
		 __u64 limit, cfirows_emit emit, void *ctx, __u64 *endp);

#endif
