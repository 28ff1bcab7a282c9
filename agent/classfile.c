/*
 * classfile: parse the parts of a class file a method rewriter needs and
 * write it back with edits. See classfile.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "classfile.h"

/* A bounds-checked cursor: any read past the end sets bad and reads 0. */
struct cur {
	const uint8_t *buf;
	size_t len, pos;
	int bad;
};

static int need(struct cur *c, size_t n)
{
	if (c->bad || c->len - c->pos < n) {
		c->bad = 1;
		return 0;
	}
	return 1;
}

static unsigned rd2(struct cur *c)
{
	unsigned v;

	if (!need(c, 2))
		return 0;
	v = cf_u2(c->buf + c->pos);
	c->pos += 2;
	return v;
}

static uint32_t rd4(struct cur *c)
{
	uint32_t v;

	if (!need(c, 4))
		return 0;
	v = cf_u4(c->buf + c->pos);
	c->pos += 4;
	return v;
}

static void skip(struct cur *c, size_t n)
{
	if (need(c, n))
		c->pos += n;
}

/* Size of a constant pool entry's body after its tag; 0 for a bad tag. */
static size_t cp_body(struct cur *c, unsigned tag, int *slots)
{
	*slots = 1;
	switch (tag) {
	case 1: /* Utf8 */
		if (!need(c, 2))
			return 0;
		return 2 + cf_u2(c->buf + c->pos);
	case 3:
	case 4:
	case 9:
	case 10:
	case 11:
	case 12:
	case 17:
	case 18:
		return 4;
	case 5:
	case 6: /* Long, Double take two slots */
		*slots = 2;
		return 8;
	case 7:
	case 8:
	case 16:
	case 19:
	case 20:
		return 2;
	case 15:
		return 3;
	}
	return 0;
}

static int parse_cp(struct classfile *cf, struct cur *c, const char **why)
{
	unsigned i, tag;
	size_t n;
	int slots;

	cf->cp_off = calloc(cf->cp_count ? cf->cp_count : 1, sizeof(uint32_t));
	if (!cf->cp_off)
		return -ENOMEM;
	for (i = 1; i < cf->cp_count; i += slots) {
		if (!need(c, 1))
			break;
		cf->cp_off[i] = (uint32_t)c->pos;
		tag = c->buf[c->pos++];
		n = cp_body(c, tag, &slots);
		if (!n) {
			*why = "bad constant pool tag";
			return -EINVAL;
		}
		skip(c, n);
	}
	if (i != cf->cp_count && !c->bad) {
		*why = "Long/Double at the end of the constant pool";
		return -EINVAL;
	}
	cf->cp_end = c->pos;
	return 0;
}

/* Skip attributes; return the Code attribute's span when asked. */
static void skip_attrs(const struct classfile *cf, struct cur *c,
		       size_t *code_off, size_t *code_end)
{
	unsigned n = rd2(c), name;
	size_t start;
	uint32_t alen;

	while (n-- && !c->bad) {
		start = c->pos;
		name = rd2(c);
		alen = rd4(c);
		skip(c, alen);
		if (code_off && !c->bad &&
		    classfile__utf8_is(cf, name, "Code")) {
			*code_off = start;
			*code_end = c->pos;
		}
	}
}

static void skip_members(const struct classfile *cf, struct cur *c)
{
	unsigned n = rd2(c);

	while (n-- && !c->bad) {
		skip(c, 6);
		skip_attrs(cf, c, NULL, NULL);
	}
}

static int parse_methods(struct classfile *cf, struct cur *c)
{
	struct cf_method *m;
	unsigned i;

	cf->methods_off = c->pos;
	cf->nmethods = (uint16_t)rd2(c);
	cf->methods = calloc(cf->nmethods ? cf->nmethods : 1, sizeof(*m));
	if (!cf->methods)
		return -ENOMEM;
	for (i = 0; i < cf->nmethods && !c->bad; i++) {
		m = &cf->methods[i];
		m->off = c->pos;
		m->access = (uint16_t)rd2(c);
		m->name = (uint16_t)rd2(c);
		m->desc = (uint16_t)rd2(c);
		skip_attrs(cf, c, &m->code_off, &m->code_end);
		m->end = c->pos;
	}
	cf->methods_end = c->pos;
	return 0;
}

