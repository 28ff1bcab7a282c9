// SPDX-License-Identifier: GPL-2.0
/*
 * rowgen.c: .eh_frame and .debug_frame -> unwind rows (rowgen.h). The
 * FDEs are found through .eh_frame_hdr's binary search table (sorted
 * initial locations) and by reading .debug_frame through (cfi.h); from
 * each FDE's start its CFA program gives one rule per pc range
 * (cfirows.h), which becomes one row when the BPF walk can follow it,
 * else a ROW_NONE row. The tests put libdw's CFI interface in the
 * program's place (rowgen__elf_via) and want the same rows.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "common/stop.h"
#include "fdefind.h"
#include "rowgen.h"

struct rowbuf {
	struct unwind_row *r;
	size_t n, cap;
};

static bool same_rule(const struct unwind_row *a, const struct unwind_row *b)
{
	return a->cfa_off == b->cfa_off && a->kind == b->kind &&
	       a->rbp_slot == b->rbp_slot;
}

/* Append row unless it repeats the last one's rule. */
static int push(struct rowbuf *b, const struct unwind_row *row)
{
	struct unwind_row *last = b->n ? &b->r[b->n - 1] : NULL;

	if (last && last->pc == row->pc) {
		*last = *row; /* an empty range before it: replaced */
		if (b->n < 2 || !same_rule(&b->r[b->n - 2], row))
			return 0;
		b->n--; /* now the same as the one before */
		return 0;
	}
	if (last && same_rule(last, row))
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

static int machine_ok(Elf *elf)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		return -EINVAL;
	return eh.e_machine == EM_X86_64 &&
		       eh.e_ident[EI_CLASS] == ELFCLASS64 &&
		       eh.e_ident[EI_DATA] == ELFDATA2LSB
		   ? 0
		   : -ENOTSUP;
}

/* A row where no FDE covers the code: rows from .debug_frame may fill
 * it (merge); ROW_FP in what rowgen gives out. */
#define ROW_GAP ROW_KINDS

static int push_row(void *b, const struct unwind_row *row)
{
	return push(b, row);
}

/*
 * Rows from each FDE start of starts[0, n) (sorted) on, a gap row where
 * code between them has none and after the last.
 */
static int walk_starts(const struct rowgen_cfi *via, void *cfi,
		       const __u64 *starts, size_t n, struct rowbuf *b)
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
			r = via->rows(cfi, end > s ? end : s, next, push_row, b,
				      &end);
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
static int walk_eh(Elf *elf, const struct ehhdr *h,
		   const struct rowgen_cfi *via, struct rowbuf *b)
{
	void *cfi = via->open(elf, true);
	__u64 *starts;
	size_t i;
	int r;

	if (!cfi)
		return -ENODATA;
	starts = malloc(h->count * sizeof(*starts));
	if (!starts) {
		via->close(cfi);
		return -ENOMEM;
	}
	for (i = 0; i < h->count; i++)
		starts[i] = ehhdr__start(h, i);
	r = walk_starts(via, cfi, starts, h->count, b);
	free(starts);
	via->close(cfi);
	return r;
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
static int debug_starts(Elf_Data *d, __u64 **out, size_t *n)
{
	struct cfi c = {.buf = d->d_buf, .size = d->d_size};
	struct cfi_entry e;
	__u64 off = 0;
	size_t cap = d->d_size / 16 + 1, k = 0, i;
	__u64 *s = malloc(cap * sizeof(*s)), lo, len;

	if (!s)
		return -ENOMEM;
	while (k < cap && cfi__entry(&c, off, &e) == 0) {
		off = e.next;
		if (e.is_cie || e.end - e.body < 16)
			continue;
		memcpy(&lo, e.body, 8); /* 8-byte addresses on x86-64 */
		memcpy(&len, e.body + 8, 8);
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
static int walk_debug(Elf *elf, const struct rowgen_cfi *via, struct rowbuf *b,
		      size_t *fdes)
{
	void *cfi = via->open(elf, false);
	Elf_Data *d = cfi ? fdefind__debug_frame(elf) : NULL;
	__u64 *starts = NULL;
	int r = d ? debug_starts(d, &starts, fdes) : -ENODATA;

	if (!r)
		r = walk_starts(via, cfi, starts, *fdes, b);
	free(starts);
	if (cfi)
		via->close(cfi);
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

/* b's gaps as ROW_FP. No neighbours become equal: push merged equal
 * neighbours, and no row was ROW_FP before. */
static void finish(struct rowbuf *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->r[i].kind == ROW_GAP)
			b->r[i].kind = ROW_FP;
}

/* The rows of elf's .eh_frame, then .debug_frame (elf's, else debug's)
 * where it has none: one buffer, gaps as ROW_FP. */
static int make_rows(Elf *elf, Elf *debug, const struct rowgen_cfi *via,
		     struct rowbuf *out, struct rowgen_stats *st)
{
	struct rowbuf eh = {0}, dbg = {0}, *one;
	struct ehhdr h;
	int r, rd;

	r = ehhdr__read(elf, &h);
	if (!r)
		r = walk_eh(elf, &h, via, &eh);
	if (!r)
		st->fdes = h.count;
	else
		eh.n = 0; /* a table we do not read, or broken: none of it */
	rd = walk_debug(elf, via, &dbg, &st->debug_fdes);
	if (rd == -ENODATA && debug)
		rd = walk_debug(debug, via, &dbg, &st->debug_fdes);
	if (rd) {
		st->debug_fdes = 0;
		dbg.n = 0;
	}
	if (r && !rd)
		r = 0; /* .debug_frame alone */
	if (!r && eh.n && dbg.n)
		r = merge(&eh, &dbg, out);
	else if (!r) { /* one of them: merging with none changes nothing */
		one = eh.n ? &eh : &dbg;
		*out = *one;
		*one = (struct rowbuf){0};
	}
	if (!r)
		finish(out);
	free(eh.r);
	free(dbg.r);
	return r;
}

int rowgen__elf_via(Elf *elf, Elf *debug, const struct rowgen_cfi *via,
		    struct unwind_row **out, size_t *n, struct rowgen_stats *st)
{
	struct rowgen_stats s = {0};
	struct rowbuf b = {0};
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	r = machine_ok(elf);
	if (!r)
		r = make_rows(elf, debug, via, &b, &s);
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

int rowgen__elf_debug(Elf *elf, Elf *debug, struct unwind_row **out, size_t *n,
		      struct rowgen_stats *st)
{
	return rowgen__elf_via(elf, debug, &fdefind__cfi, out, n, st);
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
