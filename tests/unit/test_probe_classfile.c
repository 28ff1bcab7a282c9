/*
 * classfile + inject: every class javac builds from tests/fixtures/probe
 * round-trips byte for byte; after injecting a probe into every method the
 * result re-parses, each Code grew by exactly the prefix, the old code
 * follows unchanged and still decodes instruction by instruction (switch
 * padding intact), tables moved. A synthetic method near 64 KiB is refused.
 * The real JVM verifier checks the same classes in tests/integration.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"
#include "agent/classfile.h"
#include "agent/inject.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* Plain length of opcode op; 0 for switches, wide and bad opcodes. */
static size_t op_len(unsigned op)
{
	if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) ||
	    (op >= 0x36 && op <= 0x3a) || op == 0xa9 || op == 0xbc)
		return 2;
	if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 ||
	    (op >= 0x99 && op <= 0xa8) || (op >= 0xb2 && op <= 0xb8) ||
	    op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1 ||
	    op == 0xc6 || op == 0xc7)
		return 3;
	if (op == 0xc5)
		return 4;
	if (op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9)
		return 5;
	if (op == 0xaa || op == 0xab || op == 0xc4 || op > 0xc9)
		return 0;
	return 1;
}

/* Length of the instruction at pc (absolute, for switch padding); 0 if bad. */
static size_t insn_len(const uint8_t *c, size_t pc, size_t n)
{
	unsigned op = c[pc];
	size_t p, np;
	long lo, hi;

	if (op == 0xaa || op == 0xab) {
		p = (pc + 4) & ~(size_t)3;
		if (p + 12 > n)
			return 0;
		if (op == 0xaa) {
			lo = (int32_t)cf_u4(c + p + 4);
			hi = (int32_t)cf_u4(c + p + 8);
			return p + 12 + 4 * (size_t)(hi - lo + 1) - pc;
		}
		np = cf_u4(c + p + 4);
		return p + 8 + 8 * np - pc;
	}
	if (op == 0xc4)
		return c[pc + 1] == 0x84 ? 6 : 4;
	return op_len(op);
}

/* Walk all instructions; true when they end exactly at n. */
static int decodes(const uint8_t *c, size_t n)
{
	size_t pc = 0, l;

	while (pc < n) {
		l = insn_len(c, pc, n);
		if (!l)
			return 0;
		pc += l;
	}
	return pc == n;
}

/* The code bytes of a Code attribute at a (name u2, len u4, stack, locals). */
static const uint8_t *code_of(const uint8_t *a, size_t *n)
{
	*n = cf_u4(a + 10);
	return a + 14;
}

/* Offset of the first StackMapTable frame of Code attribute a, -1 if none;
 * *tag gets its frame type. */
static long first_frame(const struct classfile *cf, const uint8_t *a,
			unsigned *tag)
{
	size_t clen = cf_u4(a + 10), nex, n, i;
	const uint8_t *p = a + 14 + clen, *f;

	nex = cf_u2(p);
	p += 2 + 8 * nex;
	n = cf_u2(p);
	p += 2;
	for (i = 0; i < n; i++) {
		if (classfile__utf8_is(cf, cf_u2(p), "StackMapTable") &&
		    cf_u2(p + 6)) {
			f = p + 8;
			*tag = f[0];
			if (f[0] < 64)
				return f[0];
			if (f[0] < 128)
				return f[0] - 64;
			return cf_u2(f + 1);
		}
		p += 6 + cf_u4(p + 2);
	}
	return -1;
}

static int widened; /* first frames that needed an extended form */

