/*
 * Unit tests: cfi (CIEs, FDEs, encodings) and cfirows (the CFA program
 * interpreter) on sections written here, one per shape the format
 * allows (.debug_frame in 32- and 64-bit DWARF, .eh_frame with 'zR'
 * and pc-relative pointers), each opcode's rows checked; then the same
 * sections and the fixture's own .eh_frame truncated and garbled, a
 * copy of exact size each time (the ASan build sees any read past it):
 * errors or rows, never a crash or a hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "unwind/cfirows.h"

/* A section being written. */
struct sec {
	__u8 b[512];
	size_t n;
};

static void put(struct sec *s, __u64 v, int size)
{
	for (int i = 0; i < size; i++)
		s->b[s->n++] = (__u8)(v >> (8 * i));
}

static void bytes(struct sec *s, const __u8 *p, size_t n)
{
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* An entry's length (osz 4 or 8) at *at, patched once it is written. */
static size_t open_entry(struct sec *s, int osz)
{
	if (osz == 8)
		put(s, 0xffffffff, 4);
	put(s, 0, osz);
	return s->n;
}

static void close_entry(struct sec *s, size_t at, int osz)
{
	__u64 len = s->n - at;

	for (int i = 0; i < osz; i++)
		s->b[at - osz + i] = (__u8)(len >> (8 * i));
}

/* The CIE: code factor 1, data factor -8, CFA = rsp + 8, the return
 * address at CFA - 8. */
static const __u8 cie_insns[] = {0x0c, 7, 8, 0x80 | 16, 1};

/*
 * The FDE's program over [0x1000, 0x1040), the rows it must give below:
 * push (CFA +16, rbp saved at CFA - 16), remember, a different offset,
 * restore, rbp as the CFA register, the PLT's expression, the return
 * address undefined, its rule a value (none of ours).
 */
static const __u8 fde_insns[] = {
    0x41, 0x0e,	     16,   0x80 | 6, 2, /* 0x1001: CFA rsp+16, rbp -16 */
    0x44, 0x0a,	     0x0e, 8, /* 0x1005: remember; rsp+8 */
    0x41, 0x0b, /* 0x1006: restore: rsp+16 */
    0x42, 0x0d,	     6, /* 0x1008: CFA rbp+16 */
    0x41, 0x0f,	     11,   0x77,     8,	   0x80, 0, 0x3f,
    0x1a, 0x3b,	     0x2a, 0x33,     0x24, 0x22, /* 0x1009: the PLT's, K = 11 */
    0x41, 0x07,	     16, /* 0x100a: RA undefined */
    0x41, 0x0c,	     7,	   8,	     0x14, 16,	 1, /* 0x100b: RA a value */
    0x41, 0x10,	     16,   0, /* 0x100c: RA an empty expression */
    0x41, 0xc0 | 16, 0x0c, 7,	     200,  1, /* 0x100d: rsp+200, RA restored */
    0x41, 0x2e,	     8,	   0x05,     6,	   0x81, 1, /* 0x100e: rbp at CFA - 8 * 129 */
};

static const struct unwind_row want[] = {
    {0x1000, 8, ROW_CFA_RSP, 0},   {0x1001, 16, ROW_CFA_RSP, -2},
    {0x1005, 8, ROW_CFA_RSP, -2},  {0x1006, 16, ROW_CFA_RSP, -2},
    {0x1008, 16, ROW_CFA_RBP, -2}, {0x1009, 11, ROW_CFA_PLT, -2},
    {0x100a, 0, ROW_END, 0},	   {0x100b, 0, ROW_NONE, 0},
    {0x100c, 0, ROW_END, 0},	   {0x100d, 200, ROW_CFA_RSP, -2},
    {0x100e, 0, ROW_NONE, 0},
};

/* .debug_frame, osz 4 or 8: CIE id all ones, absolute 8-byte pointers. */
static void debug_frame(struct sec *s, int osz)
{
	size_t at = open_entry(s, osz), fde;

	put(s, osz == 8 ? UINT64_MAX : 0xffffffff, osz);
	put(s, 4, 1); /* version */
	put(s, 0, 1); /* augmentation "" */
	put(s, 8, 1); /* address size */
	put(s, 0, 1); /* segment size */
	bytes(s, (const __u8 *)"\x01\x78\x10", 3); /* 1, -8, r16 */
	bytes(s, cie_insns, sizeof(cie_insns));
	close_entry(s, at, osz);
	fde = open_entry(s, osz);
	put(s, 0, osz); /* the CIE at offset 0 */
	put(s, 0x1000, 8);
	put(s, 0x40, 8);
	bytes(s, fde_insns, sizeof(fde_insns));
	close_entry(s, fde, osz);
}

/* .eh_frame at address 0x400: "zR" with pcrel sdata4 FDE pointers. */
static void eh_frame(struct sec *s)
{
	size_t at = open_entry(s, 4), fde;

	put(s, 0, 4); /* CIE id */
	bytes(s, (const __u8 *)"\x01zR\0\x01\x78\x10\x01\x1b", 9);
	bytes(s, cie_insns, sizeof(cie_insns));
	close_entry(s, at, 4);
	fde = open_entry(s, 4);
	put(s, s->n, 4); /* back to the CIE at 0 */
	put(s, 0x1000 - (0x400 + s->n), 4);
	put(s, 0x40, 4);
	put(s, 0, 1); /* no augmentation data */
	bytes(s, fde_insns, sizeof(fde_insns));
	close_entry(s, fde, 4);
}

struct got {
	struct unwind_row r[64];
	size_t n;
};

static int collect(void *ctx, const struct unwind_row *row)
{
	struct got *g = ctx;

	if (g->n == sizeof(g->r) / sizeof(g->r[0]))
		return -E2BIG;
	g->r[g->n++] = *row;
	return 0;
}

/* The FDE (second entry) of c gives want, from its start and midway. */
static void check_rows(const struct cfi *c)
{
	struct cfi_entry e;
	struct cfi_fde f = {.cie_off = UINT64_MAX};
	struct got g = {.n = 0};
	__u64 end;
	size_t i;

	CHECK_INT(cfi__entry(c, 0, &e), 0);
	CHECK(e.is_cie);
	CHECK_INT(cfi__entry(c, e.next, &e), 0);
	CHECK(!e.is_cie && e.cie_off == 0);
	CHECK_INT(cfi__fde(c, &e, &f), 0);
	CHECK(f.start == 0x1000 && f.end == 0x1040);
	CHECK_INT(cfirows__fde(c, &f, f.start, UINT64_MAX, collect, &g, &end),
		  0);
	CHECK_INT(end, 0x1040);
	CHECK_INT(g.n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < g.n && i < sizeof(want) / sizeof(want[0]); i++)
		if (memcmp(&g.r[i], &want[i], sizeof(want[i])))
			fprintf(stderr,
				"row %zu: pc %#x kind %u off %d slot %d\n", i,
				g.r[i].pc, g.r[i].kind, g.r[i].cfa_off,
				g.r[i].rbp_slot);
	CHECK(!memcmp(g.r, want, sizeof(want)));
	/* from 0x1007 (inside the row of 0x1006) up to 0x1009 */
	g.n = 0;
	CHECK_INT(cfirows__fde(c, &f, 0x1007, 0x1009, collect, &g, &end), 0);
	CHECK_INT(end, 0x1009);
	CHECK(g.n == 2 && g.r[0].pc == 0x1007 && g.r[0].cfa_off == 16 &&
	      g.r[1].kind == ROW_CFA_RBP);
	CHECK_INT(cfi__entry(c, e.next, &e), 1); /* the end */
}

static void test_shapes(void)
{
	struct sec d4 = {.n = 0}, d8 = {.n = 0}, eh = {.n = 0};
	struct cfi c4, c8, ce;

	debug_frame(&d4, 4);
	debug_frame(&d8, 8);
	eh_frame(&eh);
	c4 = (struct cfi){.buf = d4.b, .size = d4.n};
	c8 = (struct cfi){.buf = d8.b, .size = d8.n};
	ce = (struct cfi){.buf = eh.b, .size = eh.n, .vaddr = 0x400, .eh = 1};
	check_rows(&c4);
	check_rows(&c8);
	check_rows(&ce);
}

static int count(void *ctx, const struct unwind_row *row)
{
	(void)row;
	++*(size_t *)ctx;
	return 0;
}

/* Every entry of c read, every FDE's rows made from its start and from
 * a pc inside; the entries are bounded by the section, the rows by
 * each program's bytes. */
static size_t walk(const struct cfi *c)
{
	struct cfi_entry e;
	struct cfi_fde f = {.cie_off = UINT64_MAX};
	size_t rows = 0, k = 0;
	__u64 off = 0, end;

	while (k++ < c->size && cfi__entry(c, off, &e) == 0) {
		off = e.next;
		if (e.is_cie || cfi__fde(c, &e, &f))
			continue;
		cfirows__fde(c, &f, f.start, f.end, count, &rows, &end);
		cfirows__fde(c, &f, f.start + (f.end - f.start) / 2, f.end,
			     count, &rows, &end);
	}
	return rows;
}

static unsigned int seed = 1;

static __u64 rnd(void)
{
	return (__u64)rand_r(&seed) << 31 | (__u64)rand_r(&seed);
}

/* src garbled rounds times: truncated, bytes changed, in a buffer of
 * exactly its size. */
static void garble(const struct cfi *src, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		size_t n = src->size - (i % 3 ? 0 : rnd() % (src->size + 1));
		__u8 *b = malloc(n ? n : 1);
		struct cfi c = *src;

		memcpy(b, src->buf, n);
		for (int k = (int)(rnd() % 6); k >= 0 && n; k--) {
			size_t at = rnd() % n;

			b[at] = rnd() % 4 ? (__u8)rnd() : b[at] ^ 0x80;
		}
		c.buf = b;
		c.size = n;
		walk(&c);
		free(b);
	}
}

