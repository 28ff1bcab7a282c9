// SPDX-License-Identifier: GPL-2.0
/*
 * rowgen.c: .eh_frame and .debug_frame -> unwind rows (rowgen.h). The
 * FDEs are found through .eh_frame_hdr's binary search table (sorted
 * initial locations) and by reading .debug_frame through (libdw's
 * dwarf_next_cfi); from each FDE's start, libdw gives one frame state per pc
 * range (dwarf_cfi_addrframe), which becomes one row when its rules are
 * ones the BPF walk can follow, else a ROW_NONE row.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "common/stop.h"
#include "rowgen.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16 /* the return address column on x86-64 */

/* .eh_frame_hdr encodings we read: what binutils and lld emit */
#define PE_UDATA4 0x03
#define PE_DATAREL_SDATA4 0x3b

struct rowbuf {
	struct unwind_row *r;
	size_t n, cap;
};

/* Append row unless it repeats the last one's rule. */
static int push(struct rowbuf *b, const struct unwind_row *row)
{
	struct unwind_row *last = b->n ? &b->r[b->n - 1] : NULL;

	if (last && last->pc == row->pc) {
		*last = *row; /* an empty range before it: replaced */
		if (b->n < 2 ||
		    memcmp(&b->r[b->n - 2].cfa_off, &row->cfa_off, 4))
			return 0;
		b->n--; /* now the same as the one before */
		return 0;
	}
	if (last && !memcmp(&last->cfa_off, &row->cfa_off, 4))
		return 0;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		void *p;

		if (cap > ROWGEN_MAX_ROWS)
			return -ENOMEM;
		p = realloc(b->r, cap * sizeof(*b->r));
		if (!p)
			return -ENOMEM;
		b->r = p;
		b->cap = cap;
	}
	b->r[b->n++] = *row;
	return 0;
}

/* A register rule "at (or value) CFA + off": 0 and *off, else -1. */
static int cfa_relative(const Dwarf_Op *ops, size_t nops, __s64 *off)
{
	if (!nops || ops[0].atom != DW_OP_call_frame_cfa)
		return -1;
	if (nops == 1) {
		*off = 0;
		return 0;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (__s64)ops[1].number;
		return 0;
	}
	return -1;
}

/*
 * The CFA of a PLT entry as GCC and binutils describe it:
 * rsp + 8 + ((rip & 15) >= K ? 8 : 0), K the offset of the entry's push
 * ("breg7 8; breg16 0; lit15; and; litK; ge; lit3; shl; plus").
 */
static int plt_rule(const Dwarf_Op *o, size_t n, struct unwind_row *row)
{
	if (n != 9 || o[0].atom != DW_OP_breg7 || o[0].number != 8 ||
	    o[1].atom != DW_OP_breg16 || o[1].number != 0 ||
	    o[2].atom != DW_OP_lit15 || o[3].atom != DW_OP_and ||
	    o[4].atom < DW_OP_lit0 || o[4].atom > DW_OP_lit15 ||
	    o[5].atom != DW_OP_ge || o[6].atom != DW_OP_lit3 ||
	    o[7].atom != DW_OP_shl || o[8].atom != DW_OP_plus)
		return -1;
	row->kind = ROW_CFA_PLT;
	row->cfa_off = o[4].atom - DW_OP_lit0;
	return 0;
}

/* CFA = register + offset (a plain rule), or the PLT expression. */
static void cfa_rule(Dwarf_Frame *fr, struct unwind_row *row)
{
	Dwarf_Op *ops;
	size_t nops;
	__s64 reg, off;

	if (dwarf_frame_cfa(fr, &ops, &nops) || !nops)
		return;
	if (nops == 1 && ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (__s64)ops[0].number2;
	} else if (nops == 1 && ops[0].atom >= DW_OP_breg0 &&
		   ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (__s64)ops[0].number;
	} else {
		plt_rule(ops, nops, row);
		return;
	}
	if (off <= 0 || off > INT16_MAX || (reg != REG_RSP && reg != REG_RBP))
		return;
	row->kind = reg == REG_RSP ? ROW_CFA_RSP : ROW_CFA_RBP;
	row->cfa_off = (__s16)off;
}