static void check_method(const struct classfile *old,
			 const struct cf_method *om, const struct classfile *nw,
			 const struct cf_method *nm, uint16_t mref, unsigned id)
{
	const uint8_t *oc, *nc, *oe, *ne;
	size_t on, nn, i, nex;
	unsigned otag, ntag;
	long off;

	oc = code_of(old->buf + om->code_off, &on);
	nc = code_of(nw->buf + nm->code_off, &nn);
	CHECK_INT(nn, on + INJECT_LEN);
	CHECK(nc[0] == 0x11 && cf_u2(nc + 1) == id);
	CHECK(nc[3] == 0xb8 && cf_u2(nc + 4) == mref);
	CHECK(!memcmp(nc + INJECT_LEN, oc, on));
	CHECK(decodes(nc, nn));
	CHECK(cf_u2(nw->buf + nm->code_off + 6) >= 1); /* max_stack */
	otag = ntag = 0;
	off = first_frame(old, old->buf + om->code_off, &otag);
	CHECK_INT(first_frame(nw, nw->buf + nm->code_off, &ntag),
		  off < 0 ? -1 : off + INJECT_LEN);
	widened += otag < 128 && ntag >= 247;
	oe = oc + on;
	ne = nc + nn;
	nex = cf_u2(oe);
	CHECK_INT(cf_u2(ne), nex);
	for (i = 0; i < 4 * nex; i++) /* start, end, handler, catch_type */
		CHECK_INT(cf_u2(ne + 2 + 2 * i),
			  cf_u2(oe + 2 + 2 * i) +
			      (i % 4 == 3 ? 0 : INJECT_LEN));
}

static int inject_all(const struct classfile *cf, struct strbuf *out,
		      uint16_t *mref)
{
	struct strbuf cp = STRBUF_INIT, *codes;
	const struct strbuf **pc;
	struct cf_edits ed = {0};
	const char *why;
	unsigned i;
	int ret;

	codes = calloc(cf->nmethods + 1, sizeof(*codes));
	pc = calloc(cf->nmethods + 1, sizeof(*pc));
	ret = inject__helper_cp(cf, "mixprof/jmap/Probe", "hit", "(I)V", &cp,
				&ed.ncp, mref);
	for (i = 0; !ret && i < cf->nmethods; i++) {
		if (!cf->methods[i].code_off)
			continue;
		ret = inject__entry(cf, &cf->methods[i], *mref, i + 1,
				    &codes[i], &why);
		if (ret)
			fprintf(stderr, "inject: %s\n", why);
		pc[i] = &codes[i];
	}
	ed.cp = (const uint8_t *)cp.buf;
	ed.cp_len = cp.len;
	ed.code = pc;
	if (!ret)
		ret = classfile__write(cf, &ed, out);
	for (i = 0; i < cf->nmethods; i++)
		strbuf__release(&codes[i]);
	strbuf__release(&cp);
	free(codes);
	free(pc);
	return ret;
}

/* Every cut of a real class file is refused cleanly (and never read past). */
static void check_truncated(const uint8_t *buf, size_t len)
{
	struct classfile cf;
	const char *why;
	size_t n, bad = 0;
	uint8_t *cut;

	for (n = 0; n < len; n += 1 + n / 64) {
		cut = malloc(n + 1);
		memcpy(cut, buf, n);
		if (classfile__parse(&cf, cut, n, &why) != -EINVAL)
			bad++;
		free(cut);
	}
	CHECK_INT(bad, 0);
}

