/*
 * fdefind: the FDE that describes a pc in an ELF's .eh_frame (through
 * .eh_frame_hdr's sorted table, as libdw looks it up) or .debug_frame
 * (read through once, its FDEs sorted by address), and rowgen's rows
 * from it (cfirows.h): rowgen's own struct rowgen_cfi. The ELF is
 * untrusted: tables and pointers are checked against the data.
 */
#ifndef MIXPROF_UNWIND_FDEFIND_H
#define MIXPROF_UNWIND_FDEFIND_H

#include <libelf.h>
#include <stddef.h>
#include "rowgen.h"

/* .eh_frame_hdr (PT_GNU_EH_FRAME): its table of FDE starts. */
struct ehhdr {
	const unsigned char *hdr, *tab;
	size_t size;
	__u64 vaddr, offset; /* the segment's */
	size_t count;
};

/*
 * elf's .eh_frame_hdr, in the encodings binutils and lld write (udata4
 * count, datarel sdata4 table). Returns 0, -ENODATA (none, or an empty
 * table), -ENOTSUP (other encodings), -EINVAL (more entries than data).
 */
int ehhdr__read(Elf *elf, struct ehhdr *h);

/* The address of entry i's FDE start (i < h->count). */
__u64 ehhdr__start(const struct ehhdr *h, size_t i);

/* The data of elf's .debug_frame (decompressed if it was), or NULL. */
Elf_Data *fdefind__debug_frame(Elf *elf);

/* open, rows, close over .eh_frame and .debug_frame. */
extern const struct rowgen_cfi fdefind__cfi;

#endif
