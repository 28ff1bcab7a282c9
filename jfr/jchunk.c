/*
 * jchunk: one chunk of a JFR recording, read by the types its own
 * metadata declares (see jchunk.h).
 *
 * A recording is chunks one after another, each self-contained: its
 * header says where its metadata event (the types: every event's and
 * value's fields, in order) and its last checkpoint event (constant
 * pools; each points back to the one before) are. Values are read by
 * their type's fields alone, so any type of any JDK can be skipped: a
 * constant pool is indexed as (type, id) -> where its value starts, and a
 * value is decoded when asked for. Every length and offset is checked
 * against the chunk; recursion is bounded by MAX_DEPTH.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/strpool.h"
#include "jchunk.h"

#define MAX_DEPTH 32 /* nested values: JDK types nest 4 deep */

int jchunk__fail(struct jchunk *c, const char *why)
{
	if (!*c->why)
		*c->why = why;
	return -EINVAL;
}

const struct rtype *jchunk__type(const struct jchunk *c, uint64_t id)
{
	void **slot = id + 1 ? u64map__find(&c->type_ids, id + 1) : NULL;

	return slot ? &c->types[(uintptr_t)*slot - 1] : NULL;
}

void jchunk__release(struct jchunk *c)
{
	for (size_t i = 0; i < c->ntypes; i++) {
		free(c->types[i].f);
		u64map__release(&c->types[i].pool);
	}
	free(c->types);
	c->types = NULL;
	c->ntypes = 0;
	c->string = 0;
	u64map__release(&c->type_ids);
}

/* ---- metadata ---- */

struct meta {
	const char **str;
	uint64_t nstr;
};

static enum prim prim_of(const char *name)
{
	static const struct {
		const char *name;
		enum prim p;
	} prims[] = {{"boolean", P_BYTE},
		     {"byte", P_BYTE},
		     {"char", P_VAR},
		     {"short", P_VAR},
		     {"int", P_VAR},
		     {"long", P_VAR},
		     {"float", P_F4},
		     {"double", P_F8},
		     {"java.lang.String", P_STRING}};

	for (size_t i = 0; i < sizeof(prims) / sizeof(prims[0]); i++)
		if (!strcmp(name, prims[i].name))
			return prims[i].p;
	return P_NONE;
}

static const char *meta_str(struct jreader *r, const struct meta *m)
{
	uint64_t i = jr__var(r);

	if (i >= m->nstr) {
		r->err = -EINVAL;
		return "";
	}
	return m->str[i];
}

/* A "class" element's type, from its attributes. */
static struct rtype *add_type(struct jchunk *c, const char *name, uint64_t id)
{
	struct rtype *t;
	bool added;
	void **slot;

	if (!(c->ntypes & (c->ntypes + 1))) { /* 0, 1, 3, 7...: grow */
		t = realloc(c->types, (2 * c->ntypes + 1) * sizeof(*t));
		if (!t)
			return NULL;
		c->types = t;
	}
	if (id + 1 == 0) {
		jchunk__fail(c, "a type without an id");
		return NULL;
	}
	slot = u64map__add(&c->type_ids, id + 1, &added);
	if (!slot) {
		errno = ENOMEM;
		return NULL;
	}
	*slot = (void *)(uintptr_t)(c->ntypes + 1);
	t = &c->types[c->ntypes++];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->name = name;
	t->prim = prim_of(name);
	if (t->prim == P_STRING)
		c->string = id + 1;
	if (!strcmp(name, "mixprof.OffCPU"))
		c->ours = true;
	return t;
}