/* The fixture's .eh_frame: its bytes (malloc'd), its address. */
static __u8 *fixture_eh(const char *path, size_t *n, __u64 *vaddr)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;
	__u8 *b = NULL;

	if (elf && !elf_getshdrstrndx(elf, &shstr))
		while ((scn = elf_nextscn(elf, scn)))
			if (gelf_getshdr(scn, &sh) &&
			    !strcmp(elf_strptr(elf, shstr, sh.sh_name),
				    ".eh_frame")) {
				Elf_Data *d = elf_rawdata(scn, NULL);

				*n = d->d_size;
				*vaddr = sh.sh_addr;
				b = malloc(*n);
				memcpy(b, d->d_buf, *n);
				break;
			}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return b;
}

static void test_garbled(const char *fixture)
{
	struct sec d4 = {.n = 0}, d8 = {.n = 0}, eh = {.n = 0};
	struct cfi c;
	size_t n = 0;
	__u64 vaddr = 0;
	__u8 *b;

	debug_frame(&d4, 4);
	debug_frame(&d8, 8);
	eh_frame(&eh);
	garble(&(struct cfi){.buf = d4.b, .size = d4.n}, 3000);
	garble(&(struct cfi){.buf = d8.b, .size = d8.n}, 3000);
	garble(
	    &(struct cfi){.buf = eh.b, .size = eh.n, .vaddr = 0x400, .eh = 1},
	    3000);
	elf_version(EV_CURRENT);
	b = fixture_eh(fixture, &n, &vaddr);
	CHECK(b != NULL);
	if (!b)
		return;
	c = (struct cfi){.buf = b, .size = n, .vaddr = vaddr, .eh = 1};
	CHECK(walk(&c) > 10); /* the real one, whole: rows */
	garble(&c, 1000);
	free(b);
}

int main(int argc, char **argv)
{
	static char path[4096];
	const char *build = getenv("BUILD");

	snprintf(path, sizeof(path), "%s/tests/fixtures/unwind/nofp",
		 build ? build : "build");
	test_shapes();
	test_garbled(argc > 1 ? argv[1] : path);
	return check_report();
}
