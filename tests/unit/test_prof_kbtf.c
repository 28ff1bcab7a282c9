/*
 * kbtf: a struct member's offset from a BTF file, read a chunk at a
 * time: BTF files made here with libbpf (small; and big, so that strings
 * and type records straddle the reader's 64 KB chunks), bit fields,
 * names absent, and files that are not BTF or end early.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "check.h"
#include "sampler/kbtf.h"

static char path[] = "/tmp/test_kbtf.XXXXXX";

/* path (mkstemp's, ours) again for writing, emptied; never through a
 * link put in its place in /tmp */
static FILE *rewrite(void)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* Write b's raw bytes (or the first cut of them, cut > 0) to path. */
static void write_btf(struct btf *b, size_t cut)
{
	__u32 n;
	const void *raw = btf__raw_data(b, &n);
	FILE *f = rewrite();

	CHECK(raw && f);
	if (!raw || !f)
		exit(1);
	fwrite(raw, 1, cut ? cut : n, f);
	fclose(f);
}

/*
 * fill distinct filler structs before the one asked for, each with
 * names long enough that the strings and types run past several chunks;
 * then "task_struct" { int pid; int tgid (at byte 1268); a bit field }.
 */
static struct btf *make(int fill, bool kflag)
{
	struct btf *b = btf__new_empty();
	int i, k, id, s;
	char name[96];

	id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	for (i = 0; i < fill; i++) {
		snprintf(name, sizeof(name),
			 "filler_struct_with_a_long_name_%06d_padding_padding",
			 i);
		s = btf__add_struct(b, name, 64);
		for (k = 0; k < 4 && s > 0; k++) {
			snprintf(name, sizeof(name), "f%d_%06d_member", k, i);
			btf__add_field(b, name, id, k * 32, 0);
		}
	}
	/* a tgid of another struct first: only task_struct's counts */
	btf__add_struct(b, "signal_struct", 16);
	btf__add_field(b, "tgid", id, 64, 0);
	btf__add_struct(b, "task_struct", 2048);
	btf__add_field(b, "pid", id, 1264 * 8, 0);
	btf__add_field(b, "tgid", id, 1268 * 8, 0);
	btf__add_field(b, "flags3", id, 1272 * 8, kflag ? 3 : 0);
	return b;
}

static void test_found(int fill)
{
	struct btf *b = make(fill, true);
	uint32_t off = 0;

	write_btf(b, 0);
	CHECK_INT(kbtf__member_off(path, "task_struct", "tgid", &off), 0);
	CHECK_INT(off, 1268);
	CHECK_INT(kbtf__member_off(path, "task_struct", "pid", &off), 0);
	CHECK_INT(off, 1264);
	CHECK_INT(kbtf__member_off(path, "signal_struct", "tgid", &off), 0);
	CHECK_INT(off, 8);
	/* a bit field has no byte offset */
	CHECK_INT(kbtf__member_off(path, "task_struct", "flags3", &off),
		  -ENOENT);
	CHECK_INT(kbtf__member_off(path, "task_struct", "nope", &off), -ENOENT);
	CHECK_INT(kbtf__member_off(path, "no_such_struct", "tgid", &off),
		  -ENOENT);
	/* "task" is a prefix of a string, not a string */
	CHECK_INT(kbtf__member_off(path, "task", "tgid", &off), -ENOENT);
	btf__free(b);
}

static void test_bad(void)
{
	struct btf *b = make(3000, false);
	__u32 n;
	uint32_t off;
	FILE *f;

	btf__raw_data(b, &n);
	/* cut in the strings, then in the types */
	write_btf(b, n - 100);
	CHECK(kbtf__member_off(path, "task_struct", "tgid", &off) < 0);
	write_btf(b, n / 3);
	CHECK(kbtf__member_off(path, "task_struct", "tgid", &off) < 0);
	write_btf(b, 10);
	CHECK_INT(kbtf__member_off(path, "task_struct", "tgid", &off), -EINVAL);
	btf__free(b);
	f = rewrite();
	CHECK(f != NULL);
	if (!f)
		exit(1);
	fputs("not BTF at all, just text long enough for a header", f);
	fclose(f);
	CHECK_INT(kbtf__member_off(path, "task_struct", "tgid", &off), -EINVAL);
	unlink(path);
	CHECK_INT(kbtf__member_off(path, "task_struct", "tgid", &off), -ENOENT);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	test_found(0);
	test_found(3000); /* ~400 KB of strings, ~200 KB of types */
	test_bad();
	unlink(path);
	return check_report();
}
