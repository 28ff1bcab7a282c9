/*
 * Unit tests: fpmap (a file's rows -> its bitmap of frame-record code
 * blocks). Hand-made rows give known bits; then, on the fixtures (nofp,
 * and nofp_fp: the same source with frame pointers), the libc this test
 * maps and the libjvm of the java on PATH, the bitmap of rowgen's rows
 * equals a block-by-block reading of the rows libdw's CFI interface
 * gives (the oracle: rowgen_libdw.h): a block is set if and only if
 * every address in it has the frame record's row.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "selfmaps.h"
#include "unwind/fpmap.h"
#include "unwind/rowgen.h"
#include "../tools/rowgen_libdw.h"

#define B (1u << UNWIND_FP_SHIFT)

static const struct unwind_row rec = {
    .kind = ROW_CFA_RBP, .cfa_off = 16, .rbp_slot = -2};

static struct unwind_row at(__u32 pc, struct unwind_row r)
{
	r.pc = pc;
	return r;
}

/* Is block b set in (w, nw, b0)? */
static int bit(const __u64 *w, size_t nw, __u32 b0, __u64 b)
{
	if (b < b0 || (b - b0) / 64 >= nw)
		return 0;
	return w[(b - b0) / 64] >> ((b - b0) % 64) & 1;
}

static void test_made(void)
{
	struct unwind_row entry = {.kind = ROW_CFA_RSP, .cfa_off = 8};
	struct unwind_row push = {
	    .kind = ROW_CFA_RSP, .cfa_off = 16, .rbp_slot = -2};
	struct unwind_row gap = {.kind = ROW_FP};
	/* f at 0x1000: push rbp, mov rsp,rbp (record from 0x1004), an
	 * epilogue at 0x1046; g at 0x1050, its record from 0x1054 to a
	 * record row of the next FDE at 0x1080 and on to 0x10a0 (the last
	 * row) */
	struct unwind_row r[] = {
	    at(0x1000, entry), at(0x1001, push), at(0x1004, rec),
	    at(0x1046, entry), at(0x1048, gap),	 at(0x1050, entry),
	    at(0x1054, rec),   at(0x1080, rec),	 at(0x10a0, rec),
	};
	__u64 *w;
	size_t nw;
	__u32 b0;
	__u64 b;

	CHECK_INT(fpmap__make(r, sizeof(r) / sizeof(r[0]), &w, &nw, &b0), 0);
	CHECK_INT(b0, (0x1000 / B) & ~63u);
	CHECK_INT(nw, 1);
	for (b = 0x1000 / B; b < 0x10c0 / B; b++) {
		/* 0x1010-0x103f of f, 0x1060-0x109f of g (whole blocks);
		 * 0x10a0 on: after the last row, unknown */
		int want =
		    (b >= 0x101 && b < 0x104) || (b >= 0x106 && b < 0x10a);

		if (bit(w, nw, b0, b) != want)
			fprintf(stderr, "block %#llx: %d\n",
				(unsigned long long)b * B, !want);
		CHECK_INT(bit(w, nw, b0, b), want);
	}
	free(w);
	/* no record: nothing */
	CHECK_INT(fpmap__make(r, 3, &w, &nw, &b0), -ENOENT);
	CHECK(w == NULL && nw == 0);
	CHECK(fpmap__is_record(&rec) && !fpmap__is_record(&push) &&
	      !fpmap__is_record(&entry));
}

static Elf *open_elf(const char *path, int *fd)
{
	Elf *e;

	*fd = open(path, O_RDONLY);
	if (*fd < 0)
		return NULL;
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		close(*fd);
	return e;
}

/*
 * path's bitmap, made of rowgen's rows, against libdw's rows read
 * address by address: a block set iff all of its addresses (before the
 * last row) have the record. Returns the share of code set, in percent.
 */
static double check_file(const char *path)
{
	struct unwind_row *a = NULL, *o = NULL;
	size_t na = 0, no = 0, nw = 0, j = 0, set = 0, bad = 0;
	__u64 *w = NULL, b, x, code = 1;
	__u32 b0 = 0;
	int fd;
	Elf *elf = open_elf(path, &fd);

	CHECK(elf != NULL);
	if (!elf) {
		fprintf(stderr, "%s: cannot open\n", path);
		return 0;
	}
	CHECK_INT(rowgen__elf(elf, &a, &na, NULL), 0);
	CHECK_INT(rowgen__elf_via(elf, NULL, &rowgen_libdw, &o, &no, NULL), 0);
	CHECK(na > 1 && no > 1);
	if (na > 1 && fpmap__make(a, na, &w, &nw, &b0) == -ENOMEM)
		CHECK(0);
	for (b = o[0].pc / B; no > 1 && b < o[no - 1].pc / B; b++) {
		int all = 1;

		for (x = b * B; x < (b + 1) * B; x++) {
			while (j + 1 < no && o[j + 1].pc <= x)
				j++;
			if (x < o[0].pc || j + 1 >= no ||
			    !fpmap__is_record(&o[j]))
				all = 0;
		}
		set += all;
		if (bit(w, nw, b0, b) != all && bad++ < 5)
			fprintf(stderr, "%s: block %#llx: bitmap %d, rows %d\n",
				path, (unsigned long long)(b * B),
				bit(w, nw, b0, b), all);
	}
	CHECK_INT(bad, 0);
	if (no > 1)
		code = o[no - 1].pc - o[0].pc;
	free(a);
	free(o);
	free(w);
	elf_end(elf);
	close(fd);
	return 100.0 * set * B / code;
}

/* the libjvm of the java on PATH (the JDK the tests run) */
static const char *libjvm(char *buf, size_t size)
{
	char *path = getenv("PATH"), *dup, *dir, *save = NULL;
	char exe[PATH_MAX], real[PATH_MAX];
	const char *r = NULL;

	dup = strdup(path ? path : "");
	for (dir = strtok_r(dup, ":", &save); dir && !r;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(exe, sizeof(exe), "%s/java", dir);
		if (!realpath(exe, real))
			continue;
		/* JDK/bin/java -> JDK/lib/server/libjvm.so */
		snprintf(buf, size, "%s/lib/server/libjvm.so",
			 dirname(dirname(real)));
		r = access(buf, R_OK) ? NULL : buf;
	}
	free(dup);
	return r;
}

int main(void)
{
	const char *build = getenv("BUILD");
	char path[4200];
	double share;

	elf_version(EV_CURRENT);
	test_made();
	snprintf(path, sizeof(path), "%s/tests/fixtures/unwind/nofp",
		 build ? build : "build");
	share = check_file(path);
	printf("nofp: %.1f%% of code in frame-record blocks\n", share);
	strcat(path, "_fp");
	share = check_file(path);
	printf("nofp_fp: %.1f%%\n", share);
	CHECK(share > 20); /* its own code: small functions, crt */
	CHECK(selfmaps__path("/libc.so", path, sizeof(path)) != NULL);
	share = check_file(path);
	printf("%s: %.1f%%\n", path, share);
	CHECK(libjvm(path, sizeof(path)) != NULL);
	share = check_file(path);
	printf("%s: %.1f%%\n", path, share);
	CHECK(share > 50); /* Debian's and Temurin's: built with them */
	return check_report();
}