int classfile__parse(struct classfile *cf, const uint8_t *buf, size_t len,
		     const char **why)
{
	struct cur c = {buf, len, 0, 0};
	int ret;

	memset(cf, 0, sizeof(*cf));
	cf->buf = buf;
	cf->len = len;
	*why = "truncated";
	if (rd4(&c) != 0xCAFEBABE) {
		*why = "not a class file";
		return -EINVAL;
	}
	skip(&c, 2);
	cf->major = (uint16_t)rd2(&c);
	cf->cp_count = (uint16_t)rd2(&c);
	ret = parse_cp(cf, &c, why);
	if (ret)
		goto fail;
	skip(&c, 2);
	cf->this_class = (uint16_t)rd2(&c);
	skip(&c, 2);
	skip(&c, 2 * (size_t)rd2(&c)); /* interfaces */
	skip_members(cf, &c); /* fields */
	ret = parse_methods(cf, &c);
	if (ret)
		goto fail;
	skip_attrs(cf, &c, NULL, NULL);
	if (!c.bad && c.pos != len) {
		*why = "trailing bytes";
		ret = -EINVAL;
	} else if (c.bad) {
		ret = -EINVAL;
	}
	if (!ret)
		return 0;
fail:
	classfile__release(cf);
	return ret;
}

void classfile__release(struct classfile *cf)
{
	free(cf->cp_off);
	free(cf->methods);
	cf->cp_off = NULL;
	cf->methods = NULL;
}

int classfile__utf8(const struct classfile *cf, unsigned idx, const char **s,
		    uint16_t *n)
{
	const uint8_t *p;

	if (!idx || idx >= cf->cp_count || !cf->cp_off[idx])
		return -EINVAL;
	p = cf->buf + cf->cp_off[idx];
	if (p[0] != 1)
		return -EINVAL;
	*n = cf_u2(p + 1);
	*s = (const char *)p + 3;
	return 0;
}

int classfile__utf8_is(const struct classfile *cf, unsigned idx,
		       const char *lit)
{
	const char *s;
	uint16_t n;

	if (classfile__utf8(cf, idx, &s, &n))
		return 0;
	return n == strlen(lit) && !memcmp(s, lit, n);
}

/* One method: its header and attributes with Code replaced. */
static int write_method(const struct classfile *cf, const struct cf_method *m,
			const struct strbuf *code, struct strbuf *out)
{
	if (!code || !m->code_off)
		return strbuf__add(out, cf->buf + m->off, m->end - m->off);
	if (strbuf__add(out, cf->buf + m->off, m->code_off - m->off) ||
	    strbuf__add(out, code->buf, code->len))
		return -ENOMEM;
	return strbuf__add(out, cf->buf + m->code_end, m->end - m->code_end);
}

int classfile__write(const struct classfile *cf, const struct cf_edits *ed,
		     struct strbuf *out)
{
	unsigned count = cf->cp_count + (ed ? ed->ncp : 0);
	uint8_t hdr[10];
	unsigned i;

	if (count > 0xffff)
		return -E2BIG;
	memcpy(hdr, cf->buf, 8);
	cf_put2(hdr + 8, count);
	if (strbuf__add(out, hdr, 10) ||
	    strbuf__add(out, cf->buf + 10, cf->cp_end - 10) ||
	    (ed && ed->cp_len && strbuf__add(out, ed->cp, ed->cp_len)) ||
	    strbuf__add(out, cf->buf + cf->cp_end,
			cf->methods_off + 2 - cf->cp_end))
		return -ENOMEM;
	for (i = 0; i < cf->nmethods; i++)
		if (write_method(cf, &cf->methods[i],
				 ed && ed->code ? ed->code[i] : NULL, out))
			return -ENOMEM;
	return strbuf__add(out, cf->buf + cf->methods_end,
			   cf->len - cf->methods_end);
}
