/*
 * Unit tests for agent/jitdump_rec.c and agent/jitdump.c: record layout,
 * and a file written, mapped as perf's marker, and read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "agent/jitdump.h"
#include "agent/jitdump_rec.h"
#include "agent/strbuf.h"

static void test_records(void)
{
	struct jitdump_header h;
	struct jitdump_code_load r;
	struct jitdump_rec_header c;

	jitdump_rec__header(&h, 1234, 99);
	CHECK_INT(h.magic, 0x4A695444);
	CHECK(!memcmp(&h.magic, "DTiJ", 4)); /* little-endian x86 */
	CHECK_INT(h.version, 1);
	CHECK_INT(h.total_size, 40);
	CHECK_INT(h.elf_mach, 62);
	CHECK_INT(h.pid, 1234);
	CHECK_INT(h.timestamp, 99);
	CHECK_INT(h.flags, 0);

	CHECK_INT(jitdump_rec__code_load(&r, 1, 2, 0x7f00, 0x30, 5, 77, 9), 0);
	CHECK_INT(r.h.id, 0);
	CHECK_INT(r.h.total_size, 56 + 9 + 1 + 0x30);
	CHECK_INT(r.h.timestamp, 77);
	CHECK_INT(r.vma, 0x7f00);
	CHECK_INT(r.code_addr, 0x7f00);
	CHECK_INT(r.code_size, 0x30);
	CHECK_INT(r.code_index, 5);
	CHECK_INT(r.tid, 2);
	CHECK_INT(jitdump_rec__code_load(&r, 1, 2, 0, 1ull << 32, 0, 0, 1),
		  -EOVERFLOW);

	jitdump_rec__close(&c, 5);
	CHECK_INT(c.id, 3);
	CHECK_INT(c.total_size, 16);
}

static int marker_mapped(const char *path)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, path) && strstr(line, " r-xp "))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static void test_file(void)
{
	char dir[] = "/tmp/test_agent_jitdump.XXXXXX", path[256];
	static const unsigned char code[] = {0x55, 0x48, 0x89, 0xe5, 0xc3};
	static char buf[4096];
	struct jitdump *jd = NULL;
	struct jitdump_header *h = (void *)buf;
	struct jitdump_code_load *r;
	struct jitdump_rec_header c;
	const char *p;
	ssize_t n;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	CHECK_INT(jitdump__open(dir, getpid(), &jd, &p), 0);
	CHECK_STR(p, path);
	CHECK(marker_mapped(path));
	CHECK_INT(jitdump__code_load(jd, "p/C.m", 5, code, sizeof(code), NULL),
		  0);
	jitdump__close(jd);
	CHECK(!marker_mapped(path));
	CHECK_INT(jitdump__code_load(jd, "p/C.m", 5, code, sizeof(code), NULL),
		  -EBADF);
	jitdump__free(jd);

	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	CHECK_INT(n, 40 + 56 + 6 + sizeof(code) + 16);
	CHECK_INT(h->magic, JITDUMP_MAGIC);
	CHECK_INT(h->pid, getpid());
	r = (void *)(buf + 40);
	CHECK_INT(r->h.id, JITDUMP_CODE_LOAD);
	CHECK_INT(r->h.total_size, 56 + 6 + sizeof(code));
	CHECK(r->h.timestamp >= h->timestamp);
	CHECK_INT(r->code_addr, (uintptr_t)code);
	CHECK_INT(r->code_index, 0);
	CHECK_INT(r->tid, gettid());
	CHECK_STR(buf + 40 + 56, "p/C.m");
	CHECK(!memcmp(buf + 40 + 56 + 6, code, sizeof(code)));
	/* records are packed, not aligned: copy before reading */
	memcpy(&c, buf + 40 + r->h.total_size, sizeof(c));
	CHECK_INT(c.id, JITDUMP_CODE_CLOSE);
	CHECK(c.timestamp >= r->h.timestamp);

	/* a planted symlink is refused like the map's */
	unlink(path);
	CHECK(symlink("/etc/passwd", path) == 0);
	CHECK_INT(jitdump__open(dir, getpid(), &jd, NULL), -ELOOP);
	unlink(path);
	rmdir(dir);
}

static void test_debug_records(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct jitdump_debug_info d;
	struct jitdump_debug_entry e;

	CHECK_INT(jitdump_rec__debug_entry(&sb, 0x1000, 42, "p/C.java"), 0);
	CHECK_INT(jitdump_rec__debug_entry(&sb, 0x1011, 43, "p/C.java"), 0);
	CHECK_INT(sb.len, 2 * (16 + 9));
	memcpy(&e, sb.buf + 25, sizeof(e));
	CHECK_INT(e.addr, 0x1011);
	CHECK_INT(e.lineno, 43);
	CHECK_INT(e.discrim, 0);
	CHECK_STR(sb.buf + 25 + 16, "p/C.java");
	CHECK_INT(jitdump_rec__debug_info(&d, 0x1000, 2, sb.len, 7), 0);
	CHECK_INT(d.h.id, JITDUMP_CODE_DEBUG_INFO);
	CHECK_INT(d.h.total_size, 32 + 50);
	CHECK_INT(d.code_addr, 0x1000);
	CHECK_INT(d.nr_entry, 2);
	strbuf__release(&sb);
}

/* DEBUG_INFO comes just before its CODE_LOAD, in the same write. */
static void test_file_lines(void)
{
	char dir[] = "/tmp/test_agent_jitdump.XXXXXX", path[256];
	static const unsigned char code[] = {0x90, 0xc3};
	static char buf[4096];
	struct strbuf sb = STRBUF_INIT;
	struct jitdump_lines lines;
	struct jitdump_debug_info d;
	struct jitdump_code_load r;
	struct jitdump *jd = NULL;
	ssize_t n;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	jitdump_rec__debug_entry(&sb, (uintptr_t)code, 7, "p/C.java");
	lines = (struct jitdump_lines){sb.buf, sb.len, 1};
	CHECK_INT(jitdump__open(dir, getpid(), &jd, NULL), 0);
	CHECK_INT(
	    jitdump__code_load(jd, "p/C.m", 5, code, sizeof(code), &lines), 0);
	jitdump__free(jd);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	CHECK_INT(n, 40 + 32 + sb.len + 56 + 6 + sizeof(code) + 16);
	memcpy(&d, buf + 40, sizeof(d));
	CHECK_INT(d.h.id, JITDUMP_CODE_DEBUG_INFO);
	CHECK_INT(d.code_addr, (uintptr_t)code);
	CHECK(!memcmp(buf + 40 + 32, sb.buf, sb.len));
	memcpy(&r, buf + 40 + d.h.total_size, sizeof(r));
	CHECK_INT(r.h.id, JITDUMP_CODE_LOAD);
	CHECK_INT(r.h.timestamp, d.h.timestamp);
	unlink(path);
	rmdir(dir);
	strbuf__release(&sb);
}

int main(void)
{
	test_records();
	test_file();
	test_debug_records();
	test_file_lines();
	return check_report();
}
