/*
 * cfi: the entries of an .eh_frame or .debug_frame section (DWARF 6.4.1,
 * the LSB's exception frames): CIEs, FDEs, the pointer encodings and
 * LEB128 numbers they are written in. A pure core over a section's
 * bytes, which come from any file a target maps: every read is bounded
 * by the section, a bad entry is an error, never a read past its end.
 *
 * Where the format leaves a choice (a length of 0, a 32-bit CIE id in
 * .debug_frame, an augmentation we do not know, a LEB128 number too
 * long), the answer is the one libdw 0.188 gives (dwarf_next_cfi, its
 * CIE and FDE cache): rowgen's rows must equal those libdw's CFI
 * interface gives, which the tests check.
 */
#ifndef MIXPROF_UNWIND_CFI_H
#define MIXPROF_UNWIND_CFI_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

/* One section of call frame information, in memory (x86-64: 8-byte
 * addresses, little-endian). */
struct cfi {
	const __u8 *buf;
	size_t size;
	__u64 vaddr; /* address of buf[0] (pc-relative pointers); 0 for
			.debug_frame */
	__u64 datarel; /* base of data-relative pointers */
	bool eh; /* .eh_frame (CIE pointers relative, id 0) */
};

/* A CIE: what its FDEs share. */
struct cfi_cie {
	__u64 code_align;
	__s64 data_align;
	const __u8 *insns, *insns_end; /* the initial instructions */
	__u8 fde_enc; /* DW_EH_PE_* of FDE addresses */
	bool sized_aug; /* 'z': FDEs say their augmentation's length */
	bool signal; /* 'S': a signal frame */
	size_t fde_aug_size; /* FDE augmentation bytes without 'z' */
};

/* An FDE: the code [start, end) and the program describing it. */
struct cfi_fde {
	__u64 start, end;
	const __u8 *insns, *insns_end;
	__u64 off; /* offset of the entry in the section */
	/* cie is the CIE at cie_off: kept from the previous cfi__fde
	 * with the same f, which most FDEs share (UINT64_MAX: none) */
	__u64 cie_off;
	struct cfi_cie cie;
};

/* One entry read by cfi__entry: a CIE (cie_off == off) or an FDE. */
struct cfi_entry {
	__u64 off, next; /* this entry's offset, the next one's */
	__u64 cie_off; /* an FDE's CIE, as a section offset */
	bool is_cie;
	const __u8 *body, *end; /* after the CIE id / CIE pointer */
};

/*
 * The entry at off. Returns 0, 1 at the end (a zero length, or no room
 * for one), -EINVAL for a corrupt entry (its end unknown: reading stops).
 */
int cfi__entry(const struct cfi *c, __u64 off, struct cfi_entry *e);

/* The CIE at off. Returns 0, -EINVAL (not a CIE, or corrupt). */
int cfi__cie(const struct cfi *c, __u64 off, struct cfi_cie *cie);

/*
 * The FDE of entry e (not a CIE), f->cie read again unless f->cie_off
 * is e's CIE already. Returns 0; -ENOENT when it describes
 * no code (an empty range) or its CIE is not one (skipped, as libdw
 * does); -EINVAL for an address or augmentation we cannot read.
 */
int cfi__fde(const struct cfi *c, const struct cfi_entry *e, struct cfi_fde *f);

/* A pointer in encoding enc at *p (moved past it). Returns 0, -EINVAL
 * (an encoding we do not read, or past the section's end). */
int cfi__pointer(const struct cfi *c, __u8 enc, const __u8 **p, __u64 *out);

/*
 * LEB128 numbers as libdw reads them: at most 10 bytes (9 and a sign
 * bit for signed ones) and not past end, an unfinished one read as
 * UINT64_MAX / INT64_MAX. The first byte is read even at end (libdw
 * does), but never at or past hard, the section's end: then *bad is
 * set and 0 returned.
 */
__u64 cfi__uleb(const __u8 **p, const __u8 *end, const __u8 *hard, bool *bad);
__s64 cfi__sleb(const __u8 **p, const __u8 *end, const __u8 *hard, bool *bad);

#endif
