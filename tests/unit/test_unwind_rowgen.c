/*
 * Unit tests: rowgen (.eh_frame, .debug_frame -> unwind rows) on nofp, the workload
 * built -O2 -fomit-frame-pointer (tests/fixtures/unwind), checked
 * against what its code does: each function's entry row is CFA = rsp + 8
 * (only the return address pushed), later rows grow by what the
 * function pushes and allocates, _start ends the stack, the PLT has its
 * expression; and garbage in gives an error, not rows. Then the rows of
 * the fixtures and of the libc and libz this test maps, equal to those
 * made through libdw's CFI interface (the oracle, rowgen_libdw.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "selfmaps.h"
#include "unwind/rowgen.h"
#include "../tools/rowgen_libdw.h"

static const char *fixture;

/* The address of symbol name in elf (0 if absent). */
static __u64 sym_addr(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !d)
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++)
			if (gelf_getsym(d, (int)i, &sym) &&
			    !strcmp(elf_strptr(elf, sh.sh_link, sym.st_name),
				    name))
				return sym.st_value;
	}
	return 0;
}

/* The largest CFA offset of a function's rows: its frame. */
static int max_cfa(const struct unwind_row *r, size_t n, __u64 lo, __u64 hi)
{
	int m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (r[i].pc >= lo && r[i].pc < hi && r[i].kind == ROW_CFA_RSP &&
		    r[i].cfa_off > m)
			m = r[i].cfa_off;
	return m;
}

static void test_fixture(void)
{
	static const char *const fns[] = {"main", "outer", "middle", "inner",
					  "by_value"};
	struct unwind_row *rows;
	struct rowgen_stats st;
	const struct unwind_row *r;
	size_t n, i;
	int fd = open(fixture, O_RDONLY);
	Elf *elf;
	__u64 a;

	CHECK(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(elf != NULL);
	CHECK_INT(rowgen__elf(elf, &rows, &n, &st), 0);
	CHECK(n > 10 && st.rows == n && st.fdes >= 5);
	for (i = 1; i < n; i++)
		CHECK(rows[i].pc > rows[i - 1].pc); /* sorted, no empty row */
	CHECK(rows[n - 1].kind == ROW_FP); /* after the last FDE */
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		a = sym_addr(elf, fns[i]);
		CHECK(a != 0);
		r = rowgen__find(rows, n, a);
		CHECK(r && r->pc == a && r->kind == ROW_CFA_RSP &&
		      r->cfa_off == 8 && r->rbp_slot == 0);
	}
	/* middle keeps 24 words on its stack, outer 64 */
	a = sym_addr(elf, "middle");
	CHECK(max_cfa(rows, n, a, a + 0x80) >= 8 + 24 * 8);
	a = sym_addr(elf, "outer");
	CHECK(max_cfa(rows, n, a, a + 0x80) >= 8 + 64 * 8);
	r = rowgen__find(rows, n, sym_addr(elf, "_start"));
	CHECK(r && r->kind == ROW_END);
	CHECK_INT(st.kind[ROW_CFA_PLT], 1);
	CHECK(rowgen__find(rows, n, rows[0].pc - 1) == NULL);
	free(rows);
	elf_end(elf);
	close(fd);
}

/* Open path as an Elf (fd kept open in *fd), or NULL. */
static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY);
	return *fd < 0 ? NULL : elf_begin(*fd, ELF_C_READ, NULL);
}

/* Each function of the workload starts with its entry row, from
 * .debug_frame: CFA = rsp + 8. */
static void check_entries(Elf *syms, const struct unwind_row *rows, size_t n)
{
	static const char *const fns[] = {"main", "outer", "middle", "inner",
					  "by_value"};
	const struct unwind_row *r;
	__u64 a;

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		a = sym_addr(syms, fns[i]);
		CHECK(a != 0);
		r = rowgen__find(rows, n, a);
		CHECK(r && r->pc == a && r->kind == ROW_CFA_RSP &&
		      r->cfa_off == 8);
	}
	a = sym_addr(syms, "outer");
	CHECK(max_cfa(rows, n, a, a + 0x80) >= 8 + 64 * 8);
	r = rowgen__find(rows, n, sym_addr(syms, "_start"));
	CHECK(r && r->kind == ROW_END); /* crt1's .eh_frame */
}

