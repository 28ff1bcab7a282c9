// SPDX-License-Identifier: GPL-2.0
/*
 * fdefind.c: FDE lookup in .eh_frame and .debug_frame, and rows from
 * the FDE found (fdefind.h).
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "cfi.h"
#include "cfirows.h"
#include "fdefind.h"

/* .eh_frame_hdr encodings we read: what binutils and lld emit */
#define PE_UDATA4 0x03
#define PE_DATAREL_SDATA4 0x3b

struct fdeix {
	__u64 start, end, off;
};

struct fdefind {
	struct cfi c;
	struct ehhdr h; /* .eh_frame: its table */
	struct fdeix *ix; /* .debug_frame: its FDEs by start */
	size_t nix;
	size_t hint; /* the table entry found last: starts come in order */
	struct cfi_fde fde; /* the last found, its CIE kept for the next */
};

static __s64 get_s32(const unsigned char *p)
{
	__s32 v;

	memcpy(&v, p, 4);
	return v;
}

int ehhdr__read(Elf *elf, struct ehhdr *h)
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
	h->hdr = p;
	h->size = size;
	h->tab = p + 12;
	h->vaddr = ph.p_vaddr;
	h->offset = ph.p_offset;
	return 0;
}

__u64 ehhdr__start(const struct ehhdr *h, size_t i)
{
	return h->vaddr + (__u64)get_s32(h->tab + 8 * i);
}

/* The section of elf named name, or NULL; *sh its header. */
static Elf_Scn *section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		s = elf_strptr(elf, shstrndx, sh->sh_name);
		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

/* Compressed (objcopy --compress-debug-sections), it is decompressed
 * in place, as dwarf_begin_elf does. */
Elf_Data *fdefind__debug_frame(Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section(elf, ".debug_frame", &sh);

	if (!scn || sh.sh_type == SHT_NOBITS)
		return NULL;
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return NULL;
	return elf_getdata(scn, NULL);
}

/*
 * .eh_frame as libdw finds it: its section (and address), or with no
 * section headers where .eh_frame_hdr points, to the end of the file.
 */
static int eh_frame(Elf *elf, const struct ehhdr *h, struct cfi *c)
{
	struct cfi hc = {.buf = h->hdr,
			 .size = h->size,
			 .vaddr = h->vaddr,
			 .datarel = h->vaddr};
	const __u8 *p = h->hdr + 4;
	GElf_Shdr sh;
	Elf_Scn *scn = section(elf, ".eh_frame", &sh);
	Elf_Data *d;
	size_t fsize;
	__u64 ptr, off;
	char *raw;

	c->eh = true;
	if (scn) {
		d = sh.sh_type == SHT_NOBITS ? NULL : elf_rawdata(scn, NULL);
		if (!d || !d->d_buf)
			return -ENODATA;
		c->buf = d->d_buf;
		c->size = d->d_size;
		c->vaddr = sh.sh_addr;
		return 0;
	}
	raw = elf_rawfile(elf, &fsize);
	if (!raw || cfi__pointer(&hc, h->hdr[1], &p, &ptr))
		return -ENODATA;
	off = ptr - h->vaddr + h->offset;
	if (off >= fsize)
		return -ENODATA;
	c->buf = (const __u8 *)raw + off;
	c->size = fsize - off;
	c->vaddr = ptr;
	return 0;
}

/* Does table entry i's range of starts hold pc? */
static bool holds(const struct ehhdr *h, size_t i, __u64 pc)
{
	return i < h->count && pc >= ehhdr__start(h, i) &&
	       (i + 1 == h->count || pc < ehhdr__start(h, i + 1));
}

/*
 * The FDE of pc by .eh_frame_hdr's table: the entry whose range of
 * starts holds pc (what libdw's binary search finds; rowgen asks in
 * order, so the last one's or the next), if its FDE holds pc.
 */
