/*
 * rowgen: an x86-64 ELF's call frame information (.eh_frame, found
 * through .eh_frame_hdr's sorted table, and .debug_frame, its own or a
 * separate debug file's) turned into unwind rows (rows.h), rules
 * read from their CFA programs (cfirows.h). A pure core: it
 * takes an open ELF (an fd or memory), never a path; the file is
 * untrusted (a target's library), so every count read from it is
 * bounded by the file's size.
 */
#ifndef MIXPROF_UNWIND_ROWGEN_H
#define MIXPROF_UNWIND_ROWGEN_H

#include <libelf.h>
#include <stddef.h>
#include <stdbool.h>
#include "cfirows.h"
#include "rows.h"

#define ROWGEN_MAX_ROWS (4u << 20) /* 32 MB of rows: no library has it */

struct rowgen_stats {
	size_t fdes; /* FDEs in .eh_frame_hdr's table */
	size_t debug_fdes; /* FDEs read from a .debug_frame */
	size_t rows; /* rows out, merged */
	size_t kind[ROW_KINDS]; /* rows out by kind */
};

/*
 * The rows of elf: sorted by pc, neighbours with the same rule merged,
 * a ROW_FP row at each gap between FDEs and after the last. Code with
 * an FDE in .eh_frame gets its rules (what the program's own unwinder
 * follows); code without one gets those of .debug_frame (elf's own;
 * else, when it has none, that of debug, its separate debug file, which
 * has the same addresses; debug may be NULL). *out is malloc'd (the
 * caller frees it), *n its rows; st (may be NULL) filled. Returns 0,
 * -ENODATA (no .eh_frame_hdr or an empty table, and no .debug_frame),
 * -ENOTSUP (not little-endian x86-64, or a table encoding we do not read), -EINVAL (a
 * corrupt table), -ERANGE (code above 4 GB), -ENOMEM; the errors of
 * .eh_frame only when there is no .debug_frame either.
 */
int rowgen__elf_debug(Elf *elf, Elf *debug, struct unwind_row **out, size_t *n,
		      struct rowgen_stats *st);

/*
 * Where rows come from, one CFI section at a time: rowgen's own reader
 * (fdefind.h) or, in the tests, libdw's CFI interface, the oracle ours
 * must equal. open: elf's .eh_frame (eh) or .debug_frame, NULL if none;
 * rows: from pc on, up to limit or the end of the FDE holding pc, each
 * given to emit, *endp where they end (pc when no FDE holds it);
 * returns 0 or emit's error.
 */
struct rowgen_cfi {
	void *(*open)(Elf *elf, bool eh);
	int (*rows)(void *cfi, __u64 pc, __u64 limit, cfirows_emit emit,
		    void *ctx, __u64 *endp);
	void (*close)(void *cfi);
};

/* rowgen__elf_debug with the rules from via. */
int rowgen__elf_via(Elf *elf, Elf *debug, const struct rowgen_cfi *via,
		    struct unwind_row **out, size_t *n,
		    struct rowgen_stats *st);

/* The same without a separate debug file. */
int rowgen__elf(Elf *elf, struct unwind_row **out, size_t *n,
		struct rowgen_stats *st);

/* The same for the ELF in fd (read, not written; the caller closes). */
int rowgen__fd(int fd, struct unwind_row **out, size_t *n,
	       struct rowgen_stats *st);

/* The row holding ELF address pc in rows[0, n), or NULL (before the first). */
const struct unwind_row *rowgen__find(const struct unwind_row *rows, size_t n,
				      __u64 pc);

#endif