/*
 * nofp_df: its own code's CFI only in .debug_frame (built
 * -fno-asynchronous-unwind-tables), the C runtime's in .eh_frame: rows
 * of both. nofp_split: the same stripped of its debug sections, which
 * are in nofp_split.debug: without that file its functions have no
 * rows, with it the same rows as nofp_df.
 */
static void test_debug_frame(const char *dir)
{
	char path[4200];
	struct unwind_row *rows, *rows2;
	struct rowgen_stats st;
	size_t n, n2;
	int fd, fd2, fd3;
	Elf *df, *split, *dbg;

	snprintf(path, sizeof(path), "%s/nofp_df", dir);
	df = open_elf(path, &fd);
	CHECK(df != NULL);
	CHECK_INT(rowgen__elf(df, &rows, &n, &st), 0);
	CHECK(st.debug_fdes >= 5 && st.fdes >= 1);
	check_entries(df, rows, n);

	snprintf(path, sizeof(path), "%s/nofp_split", dir);
	split = open_elf(path, &fd2);
	snprintf(path, sizeof(path), "%s/nofp_split.debug", dir);
	dbg = open_elf(path, &fd3);
	CHECK(split && dbg);
	CHECK_INT(rowgen__elf(split, &rows2, &n2, &st), 0);
	CHECK_INT(st.debug_fdes, 0);
	CHECK(rowgen__find(rows2, n2, sym_addr(df, "main"))->kind == ROW_FP);
	free(rows2);
	CHECK_INT(rowgen__elf_debug(split, dbg, &rows2, &n2, &st), 0);
	CHECK(st.debug_fdes >= 5);
	CHECK(n2 == n && !memcmp(rows, rows2, n * sizeof(*rows)));
	check_entries(df, rows2, n2);
	free(rows);
	free(rows2);
	elf_end(df);
	elf_end(split);
	elf_end(dbg);
	close(fd);
	close(fd2);
	close(fd3);
}

/* Every truncation of the fixture: an error or rows, never a crash. */
static void test_truncated(void)
{
	int fd = open(fixture, O_RDONLY);
	off_t size = lseek(fd, 0, SEEK_END);
	char *buf = malloc(size);
	off_t len;
	int errs = 0;

	CHECK(fd >= 0 && buf && pread(fd, buf, size, 0) == size);
	for (len = 0; len < size; len += 61) {
		Elf *elf = elf_memory(buf, len);
		struct unwind_row *rows;
		size_t n;

		if (!elf || rowgen__elf(elf, &rows, &n, NULL))
			errs++;
		else
			free(rows);
		elf_end(elf);
	}
	CHECK(errs > 0);
	free(buf);
	close(fd);
}

/* The section named name of elf: [*off, *off + *len) of the file. */
static int section_at(Elf *elf, const char *name, size_t *off, size_t *len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;

	if (elf_getshdrstrndx(elf, &shstr))
		return -1;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(elf_strptr(elf, shstr, sh.sh_name), name)) {
			*off = sh.sh_offset;
			*len = sh.sh_size;
			return 0;
		}
	return -1;
}

/*
 * nofp_df (CFI in both sections) with bytes of its .eh_frame_hdr,
 * .eh_frame and .debug_frame changed at random: rows or an error,
 * never a crash or a hang (tests/unit/test_unwind_cfi.c garbles the
 * sections alone, in buffers of their size, for the ASan build).
 */
