/*
 * inject: the entry prefix and the offset tables it shifts. See inject.h.
 */
#include <errno.h>
#include <string.h>
#include "inject.h"

static int add_utf8(struct strbuf *cp, const char *s)
{
	uint8_t h[3] = {1};

	cf_put2(h + 1, (unsigned)strlen(s));
	if (strbuf__add(cp, h, 3))
		return -ENOMEM;
	return strbuf__add(cp, s, strlen(s));
}

static int add_ref(struct strbuf *cp, uint8_t tag, unsigned a, unsigned b,
		   int two)
{
	uint8_t e[5] = {tag};

	cf_put2(e + 1, a);
	cf_put2(e + 3, b);
	return strbuf__add(cp, e, two ? 5 : 3);
}

int inject__helper_cp(const struct classfile *cf, const char *cls,
		      const char *name, const char *desc, struct strbuf *cp,
		      uint16_t *ncp, uint16_t *methodref)
{
	unsigned b = cf->cp_count; /* Utf8 cls, Class, Utf8 name, Utf8 desc,
				    * NameAndType, Methodref */

	if (b + 6 > 0xffff)
		return -E2BIG;
	if (add_utf8(cp, cls) || add_ref(cp, 7, b, 0, 0) ||
	    add_utf8(cp, name) || add_utf8(cp, desc) ||
	    add_ref(cp, 12, b + 2, b + 3, 1) ||
	    add_ref(cp, 10, b + 1, b + 4, 1))
		return -ENOMEM;
	*ncp = 6;
	*methodref = (uint16_t)(b + 5);
	return 0;
}

/* A bounds-checked reader over one attribute's bytes. */
struct rd {
	const uint8_t *p;
	size_t len, pos;
	int bad;
};

static unsigned get(struct rd *r, size_t n)
{
	unsigned v = 0;

	if (r->bad || r->len - r->pos < n) {
		r->bad = 1;
		return 0;
	}
	while (n--)
		v = v << 8 | r->p[r->pos++];
	return v;
}

static int put(struct strbuf *o, unsigned v, size_t n)
{
	uint8_t b[4];
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	return strbuf__add(o, b, n);
}

/* One verification_type_info; Uninitialized(offset) moves with the code. */
static int vtype(struct rd *r, struct strbuf *o)
{
	unsigned tag = get(r, 1);

	if (put(o, tag, 1))
		return -ENOMEM;
	if (tag == 7)
		return put(o, get(r, 2), 2);
	if (tag == 8)
		return put(o, get(r, 2) + INJECT_LEN, 2);
	if (tag > 8)
		r->bad = 1;
	return 0;
}

static int vtypes(struct rd *r, struct strbuf *o, unsigned n)
{
	while (n-- && !r->bad)
		if (vtype(r, o))
			return -ENOMEM;
	return 0;
}

/* Frame header: the first frame's offset_delta is its absolute offset and
 * grows by INJECT_LEN, which may need the extended form of compact tags. */
static int frame_head(struct rd *r, struct strbuf *o, unsigned tag, int first)
{
	unsigned add = first ? INJECT_LEN : 0, d;

	if (tag < 64) {
		d = tag + add;
		return d < 64 ? put(o, d, 1) : (put(o, 251, 1) || put(o, d, 2));
	}
	if (tag < 128) {
		d = tag - 64 + add;
		if (d < 64)
			return put(o, d + 64, 1);
		return put(o, 247, 1) || put(o, d, 2);
	}
	if (tag < 247) {
		r->bad = 1;
		return 0;
	}
	return put(o, tag, 1) || put(o, get(r, 2) + add, 2);
}

static int frame(struct rd *r, struct strbuf *o, int first)
{
	unsigned tag = get(r, 1), n;

	if (frame_head(r, o, tag, first))
		return -ENOMEM;
	if (tag >= 64 && tag <= 127)
		return vtypes(r, o, 1);
	if (tag == 247)
		return vtypes(r, o, 1);
	if (tag >= 252 && tag <= 254)
		return vtypes(r, o, tag - 251);
	if (tag == 255) {
		n = get(r, 2);
		if (put(o, n, 2) || vtypes(r, o, n))
			return -ENOMEM;
		n = get(r, 2);
		if (put(o, n, 2) || vtypes(r, o, n))
			return -ENOMEM;
	}
	return 0;
}

static int stackmap(struct rd *r, struct strbuf *o)
{
	unsigned n = get(r, 2), i;

	if (put(o, n, 2))
		return -ENOMEM;
	for (i = 0; i < n && !r->bad; i++)
		if (frame(r, o, i == 0))
			return -ENOMEM;
	return 0;
}

/* LineNumberTable {start_pc, line}: pc 0 stays (it covers the probe). */
static int lines(struct rd *r, struct strbuf *o)
{
	unsigned n = get(r, 2), pc;

	if (put(o, n, 2))
		return -ENOMEM;
	while (n-- && !r->bad) {
		pc = get(r, 2);
		if (put(o, pc ? pc + INJECT_LEN : 0, 2) || put(o, get(r, 2), 2))
			return -ENOMEM;
	}
	return 0;
}

/* LocalVariable(Type)Table {start_pc, length, name, desc, index}: ranges
 * from pc 0 (parameters) keep starting there and grow. */