/* The rule of the frame state at hand, as a row (ROW_NONE if not one
 * the BPF walk follows). */
static void frame_row(Dwarf_Frame *fr, bool signal, struct unwind_row *row)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	__s64 off;

	row->kind = ROW_NONE;
	row->cfa_off = 0;
	row->rbp_slot = 0;
	if (signal)
		return; /* a signal frame: the caller's state is in a ucontext */
	if (dwarf_frame_register(fr, REG_RA, mem, &ops, &nops))
		return;
	if (!nops && ops == mem) {
		row->kind = ROW_END; /* undefined: no caller */
		return;
	}
	if (cfa_relative(ops, nops, &off) || off != -8)
		return;
	if (dwarf_frame_register(fr, REG_RBP, mem, &ops, &nops))
		return;
	if (nops || ops == mem) { /* not "same value" */
		if (cfa_relative(ops, nops, &off) || off >= 0 || off % 8 ||
		    off < -128 * 8)
			return;
		row->rbp_slot = (__s8)(off / 8);
	}
	cfa_rule(fr, row);
	if (row->kind == ROW_NONE)
		row->rbp_slot = 0;
}

/* Rows from pc on, up to limit (the next FDE's start) or the end of
 * the CFI that holds pc. Returns the pc where they end. */
static int fde_rows(Dwarf_CFI *cfi, __u64 pc, __u64 limit, struct rowbuf *b,
		    __u64 *endp)
{
	while (pc < limit) {
		Dwarf_Frame *fr;
		Dwarf_Addr start, end;
		struct unwind_row row;
		bool signal;
		int r;

		if (dwarf_cfi_addrframe(cfi, pc, &fr))
			break;
		if (dwarf_frame_info(fr, &start, &end, &signal) < 0 ||
		    end <= pc) {
			free(fr);
			break;
		}
		frame_row(fr, signal, &row);
		free(fr);
		row.pc = (__u32)pc;
		r = push(b, &row);
		if (r)
			return r;
		pc = end;
	}
	*endp = pc;
	return 0;
}

static __s64 get_s32(const unsigned char *p)
{
	__s32 v;

	memcpy(&v, p, 4);
	return v;
}

/* .eh_frame_hdr's table: its data, its address and fde count. */
struct ehhdr {
	const unsigned char *tab;
	__u64 vaddr;
	size_t count;
};

static int read_hdr(Elf *elf, struct ehhdr *h)
{
	size_t i, nph, size;
	GElf_Phdr ph;
	Elf_Data *d = NULL;
	const unsigned char *p;

	if (elf_getphdrnum(elf, &nph))
		return -EINVAL;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) ||
		    ph.p_type != PT_GNU_EH_FRAME)
			continue;
		d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
					 ELF_T_BYTE);
		break;
	}
	if (!d || d->d_size < 12)
		return -ENODATA;
	p = d->d_buf;
	size = d->d_size;
	if (p[0] != 1 || ((p[1] & 0x0f) != 0x03 && (p[1] & 0x0f) != 0x0b))
		return -ENOTSUP;
	if (p[2] != PE_UDATA4 || p[3] != PE_DATAREL_SDATA4)
		return -ENOTSUP;
	h->count = (__u32)get_s32(p + 8);
	if (!h->count)
		return -ENODATA;
	if (h->count > (size - 12) / 8)
		return -EINVAL; /* bounded by the data, not by the header */
	h->tab = p + 12;
	h->vaddr = ph.p_vaddr;
	return 0;
}

static int machine_ok(Elf *elf)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		return -EINVAL;
	return eh.e_machine == EM_X86_64 && eh.e_ident[EI_CLASS] == ELFCLASS64
		   ? 0
		   : -ENOTSUP;
}

/* A row where no FDE covers the code: rows from .debug_frame may fill
 * it (merge); ROW_FP in what rowgen gives out. */
#define ROW_GAP ROW_KINDS

/*
 * Rows from each FDE start of starts[0, n) (sorted) on, a gap row where
 * code between them has none and after the last.
 */
static int walk_starts(Dwarf_CFI *cfi, const __u64 *starts, size_t n,
		       struct rowbuf *b)
{
	static const struct unwind_row gap = {.kind = ROW_GAP};
	__u64 prev = 0, end = 0;
	size_t i;
	int r = 0;