static void check_class(const char *path)
{
	struct strbuf out = STRBUF_INIT, inj = STRBUF_INIT;
	struct classfile cf, nw;
	const char *why;
	uint16_t mref;
	uint8_t *buf;
	size_t len = 0;
	unsigned i, methods = 0;

	buf = slurp(path, &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK_INT(classfile__parse(&cf, buf, len, &why), 0);
	CHECK_INT(classfile__write(&cf, NULL, &out), 0);
	CHECK(out.len == len && !memcmp(out.buf, buf, len));
	CHECK_INT(inject_all(&cf, &inj, &mref), 0);
	CHECK_INT(classfile__parse(&nw, (uint8_t *)inj.buf, inj.len, &why), 0);
	CHECK_INT(nw.nmethods, cf.nmethods);
	CHECK_INT(nw.cp_count, cf.cp_count + 6);
	for (i = 0; i < cf.nmethods && i < nw.nmethods; i++) {
		if (!cf.methods[i].code_off)
			continue;
		methods++;
		check_method(&cf, &cf.methods[i], &nw, &nw.methods[i], mref,
			     i + 1);
	}
	check_truncated(buf, len);
	printf("%s: %zu bytes, %u methods injected\n", path, len, methods);
	classfile__release(&nw);
	classfile__release(&cf);
	strbuf__release(&out);
	strbuf__release(&inj);
	free(buf);
}

/* A class with one method of code_len bytes (nops and a return). */
static uint8_t *synthetic(size_t code_len, size_t *len)
{
	static const uint8_t head[] = {
	    0xca, 0xfe, 0xba, 0xbe, 0,	 0, 0,	 52, 0,	  6, 1, 0,
	    4,	  'C',	'o',  'd',  'e', 1, 0,	 1,  'm', 1, 0, 3,
	    '(',  ')',	'V',  1,    0,	 1, 'C', 7,  0,	  4, 0, 0x21,
	    0,	  5,	0,    0,    0,	 0, 0,	 0,  0,	  1, /* ... 1 method */
	    0,	  8,	0,    2,    0,	 3, 0,	 1,  0,	  1};
	size_t n = sizeof(head) + 4 + 8 + code_len + 4 + 2;
	uint8_t *b = calloc(1, n), *p;

	memcpy(b, head, sizeof(head));
	p = b + sizeof(head);
	cf_put4(p, (uint32_t)(8 + code_len + 4));
	cf_put2(p + 4, 0);
	cf_put2(p + 6, 1);
	cf_put4(p + 8, (uint32_t)code_len);
	p[12 + code_len - 1] = 0xb1; /* return */
	*len = n;
	return b;
}

static void check_limit(void)
{
	struct strbuf out = STRBUF_INIT;
	struct classfile cf;
	const char *why;
	size_t len, sizes[] = {65535 - INJECT_LEN, 65535 - INJECT_LEN + 1};
	uint8_t *b;
	int i;

	for (i = 0; i < 2; i++) {
		b = synthetic(sizes[i], &len);
		CHECK_INT(classfile__parse(&cf, b, len, &why), 0);
		CHECK_INT(inject__entry(&cf, &cf.methods[0], 5, 1, &out, &why),
			  i ? -EFBIG : 0);
		if (i)
			CHECK_STR(why, "method too long for a probe");
		CHECK_INT(
		    inject__entry(&cf, &cf.methods[0], 5, 0x8000, &out, &why),
		    -ERANGE);
		classfile__release(&cf);
		free(b);
		strbuf__reset(&out);
	}
	strbuf__release(&out);
}

static void check_garbage(void)
{
	static const uint8_t bad[] = {0xca, 0xfe, 0xba, 0xbe, 0,  0,
				      0,    52,	  0,	3,    99, 0};
	struct classfile cf;
	const char *why;

	CHECK_INT(classfile__parse(&cf, bad, sizeof(bad), &why), -EINVAL);
	CHECK_STR(why, "bad constant pool tag");
	CHECK_INT(classfile__parse(&cf, bad, 6, &why), -EINVAL);
	CHECK_INT(
	    classfile__parse(&cf, (const uint8_t *)"hello world", 11, &why),
	    -EINVAL);
}

int main(void)
{
	const char *build = getenv("BUILD");
	char pat[4096];
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), "%s/tests/fixtures/probe/*.class",
		 build ? build : "build");
	CHECK(glob(pat, 0, NULL, &g) == 0);
	CHECK(g.gl_pathc >= 10);
	for (i = 0; i < g.gl_pathc; i++)
		check_class(g.gl_pathv[i]);
	globfree(&g);
	printf("%d first frames widened to extended forms\n", widened);
	CHECK(widened >= 4);
	check_limit();
	check_garbage();
	return check_report();
}