static void test_garbled(const char *dir)
{
	static const char *const names[] = {".eh_frame_hdr", ".eh_frame",
					    ".debug_frame"};
	char path[4200];
	int fd, ok = 0;
	Elf *elf;
	off_t size;
	char *orig, *buf;
	size_t off[3], len[3], i, n;
	unsigned int seed = 1;

	snprintf(path, sizeof(path), "%s/nofp_df", dir);
	elf = open_elf(path, &fd);
	CHECK(elf != NULL);
	for (i = 0; i < 3; i++)
		CHECK(!section_at(elf, names[i], &off[i], &len[i]) && len[i]);
	elf_end(elf);
	size = lseek(fd, 0, SEEK_END);
	orig = malloc(size);
	buf = malloc(size);
	CHECK(orig && buf && pread(fd, orig, size, 0) == size);
	for (int round = 0; round < 600; round++) {
		struct unwind_row *rows;

		memcpy(buf, orig, size);
		for (int k = rand_r(&seed) % 8; k >= 0; k--) {
			i = rand_r(&seed) % 3;
			buf[off[i] + rand_r(&seed) % len[i]] =
			    (char)rand_r(&seed);
		}
		elf = elf_memory(buf, size);
		if (elf && !rowgen__elf(elf, &rows, &n, NULL)) {
			ok++;
			free(rows);
		}
		elf_end(elf);
	}
	CHECK(ok > 0);
	free(orig);
	free(buf);
	close(fd);
}

static void test_not_elf(void)
{
	char junk[256];
	Elf *elf;
	struct unwind_row *rows;
	size_t n;

	memset(junk, 0x41, sizeof(junk));
	elf = elf_memory(junk, sizeof(junk));
	CHECK(!elf || rowgen__elf(elf, &rows, &n, NULL) < 0);
	elf_end(elf);
}

/* path's rows (with debug's .debug_frame, if not NULL) by rowgen and
 * by libdw: the same, or the same error. */
static void check_oracle(const char *path, const char *debug)
{
	struct unwind_row *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	int fd, dfd = -1, ra, rb;
	Elf *elf = open_elf(path, &fd), *dbg = NULL;

	if (debug)
		dbg = open_elf(debug, &dfd);
	CHECK(elf && (!debug || dbg));
	ra = rowgen__elf_debug(elf, dbg, &a, &na, NULL);
	rb = rowgen__elf_via(elf, dbg, &rowgen_libdw, &b, &nb, NULL);
	CHECK_INT(ra, rb);
	CHECK(na == nb && (!na || !memcmp(a, b, na * sizeof(*a))));
	if (na != nb || (na && memcmp(a, b, na * sizeof(*a))))
		fprintf(stderr, "%s: %zu rows, libdw %zu: not the same\n", path,
			na, nb);
	free(a);
	free(b);
	elf_end(elf);
	elf_end(dbg);
	close(fd);
	if (dfd >= 0)
		close(dfd);
}

static void test_oracle(const char *dir)
{
	static const char *const fix[] = {"nofp", "nofp_df", "nofp_split"};
	char path[4200], dbg[4200], lib[4200];

	for (size_t i = 0; i < sizeof(fix) / sizeof(fix[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, fix[i]);
		check_oracle(path, NULL);
	}
	snprintf(dbg, sizeof(dbg), "%s/nofp_split.debug", dir);
	check_oracle(path, dbg);
	CHECK(selfmaps__path("/libc.so", lib, sizeof(lib)) != NULL);
	check_oracle(lib, NULL);
	CHECK(selfmaps__path("/libz.so", lib, sizeof(lib)) !=
	      NULL); /* libelf's */
	check_oracle(lib, NULL);
}

int main(int argc, char **argv)
{
	static char path[4096], dir[4096];
	const char *build = getenv("BUILD");

	/* the runner exports BUILD; by hand: the fixture's path */
	snprintf(path, sizeof(path), "%s/tests/fixtures/unwind/nofp",
		 build ? build : "build");
	fixture = argc > 1 ? argv[1] : path;
	snprintf(dir, sizeof(dir), "%s", fixture);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = 0;
	test_fixture();
	test_debug_frame(*dir ? dir : ".");
	test_truncated();
	test_not_elf();
	test_garbled(*dir ? dir : ".");
	test_oracle(*dir ? dir : ".");
	return check_report();
}
