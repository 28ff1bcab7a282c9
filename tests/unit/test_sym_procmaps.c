/* procmaps: executable mappings from a maps fixture; lookups. */
#include <sys/sysmacros.h>
#include "check.h"
#include "symbolizer/procmaps.h"
#include "test_sym_util.h"

int main(void)
{
	size_t len;
	char *text = sym_fixture("maps.txt", &len);
	struct procmaps *m;
	const struct vma *v;

	CHECK(text != NULL);
	if (!text)
		return check_report();
	m = procmaps__parse(text, len);
	CHECK(m != NULL);
	if (!m)
		return check_report();
	/* prog r-x, anon rwx, libc r-x, deleted lib, [vdso], [vsyscall] */
	CHECK_INT(m->n, 6);
	CHECK_INT(m->bad, 2); /* garbage, end before start */
	v = procmaps__find(m, 0x55d0c8a01234);
	CHECK(v != NULL);
	if (v) {
		CHECK_STR(v->path, "/usr/bin/prog");
		CHECK_INT(v->offset, 0x1000);
		CHECK_INT(v->inode, 1311);
		CHECK_INT(v->dev, makedev(8, 1));
	}
	CHECK(procmaps__find(m, 0x55d0c8a00100) == NULL); /* r-- */
	CHECK(procmaps__find(m, 0x55d0c8a05000) == NULL); /* end */
	v = procmaps__find(m, 0x7f1e40000010);
	CHECK(v && !strcmp(v->path, "") && v->inode == 0);
	v = procmaps__find(m, 0x7f1e5019cfff);
	CHECK(v && !strcmp(v->path, "/usr/lib/x86_64-linux-gnu/libc.so.6"));
	v = procmaps__find(m, 0x7f1e601a0000);
	CHECK(v && !strcmp(v->path, "/opt/my lib/libsp ace.so (deleted)") &&
	      v->dev == makedev(0xfd, 2));
	v = procmaps__find(m, 0x7ffd1a7f0100);
	CHECK(v && !strcmp(v->path, "[vdso]"));
	v = procmaps__find(m, 0xffffffffff600000);
	CHECK(v && !strcmp(v->path, "[vsyscall]"));
	CHECK(procmaps__find(m, 0) == NULL);
	procmaps__free(m);
	/* empty input, no trailing newline, a lone partial line */
	m = procmaps__parse("", 0);
	CHECK(m && m->n == 0 && m->bad == 0);
	procmaps__free(m);
	m = procmaps__parse("1000-2000 r-xp 00000000 00:00 0", 31);
	CHECK(m && m->n == 1 && procmaps__find(m, 0x1fff));
	procmaps__free(m);
	procmaps__free(NULL);
	free(text);
	return check_report();
}