static int add_field(struct rtype *t, const struct rfield *f)
{
	struct rfield *v;

	if (!(t->nf & (t->nf + 1))) {
		v = realloc(t->f, (2 * t->nf + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->f = v;
	}
	t->f[t->nf++] = *f;
	return 0;
}

/*
 * One element and its children; a "class" becomes a type, a "field"
 * under one (index ti) a field of it. Types are found by index: the
 * array moves as it grows.
 */
static int element(struct jchunk *c, struct jreader *r, const struct meta *m,
		   int depth, long ti)
{
	const char *name = meta_str(r, m), *k, *v, *fname = NULL;
	struct rfield f = {0};
	uint64_t n = jr__var(r), id = UINT64_MAX;
	int ret = 0;

	if (depth > MAX_DEPTH)
		return jchunk__fail(c, "metadata nested too deep");
	for (uint64_t i = 0; i < n && !r->err; i++) {
		k = meta_str(r, m);
		v = meta_str(r, m);
		if (!strcmp(k, "name"))
			fname = v;
		else if (!strcmp(k, "id") || !strcmp(k, "class"))
			id = strtoull(v, NULL, 10);
		else if (!strcmp(k, "constantPool"))
			f.cpool = !strcmp(v, "true");
		else if (!strcmp(k, "dimension"))
			f.array = !strcmp(v, "1");
	}
	if (r->err)
		return jchunk__fail(c, "metadata cut short");
	if (!strcmp(name, "class") && fname) {
		if (!add_type(c, fname, id))
			return *c->why ? -EINVAL : -ENOMEM;
		ti = c->ntypes - 1;
	} else if (!strcmp(name, "field") && fname && ti >= 0) {
		f.name = fname;
		f.type = id;
		if (add_field(&c->types[ti], &f))
			return -ENOMEM;
		ti = -1;
	} else if (strcmp(name, "root") && strcmp(name, "metadata")) {
		ti = -1; /* annotations, settings, region: nothing of ours */
	}
	n = jr__var(r);
	for (uint64_t i = 0; i < n && !ret; i++)
		ret = r->err ? jchunk__fail(c, "metadata cut short")
			     : element(c, r, m, depth + 1, ti);
	return ret;
}

/* An event's head: its size (the range r is cut to) and type. */
uint64_t jchunk__event_head(struct jreader *r, const uint8_t *start)
{
	uint64_t size = jr__var(r);

	if (r->err || size < 2 || size > (uint64_t)(r->end - start)) {
		r->err = -EINVAL;
		return 0;
	}
	r->end = start + size;
	return jr__var(r);
}

static int read_metadata(struct jchunk *c, uint64_t off)
{
	struct jreader r = {.p = c->base + off, .end = c->base + c->size};
	struct meta m = {0};
	const char *s;
	size_t n;
	uint64_t ref;
	int ret;

	if (jchunk__event_head(&r, c->base + off) != 0 || r.err)
		return jchunk__fail(c,
				    "no metadata event where the header says");
	jr__var(&r); /* start */
	jr__var(&r); /* duration */
	jr__var(&r); /* metadata id */
	m.nstr = jr__var(&r);
	if (m.nstr > (uint64_t)(r.end - r.p))
		return jchunk__fail(c, "metadata string count past its event");
	m.str = calloc(m.nstr ? m.nstr : 1, sizeof(*m.str));
	if (!m.str)
		return -ENOMEM;
	for (uint64_t i = 0; i < m.nstr && !r.err; i++) {
		if (jr__str(&r, &s, &n, &ref, c->scratch, sizeof(c->scratch)) ==
		    JSTR_POOL)
			r.err = -EINVAL;
		m.str[i] = strpool__add(c->names, s ? s : "", n);
		if (!m.str[i]) {
			free(m.str);
			return -ENOMEM;
		}
	}
	ret = r.err ? jchunk__fail(c, "metadata strings cut short")
		    : element(c, &r, &m, 0, -1);
	free(m.str);
	return ret;
}

/* ---- values ---- */

int jchunk__skip_field(struct jchunk *c, struct jreader *r,
		       const struct rfield *f, int depth)
{
	uint64_t n = f->array ? jr__var(r) : 1;
	const struct rtype *t = f->cpool ? NULL : jchunk__type(c, f->type);
	int ret = 0;

	if (n > (uint64_t)(r->end - r->p) + 1)
		return jchunk__fail(c, "array longer than its event");
	if (t && !t->prim && !t->nf)
		return 0; /* a value of no bytes, however many */
	for (uint64_t i = 0; i < n && !ret && !r->err; i++) {
		if (f->cpool)
			jr__var(r);
		else
			ret = jchunk__skip_value(c, r, f->type, depth + 1);
	}
	return ret ? ret : r->err ? jchunk__fail(c, "value cut short") : 0;
}

int jchunk__skip_value(struct jchunk *c, struct jreader *r, uint64_t type,
		       int depth)
{
	const struct rtype *t = jchunk__type(c, type);
	const char *s;
	size_t n;
	uint64_t ref;
	int ret = 0;

	if (!t)
		return jchunk__fail(c, "a value of an undeclared type");
	if (depth > MAX_DEPTH)
		return jchunk__fail(c, "values nested too deep");
	switch (t->prim) {
	case P_BYTE:
		jr__u8(r);
		break;
	case P_VAR:
		jr__var(r);
		break;
	case P_F4:
		jr__skip(r, 4);
		break;
	case P_F8:
		jr__skip(r, 8);
		break;
	case P_STRING:
		jr__str(r, &s, &n, &ref, c->scratch, sizeof(c->scratch));
		break;
	default:
		for (size_t i = 0; i < t->nf && !ret; i++)
			ret = jchunk__skip_field(c, r, &t->f[i], depth);
	}
	return ret ? ret : r->err ? jchunk__fail(c, "value cut short") : 0;
}

/* Index one checkpoint's pools; its delta to the one before in *delta. */
static int read_checkpoint(struct jchunk *c, uint64_t off, int64_t *delta)
{
	struct jreader r = {.p = c->base + off, .end = c->base + c->size};
	uint64_t npools, type, n, id;
	struct rtype *t;
	bool added;
	void **slot;
	int ret = 0;

	if (jchunk__event_head(&r, c->base + off) != 1 || r.err)
		return jchunk__fail(c, "no constant pool event where expected");
	jr__var(&r); /* start */
	jr__var(&r); /* duration */
	*delta = (int64_t)jr__var(&r);
	jr__u8(&r); /* checkpoint kind */
	npools = jr__var(&r);
	for (uint64_t p = 0; p < npools && !ret && !r.err; p++) {
		type = jr__var(&r);
		n = jr__var(&r);
		t = (struct rtype *)jchunk__type(c, type);
		if (!t)
			return jchunk__fail(
			    c, "a constant pool of an undeclared type");
		for (uint64_t i = 0; i < n && !ret && !r.err; i++) {
			id = jr__var(&r);
			if (id + 1 == 0) {
				if (!t->last)
					t->last = r.p - c->base + 1;
			} else {
				slot = u64map__add(&t->pool, id + 1, &added);
				if (!slot)
					return -ENOMEM;
				if (added)
					*slot =
					    (void *)(uintptr_t)(r.p - c->base +
								1);
			}
			ret = jchunk__skip_value(c, &r, type, 0);
		}
	}
	return ret     ? ret
	       : r.err ? jchunk__fail(c, "constant pool cut short")
		       : 0;
}

/* Every checkpoint of the chunk, from the last back to the first. */
static int read_pools(struct jchunk *c, uint64_t off)
{
	int64_t delta = 0;
	int ret;

	for (;;) {
		ret = read_checkpoint(c, off, &delta);
		if (ret || !delta)
			return ret;
		/* each points back: a chain that does not ends here */
		if (delta > 0 || (uint64_t)-delta > off)
			return jchunk__fail(
			    c, "constant pool chain points forward");
		off += delta;
	}
}

/* A reader at constant id of type (false: absent, as null is). */
bool jchunk__constant(const struct jchunk *c, uint64_t type, uint64_t id,
		      struct jreader *out)
{
	const struct rtype *t = jchunk__type(c, type);
	void **slot = t && id + 1 ? u64map__find(&t->pool, id + 1) : NULL;
	uint64_t off = slot		  ? (uint64_t)(uintptr_t)*slot
		       : t && id + 1 == 0 ? t->last
					  : 0;

	if (!off)
		return false;
	out->p = c->base + off - 1;
	out->end = c->base + c->size;
	out->err = 0;
	return true;
}

/*
 * Move r (at a value of type) to its field name, or to the value it
 * refers to (cpool); *f the field. false: no such field or value.
 */
bool jchunk__field(struct jchunk *c, struct jreader *r, uint64_t type,
		   const char *name, const struct rfield **f)
{
	const struct rtype *t = jchunk__type(c, type);

	for (size_t i = 0; t && i < t->nf; i++) {
		if (strcmp(t->f[i].name, name)) {
			if (jchunk__skip_field(c, r, &t->f[i], 1))
				return false;
			continue;
		}
		*f = &t->f[i];
		if (!t->f[i].cpool || t->f[i].array)
			return true;
		return jchunk__constant(c, t->f[i].type, jr__var(r), r);
	}
	return false;
}

/* A number field of a value (0 when absent). */
uint64_t jchunk__number(struct jchunk *c, struct jreader r, uint64_t type,
			const char *name)
{
	const struct rfield *f;
	const struct rtype *t;

	if (!jchunk__field(c, &r, type, name, &f) ||
	    !(t = jchunk__type(c, f->type)))
		return 0;
	return t->prim == P_BYTE ? jr__u8(&r) : jr__var(&r);
}

/*
 * A string field of a value: a String (inline or pooled) or a value whose
 * "string" field is one (a Symbol), path the field names to follow, each
 * from the value the last one reached ("name", "string"). Its length,
 * *s into the file or scratch; 0 and *s NULL when absent.
 */
size_t jchunk__text(struct jchunk *c, struct jreader r, uint64_t type,
		    const char *const *path, const char **s)
{
	const struct rfield *f;
	uint64_t ref;
	size_t n = 0;

	*s = NULL;
	for (; *path; path++) {
		if (!jchunk__field(c, &r, type, *path, &f))
			return 0;
		type = f->type;
	}
	for (int d = 0; !c->string || type != c->string - 1; d++) {
		if (d > MAX_DEPTH || !jchunk__field(c, &r, type, "string", &f))
			return 0;
		type = f->type;
	}
	if (jr__str(&r, s, &n, &ref, c->scratch, sizeof(c->scratch)) ==
	    JSTR_POOL) {
		if (!jchunk__constant(c, type, ref, &r))
			return 0;
		jr__str(&r, s, &n, &ref, c->scratch, sizeof(c->scratch));
	}
	return r.err || !*s ? 0 : n;
}

int jchunk__open(struct jchunk *c, const uint8_t *buf, uint64_t len, bool pools,
		 uint64_t *size)
{
	struct jreader h = {.p = buf, .end = buf + len};
	uint64_t major, cpool, meta;
	int ret;

	if (len < JCHUNK_HEADER_SIZE || memcmp(buf, "FLR", 4))
		return jchunk__fail(c, "not a JFR chunk (no FLR magic)");
	jr__skip(&h, 4);
	major = jr__be(&h, 2);
	jr__be(&h, 2); /* minor */
	*size = jr__be(&h, 8);
	cpool = jr__be(&h, 8);
	meta = jr__be(&h, 8);
	jr__skip(&h, 24); /* start ns, duration ns, start ticks */
	c->tps = jr__be(&h, 8);
	if (major != 2 && major != 1)
		return jchunk__fail(c, "a JFR version other than 1 or 2");
	if (*size < JCHUNK_HEADER_SIZE || *size > len ||
	    cpool < JCHUNK_HEADER_SIZE || cpool >= *size ||
	    meta < JCHUNK_HEADER_SIZE || meta >= *size)
		return jchunk__fail(c, "a chunk's sizes out of range (a "
				       "recording still being written?)");
	jchunk__release(c);
	c->base = buf;
	c->size = *size;
	c->ours = false;
	ret = read_metadata(c, meta);
	return ret || !pools ? ret : read_pools(c, cpool);
}