static int find_eh(struct fdefind *f, __u64 pc, struct cfi_fde *fde)
{
	size_t l = 0, u = f->h.count, i = f->hint;
	struct cfi_entry e;

	if (!holds(&f->h, i, pc) && !holds(&f->h, ++i, pc)) {
		while (l < u) { /* the first entry starting after pc */
			i = l + (u - l) / 2;
			if (pc < ehhdr__start(&f->h, i))
				u = i;
			else
				l = i + 1;
		}
		if (!l)
			return -1;
		i = l - 1;
	}
	f->hint = i;
	if (cfi__entry(&f->c,
		       f->h.vaddr + (__u64)get_s32(f->h.tab + 8 * i + 4) -
			   f->c.vaddr,
		       &e) ||
	    e.is_cie || cfi__fde(&f->c, &e, fde))
		return -1;
	return pc >= fde->start && pc < fde->end ? 0 : -1;
}

/* The FDE of pc in .debug_frame: the one starting last at or before it. */
static int find_debug(struct fdefind *f, __u64 pc, struct cfi_fde *fde)
{
	size_t l = 0, u = f->nix, i;
	struct cfi_entry e;

	while (l < u) { /* the first starting after pc */
		i = l + (u - l) / 2;
		if (f->ix[i].start <= pc)
			l = i + 1;
		else
			u = i;
	}
	if (!l || pc >= f->ix[l - 1].end)
		return -1;
	if (cfi__entry(&f->c, f->ix[l - 1].off, &e) || cfi__fde(&f->c, &e, fde))
		return -1;
	return 0;
}

static int cmp_ix(const void *a, const void *b)
{
	const struct fdeix *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * .debug_frame's FDEs, read through to the end or the first entry we
 * cannot read, sorted by start; of FDEs starting at the same address
 * the first (libdw keeps the first it meets).
 */
static int index_debug(struct fdefind *f)
{
	struct cfi_entry e;
	struct cfi_fde fde = {.cie_off = UINT64_MAX};
	size_t cap = f->c.size / 16 + 1, i, n = 0;
	__u64 off = 0;

	f->ix = malloc(cap * sizeof(*f->ix));
	if (!f->ix)
		return -ENOMEM;
	while (f->nix < cap && cfi__entry(&f->c, off, &e) == 0) {
		off = e.next;
		if (!e.is_cie && !cfi__fde(&f->c, &e, &fde))
			f->ix[f->nix++] =
			    (struct fdeix){fde.start, fde.end, e.off};
	}
	qsort(f->ix, f->nix, sizeof(*f->ix), cmp_ix);
	for (i = 0; i < f->nix; i++)
		if (!n || f->ix[i].start != f->ix[n - 1].start)
			f->ix[n++] = f->ix[i];
	f->nix = n;
	return 0;
}

static void fdefind_close(void *p)
{
	struct fdefind *f = p;

	if (f)
		free(f->ix);
	free(f);
}

static void *fdefind_open(Elf *elf, bool eh)
{
	struct fdefind *f = calloc(1, sizeof(*f));
	Elf_Data *d;
	int r;

	if (!f)
		return NULL;
	f->fde.cie_off = UINT64_MAX;
	if (eh) {
		r = ehhdr__read(elf, &f->h);
		if (!r)
			r = eh_frame(elf, &f->h, &f->c);
	} else {
		d = fdefind__debug_frame(elf);
		r = d && d->d_buf ? 0 : -ENODATA;
		if (!r) {
			f->c.buf = d->d_buf;
			f->c.size = d->d_size;
			r = index_debug(f);
		}
	}
	if (r) {
		fdefind_close(f);
		return NULL;
	}
	return f;
}

static int fdefind_rows(void *p, __u64 pc, __u64 limit, cfirows_emit emit,
			void *ctx, __u64 *endp)
{
	struct fdefind *f = p;
	__u64 end;
	int r;

	while (pc < limit) {
		if (f->c.eh ? find_eh(f, pc, &f->fde)
			    : find_debug(f, pc, &f->fde))
			break;
		r = cfirows__fde(&f->c, &f->fde, pc, limit, emit, ctx, &end);
		if (r)
			return r;
		if (end <= pc)
			break; /* the program breaks there */
		pc = end;
	}
	*endp = pc;
	return 0;
}

const struct rowgen_cfi fdefind__cfi = {
    .open = fdefind_open,
    .rows = fdefind_rows,
    .close = fdefind_close,
};