	for (i = 0; i < n && !r; i++) {
		__u64 s = starts[i];
		/* a big library takes seconds: the run's end must not wait */
		if (i % 256 == 0 && stop__asked()) {
			r = -EINTR;
			break;
		}
		__u64 next = i + 1 < n ? starts[i + 1] : UINT64_MAX;
		struct unwind_row g = gap;

		if (s < prev || s > UINT32_MAX)
			r = s < prev ? -EINVAL : -ERANGE;
		else if (end < s && end) { /* code no FDE covers */
			g.pc = (__u32)end;
			r = push(b, &g);
		}
		if (!r)
			r = fde_rows(cfi, end > s ? end : s, next, b, &end);
		if (!r && end > UINT32_MAX)
			r = -ERANGE;
		prev = s;
	}
	if (!r && b->n) {
		struct unwind_row g = gap;

		g.pc = (__u32)end;
		r = push(b, &g);
	}
	return r;
}

/* The FDE starts in .eh_frame_hdr's table order: sorted by the linker;
 * checked. */
static int walk_eh(Elf *elf, const struct ehhdr *h, struct rowbuf *b)
{
	Dwarf_CFI *cfi = dwarf_getcfi_elf(elf);
	__u64 *starts;
	size_t i;
	int r;

	if (!cfi)
		return -ENODATA;
	starts = malloc(h->count * sizeof(*starts));
	if (!starts) {
		dwarf_cfi_end(cfi);
		return -ENOMEM;
	}
	for (i = 0; i < h->count; i++)
		starts[i] = h->vaddr + get_s32(h->tab + 8 * i);
	r = walk_starts(cfi, starts, h->count, b);
	free(starts);
	dwarf_cfi_end(cfi);
	return r;
}

/* The data of elf's .debug_frame section, or NULL. dwarf_begin_elf
 * decompressed it if it was (SHF_COMPRESSED, objcopy
 * --compress-debug-sections); a section still compressed is left. */
static Elf_Data *debug_frame_data(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".debug_frame"))
			continue;
		if (sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED))
			return NULL;
		return elf_getdata(scn, NULL);
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The FDE starts of .debug_frame, in no order there: sorted, repeats
 * dropped, and FDEs of code the linker discarded (address 0, a
 * tombstone above 4 GB, an empty range) left out. *out malloc'd.
 */
static int debug_starts(Elf *elf, Elf_Data *d, __u64 **out, size_t *n)
{
	const unsigned char *ident =
	    (const unsigned char *)elf_getident(elf, NULL);
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	size_t cap = d->d_size / 16 + 1, k = 0, i;
	__u64 *s = malloc(cap * sizeof(*s)), lo, len;

	if (!s || !ident) {
		free(s);
		return -ENOMEM;
	}
	while (k < cap &&
	       dwarf_next_cfi(ident, d, false, off, &next, &e) == 0) {
		off = next;
		if (dwarf_cfi_cie_p(&e) || e.fde.end - e.fde.start < 16)
			continue;
		memcpy(&lo, e.fde.start, 8); /* 8-byte addresses on x86-64 */
		memcpy(&len, e.fde.start + 8, 8);
		if (lo && len && lo <= UINT32_MAX && len <= UINT32_MAX)
			s[k++] = lo;
	}
	qsort(s, k, sizeof(*s), cmp_u64);
	for (i = 0, *n = 0; i < k; i++)
		if (!*n || s[i] != s[*n - 1])
			s[(*n)++] = s[i];
	*out = s;
	return *n ? 0 : -ENODATA;
}

/* Rows of elf's .debug_frame, gaps marked; -ENODATA when it has none. */
static int walk_debug(Elf *elf, struct rowbuf *b, size_t *fdes)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_CFI *cfi = dw ? dwarf_getcfi(dw) : NULL;
	Elf_Data *d = cfi ? debug_frame_data(elf) : NULL;
	__u64 *starts = NULL;
	int r = d ? debug_starts(elf, d, &starts, fdes) : -ENODATA;

	if (!r)
		r = walk_starts(cfi, starts, *fdes, b);
	free(starts);
	if (dw)
		dwarf_end(dw); /* and the CFI it owns */
	return r;
}