static int locals(struct rd *r, struct strbuf *o)
{
	unsigned n = get(r, 2), pc, len;

	if (put(o, n, 2))
		return -ENOMEM;
	while (n-- && !r->bad) {
		pc = get(r, 2);
		len = get(r, 2);
		if (pc)
			pc += INJECT_LEN;
		else
			len += INJECT_LEN;
		if (put(o, pc, 2) || put(o, len, 2) || put(o, get(r, 2), 2) ||
		    put(o, get(r, 2), 2) || put(o, get(r, 2), 2))
			return -ENOMEM;
	}
	return 0;
}

enum attr_kind { A_COPY, A_DROP, A_LINES, A_LOCALS, A_STACKMAP };

static enum attr_kind kind_of(const struct classfile *cf, unsigned name)
{
	if (classfile__utf8_is(cf, name, "StackMapTable"))
		return A_STACKMAP;
	if (classfile__utf8_is(cf, name, "LineNumberTable"))
		return A_LINES;
	if (classfile__utf8_is(cf, name, "LocalVariableTable") ||
	    classfile__utf8_is(cf, name, "LocalVariableTypeTable"))
		return A_LOCALS;
	if (classfile__utf8_is(cf, name, "RuntimeVisibleTypeAnnotations") ||
	    classfile__utf8_is(cf, name, "RuntimeInvisibleTypeAnnotations"))
		return A_DROP;
	return A_COPY;
}

/* One attribute of Code, rewritten into o; *dropped is set for A_DROP. */
static int code_attr(const struct classfile *cf, struct rd *r, struct strbuf *o,
		     int *dropped)
{
	unsigned name = get(r, 2);
	size_t alen = get(r, 4), at = o->len;
	struct rd a = {r->p + r->pos, alen, 0, 0};
	enum attr_kind k = kind_of(cf, name);
	int ret = 0;

	if (r->bad || r->len - r->pos < alen) {
		r->bad = 1;
		return 0;
	}
	r->pos += alen;
	*dropped = k == A_DROP;
	if (k == A_DROP)
		return 0;
	if (put(o, name, 2) || put(o, 0, 4))
		return -ENOMEM;
	if (k == A_STACKMAP)
		ret = stackmap(&a, o);
	else if (k == A_LINES)
		ret = lines(&a, o);
	else if (k == A_LOCALS)
		ret = locals(&a, o);
	else
		ret = strbuf__add(o, a.p, alen);
	if (ret)
		return ret;
	if (a.bad || (k != A_COPY && a.pos != alen))
		r->bad = 1;
	cf_put4((uint8_t *)o->buf + at + 2, (uint32_t)(o->len - at - 6));
	return 0;
}

static int prefix(struct strbuf *o, uint16_t methodref, unsigned id)
{
	uint8_t p[INJECT_LEN] = {0x11, 0, 0, 0xb8, 0, 0, 0x00, 0x00};

	cf_put2(p + 1, id);
	cf_put2(p + 4, methodref);
	return strbuf__add(o, p, sizeof(p));
}

/* Code body after the header: code, exception table, attributes. */
static int body(const struct classfile *cf, struct rd *r, struct strbuf *o,
		uint16_t methodref, unsigned id, const char **why)
{
	size_t clen = get(r, 4), cnt_at;
	unsigned n, i, kept = 0;
	int dropped = 0, ret;

	if (r->bad || !clen || r->len - r->pos < clen)
		return *why = "bad code length", -EINVAL;
	if (clen + INJECT_LEN > 0xffff)
		return *why = "method too long for a probe", -EFBIG;
	if (put(o, (unsigned)(clen + INJECT_LEN), 4) ||
	    prefix(o, methodref, id) || strbuf__add(o, r->p + r->pos, clen))
		return -ENOMEM;
	r->pos += clen;
	n = get(r, 2);
	if (put(o, n, 2))
		return -ENOMEM;
	for (i = 0; i < 4 * n; i++) /* start, end, handler; catch_type */
		if (put(o, get(r, 2) + (i % 4 == 3 ? 0 : INJECT_LEN), 2))
			return -ENOMEM;
	n = get(r, 2);
	cnt_at = o->len;
	if (put(o, 0, 2))
		return -ENOMEM;
	for (i = 0; i < n && !r->bad; i++) {
		ret = code_attr(cf, r, o, &dropped);
		if (ret)
			return ret;
		kept += !dropped;
	}
	cf_put2((uint8_t *)o->buf + cnt_at, kept);
	return 0;
}

int inject__entry(const struct classfile *cf, const struct cf_method *m,
		  uint16_t methodref, unsigned id, struct strbuf *out,
		  const char **why)
{
	struct rd r;
	size_t at = out->len;
	unsigned name, stack;
	int ret;

	*why = "malformed Code attribute";
	if (!m->code_off)
		return *why = "no code", -EINVAL;
	if (id > INJECT_MAX_ID)
		return *why = "too many probes", -ERANGE;
	r = (struct rd){cf->buf + m->code_off, m->code_end - m->code_off, 0, 0};
	name = get(&r, 2);
	get(&r, 4);
	stack = get(&r, 2);
	if (put(out, name, 2) || put(out, 0, 4) ||
	    put(out, stack ? stack : 1, 2) || put(out, get(&r, 2), 2))
		return -ENOMEM;
	ret = body(cf, &r, out, methodref, id, why);
	if (!ret && (r.bad || r.pos != r.len))
		ret = -EINVAL;
	if (ret) {
		out->len = at;
		return ret;
	}
	cf_put4((uint8_t *)out->buf + at + 2, (uint32_t)(out->len - at - 6));
	return 0;
}