/* Rows of a, and of b where a has a gap or none. */
static int merge(const struct rowbuf *a, const struct rowbuf *b,
		 struct rowbuf *out)
{
	static const struct unwind_row gap = {.kind = ROW_GAP};
	const struct unwind_row *ra = NULL, *rb = NULL;
	struct unwind_row row;
	size_t i = 0, j = 0;
	__u32 pc;
	int r = 0;

	while ((i < a->n || j < b->n) && !r) {
		pc = j >= b->n || (i < a->n && a->r[i].pc <= b->r[j].pc)
			 ? a->r[i].pc
			 : b->r[j].pc;
		while (i < a->n && a->r[i].pc == pc)
			ra = &a->r[i++];
		while (j < b->n && b->r[j].pc == pc)
			rb = &b->r[j++];
		row = ra && ra->kind != ROW_GAP ? *ra : rb ? *rb : gap;
		row.pc = pc;
		r = push(out, &row);
	}
	return r;
}

/* in's rows with gaps as ROW_FP (neighbours merged again) into out. */
static int finish(const struct rowbuf *in, struct rowbuf *out)
{
	struct unwind_row row;
	size_t i;
	int r = 0;

	for (i = 0; i < in->n && !r; i++) {
		row = in->r[i];
		if (row.kind == ROW_GAP)
			row.kind = ROW_FP;
		r = push(out, &row);
	}
	return r;
}

/* The rows of elf's .eh_frame, then .debug_frame (elf's, else debug's)
 * where it has none: one buffer, gaps as ROW_FP. */
static int make_rows(Elf *elf, Elf *debug, struct rowbuf *out,
		     struct rowgen_stats *st)
{
	struct rowbuf eh = {0}, dbg = {0}, m = {0};
	struct ehhdr h;
	int r, rd;

	r = read_hdr(elf, &h);
	if (!r)
		r = walk_eh(elf, &h, &eh);
	if (!r)
		st->fdes = h.count;
	else
		eh.n = 0; /* a table we do not read, or broken: none of it */
	rd = walk_debug(elf, &dbg, &st->debug_fdes);
	if (rd == -ENODATA && debug)
		rd = walk_debug(debug, &dbg, &st->debug_fdes);
	if (rd) {
		st->debug_fdes = 0;
		dbg.n = 0;
	}
	if (r && !rd)
		r = 0; /* .debug_frame alone */
	if (!r)
		r = merge(&eh, &dbg, &m);
	if (!r)
		r = finish(&m, out);
	free(eh.r);
	free(dbg.r);
	free(m.r);
	return r;
}

int rowgen__elf_debug(Elf *elf, Elf *debug, struct unwind_row **out, size_t *n,
		      struct rowgen_stats *st)
{
	struct rowgen_stats s = {0};
	struct rowbuf b = {0};
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	r = machine_ok(elf);
	if (!r)
		r = make_rows(elf, debug, &b, &s);
	if (!r && !b.n)
		r = -ENODATA;
	if (r) {
		free(b.r);
		return r;
	}
	if (st) {
		*st = s;
		st->rows = b.n;
		for (i = 0; i < b.n; i++)
			st->kind[b.r[i].kind]++;
	}
	*out = b.r;
	*n = b.n;
	return 0;
}

int rowgen__elf(Elf *elf, struct unwind_row **out, size_t *n,
		struct rowgen_stats *st)
{
	return rowgen__elf_debug(elf, NULL, out, n, st);
}

int rowgen__fd(int fd, struct unwind_row **out, size_t *n,
	       struct rowgen_stats *st)
{
	Elf *elf;
	int r;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return -EINVAL;
	r = elf_kind(elf) == ELF_K_ELF ? rowgen__elf(elf, out, n, st) : -EINVAL;
	elf_end(elf);
	return r;
}

const struct unwind_row *rowgen__find(const struct unwind_row *rows, size_t n,
				      __u64 pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* first row with rows[i].pc > pc */
		size_t mid = lo + (hi - lo) / 2;

		if (rows[mid].pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &rows[lo - 1] : NULL;
}
