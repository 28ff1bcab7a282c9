/*
 * jfr_read: any JFR recording's samples as folded lines (see jfr.h).
 *
 * A recording is chunks one after another, each self-contained: its
 * header says where its metadata event (the types: every event's and
 * value's fields, in order) and its last checkpoint event (constant
 * pools; each points back to the one before) are. Values are read by
 * their type's fields alone, so any type of any JDK can be skipped: a
 * constant pool is indexed as (type, id) -> where its value starts, and a
 * value is decoded when an event refers to it (threads and stacks once,
 * then remembered by id). Every length and offset is checked against its
 * chunk; recursion is bounded by MAX_DEPTH.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/safename.h"
#include "common/strpool.h"
#include "common/u64map.h"
#include "jbuf.h"
#include "jfr.h"

#define HEADER_SIZE 68
#define MAX_DEPTH 32 /* nested values: JDK types nest 4 deep */
#define MAX_FRAMES 8192 /* a stack deeper than any JVM's 2048 default */

/* The event types read, in the order one is picked (jfr.h). */
static const char *const picks[] = {
    "jdk.ExecutionSample", "jdk.ObjectAllocationSample", "mixprof.OffCPU",
    "mixprof.WallClock", "mixprof.MethodCalls"};
#define NPICKS (sizeof(picks) / sizeof(picks[0]))

enum prim { P_NONE, P_BYTE, P_VAR, P_F4, P_F8, P_STRING };

struct rfield {
	const char *name;
	uint64_t type;
	bool cpool, array;
};

struct rtype {
	uint64_t id;
	const char *name;
	enum prim prim;
	struct rfield *f;
	size_t nf;
	struct u64map pool; /* constant id + 1 -> offset in chunk + 1 */
	uint64_t last; /* the same for id UINT64_MAX (the JDK uses -1) */
};

struct reader {
	const uint8_t *base; /* the chunk */
	uint64_t size, tps;
	struct rtype *types;
	size_t ntypes;
	struct u64map type_ids; /* id + 1 -> index + 1 */
	uint64_t string; /* java.lang.String's type id + 1; 0: none */
	bool ours; /* written by mixprof (declares mixprof.OffCPU) */
	struct strpool *names; /* metadata strings, texts made */
	struct u64map threads, stacks; /* constant id + 1 -> text */
	char *line;
	size_t len, cap;
	char scratch[4096];
	const char **why;
};

static int fail(struct reader *rd, const char *why)
{
	if (!*rd->why)
		*rd->why = why;
	return -EINVAL;
}

static const struct rtype *type_of(const struct reader *rd, uint64_t id)
{
	void **slot = id + 1 ? u64map__find(&rd->type_ids, id + 1) : NULL;

	return slot ? &rd->types[(uintptr_t)*slot - 1] : NULL;
}

static void free_types(struct reader *rd)
{
	for (size_t i = 0; i < rd->ntypes; i++) {
		free(rd->types[i].f);
		u64map__release(&rd->types[i].pool);
	}
	free(rd->types);
	rd->types = NULL;
	rd->ntypes = 0;
	rd->string = 0;
	u64map__release(&rd->type_ids);
	u64map__release(&rd->threads);
	u64map__release(&rd->stacks);
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
static struct rtype *add_type(struct reader *rd, const char *name, uint64_t id)
{
	struct rtype *t;
	bool added;
	void **slot;

	if (!(rd->ntypes & (rd->ntypes + 1))) { /* 0, 1, 3, 7...: grow */
		t = realloc(rd->types, (2 * rd->ntypes + 1) * sizeof(*t));
		if (!t)
			return NULL;
		rd->types = t;
	}
	if (id + 1 == 0) {
		fail(rd, "a type without an id");
		return NULL;
	}
	slot = u64map__add(&rd->type_ids, id + 1, &added);
	if (!slot) {
		errno = ENOMEM;
		return NULL;
	}
	*slot = (void *)(uintptr_t)(rd->ntypes + 1);
	t = &rd->types[rd->ntypes++];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->name = name;
	t->prim = prim_of(name);
	if (t->prim == P_STRING)
		rd->string = id + 1;
	if (!strcmp(name, "mixprof.OffCPU"))
		rd->ours = true;
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
static int element(struct reader *rd, struct jreader *r, const struct meta *m,
		   int depth, long ti)
{
	const char *name = meta_str(r, m), *k, *v, *fname = NULL;
	struct rfield f = {0};
	uint64_t n = jr__var(r), id = UINT64_MAX;
	int ret = 0;

	if (depth > MAX_DEPTH)
		return fail(rd, "metadata nested too deep");
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
		return fail(rd, "metadata cut short");
	if (!strcmp(name, "class") && fname) {
		if (!add_type(rd, fname, id))
			return *rd->why ? -EINVAL : -ENOMEM;
		ti = rd->ntypes - 1;
	} else if (!strcmp(name, "field") && fname && ti >= 0) {
		f.name = fname;
		f.type = id;
		if (add_field(&rd->types[ti], &f))
			return -ENOMEM;
		ti = -1;
	} else if (strcmp(name, "root") && strcmp(name, "metadata")) {
		ti = -1; /* annotations, settings, region: nothing of ours */
	}
	n = jr__var(r);
	for (uint64_t i = 0; i < n && !ret; i++)
		ret = r->err ? fail(rd, "metadata cut short")
			     : element(rd, r, m, depth + 1, ti);
	return ret;
}

/* An event's head: its size (the range r is cut to) and type. */
static uint64_t event_head(struct jreader *r, const uint8_t *start)
{
	uint64_t size = jr__var(r);

	if (r->err || size < 2 || size > (uint64_t)(r->end - start)) {
		r->err = -EINVAL;
		return 0;
	}
	r->end = start + size;
	return jr__var(r);
}

static int read_metadata(struct reader *rd, uint64_t off)
{
	struct jreader r = {.p = rd->base + off, .end = rd->base + rd->size};
	struct meta m = {0};
	const char *s;
	size_t n;
	uint64_t ref;
	int ret;

	if (event_head(&r, rd->base + off) != 0 || r.err)
		return fail(rd, "no metadata event where the header says");
	jr__var(&r); /* start */
	jr__var(&r); /* duration */
	jr__var(&r); /* metadata id */
	m.nstr = jr__var(&r);
	if (m.nstr > (uint64_t)(r.end - r.p))
		return fail(rd, "metadata string count past its event");
	m.str = calloc(m.nstr ? m.nstr : 1, sizeof(*m.str));
	if (!m.str)
		return -ENOMEM;
	for (uint64_t i = 0; i < m.nstr && !r.err; i++) {
		if (jr__str(&r, &s, &n, &ref, rd->scratch,
			    sizeof(rd->scratch)) == JSTR_POOL)
			r.err = -EINVAL;
		m.str[i] = strpool__add(rd->names, s ? s : "", n);
		if (!m.str[i]) {
			free(m.str);
			return -ENOMEM;
		}
	}
	ret = r.err ? fail(rd, "metadata strings cut short")
		    : element(rd, &r, &m, 0, -1);
	free(m.str);
	return ret;
}

/* ---- values ---- */

static int skip_value(struct reader *rd, struct jreader *r, uint64_t type,
		      int depth);

static int skip_field(struct reader *rd, struct jreader *r,
		      const struct rfield *f, int depth)
{
	uint64_t n = f->array ? jr__var(r) : 1;
	const struct rtype *t = f->cpool ? NULL : type_of(rd, f->type);
	int ret = 0;

	if (n > (uint64_t)(r->end - r->p) + 1)
		return fail(rd, "array longer than its event");
	if (t && !t->prim && !t->nf)
		return 0; /* a value of no bytes, however many */
	for (uint64_t i = 0; i < n && !ret && !r->err; i++) {
		if (f->cpool)
			jr__var(r);
		else
			ret = skip_value(rd, r, f->type, depth + 1);
	}
	return ret ? ret : r->err ? fail(rd, "value cut short") : 0;
}

static int skip_value(struct reader *rd, struct jreader *r, uint64_t type,
		      int depth)
{
	const struct rtype *t = type_of(rd, type);
	const char *s;
	size_t n;
	uint64_t ref;
	int ret = 0;

	if (!t)
		return fail(rd, "a value of an undeclared type");
	if (depth > MAX_DEPTH)
		return fail(rd, "values nested too deep");
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
		jr__str(r, &s, &n, &ref, rd->scratch, sizeof(rd->scratch));
		break;
	default:
		for (size_t i = 0; i < t->nf && !ret; i++)
			ret = skip_field(rd, r, &t->f[i], depth);
	}
	return ret ? ret : r->err ? fail(rd, "value cut short") : 0;
}

/* Index one checkpoint's pools; its delta to the one before in *delta. */
static int read_checkpoint(struct reader *rd, uint64_t off, int64_t *delta)
{
	struct jreader r = {.p = rd->base + off, .end = rd->base + rd->size};
	uint64_t npools, type, n, id;
	struct rtype *t;
	bool added;
	void **slot;
	int ret = 0;

	if (event_head(&r, rd->base + off) != 1 || r.err)
		return fail(rd, "no constant pool event where expected");
	jr__var(&r); /* start */
	jr__var(&r); /* duration */
	*delta = (int64_t)jr__var(&r);
	jr__u8(&r); /* checkpoint kind */
	npools = jr__var(&r);
	for (uint64_t p = 0; p < npools && !ret && !r.err; p++) {
		type = jr__var(&r);
		n = jr__var(&r);
		t = (struct rtype *)type_of(rd, type);
		if (!t)
			return fail(rd,
				    "a constant pool of an undeclared type");
		for (uint64_t i = 0; i < n && !ret && !r.err; i++) {
			id = jr__var(&r);
			if (id + 1 == 0) {
				if (!t->last)
					t->last = r.p - rd->base + 1;
			} else {
				slot = u64map__add(&t->pool, id + 1, &added);
				if (!slot)
					return -ENOMEM;
				if (added)
					*slot =
					    (void *)(uintptr_t)(r.p - rd->base +
								1);
			}
			ret = skip_value(rd, &r, type, 0);
		}
	}
	return ret ? ret : r.err ? fail(rd, "constant pool cut short") : 0;
}

/* Every checkpoint of the chunk, from the last back to the first. */
static int read_pools(struct reader *rd, uint64_t off)
{
	int64_t delta = 0;
	int ret;

	for (;;) {
		ret = read_checkpoint(rd, off, &delta);
		if (ret || !delta)
			return ret;
		/* each points back: a chain that does not ends here */
		if (delta > 0 || (uint64_t)-delta > off)
			return fail(rd, "constant pool chain points forward");
		off += delta;
	}
}

/* A reader at constant id of type (false: absent, as null is). */
static bool constant(const struct reader *rd, uint64_t type, uint64_t id,
		     struct jreader *out)
{
	const struct rtype *t = type_of(rd, type);
	void **slot = t && id + 1 ? u64map__find(&t->pool, id + 1) : NULL;
	uint64_t off = slot		  ? (uint64_t)(uintptr_t)*slot
		       : t && id + 1 == 0 ? t->last
					  : 0;

	if (!off)
		return false;
	out->p = rd->base + off - 1;
	out->end = rd->base + rd->size;
	out->err = 0;
	return true;
}

/*
 * Move r (at a value of type) to its field name, or to the value it
 * refers to (cpool); *f the field. false: no such field or value.
 */
static bool field(struct reader *rd, struct jreader *r, uint64_t type,
		  const char *name, const struct rfield **f)
{
	const struct rtype *t = type_of(rd, type);

	for (size_t i = 0; t && i < t->nf; i++) {
		if (strcmp(t->f[i].name, name)) {
			if (skip_field(rd, r, &t->f[i], 1))
				return false;
			continue;
		}
		*f = &t->f[i];
		if (!t->f[i].cpool || t->f[i].array)
			return true;
		return constant(rd, t->f[i].type, jr__var(r), r);
	}
	return false;
}

/* A number field of a value (0 when absent). */
static uint64_t number(struct reader *rd, struct jreader r, uint64_t type,
		       const char *name)
{
	const struct rfield *f;
	const struct rtype *t;

	if (!field(rd, &r, type, name, &f) || !(t = type_of(rd, f->type)))
		return 0;
	return t->prim == P_BYTE ? jr__u8(&r) : jr__var(&r);
}

/*
 * A string field of a value: a String (inline or pooled) or a value whose
 * "string" field is one (a Symbol), path the field names to follow, each
 * from the value the last one reached ("name", "string"). Its length,
 * *s into the file or scratch; 0 and *s NULL when absent.
 */
static size_t text(struct reader *rd, struct jreader r, uint64_t type,
		   const char *const *path, const char **s)
{
	const struct rfield *f;
	uint64_t ref;
	size_t n = 0;

	*s = NULL;
	for (; *path; path++) {
		if (!field(rd, &r, type, *path, &f))
			return 0;
		type = f->type;
	}
	for (int d = 0; !rd->string || type != rd->string - 1; d++) {
		if (d > MAX_DEPTH || !field(rd, &r, type, "string", &f))
			return 0;
		type = f->type;
	}
	if (jr__str(&r, s, &n, &ref, rd->scratch, sizeof(rd->scratch)) ==
	    JSTR_POOL) {
		if (!constant(rd, type, ref, &r))
			return 0;
		jr__str(&r, s, &n, &ref, rd->scratch, sizeof(rd->scratch));
	}
	return r.err || !*s ? 0 : n;
}

/* ---- lines ---- */

/* Room for n more bytes of line. */
static int room(struct reader *rd, size_t n)
{
	char *p;
	size_t cap = rd->cap ? rd->cap : 1024;

	if (rd->len + n + 1 <= rd->cap)
		return 0;
	while (cap < rd->len + n + 1)
		cap *= 2;
	p = realloc(rd->line, cap);
	if (!p)
		return -ENOMEM;
	rd->line = p;
	rd->cap = cap;
	return 0;
}

/* s[0..n) from the file made safe for a frame (no ';', no controls). */
static int put_safe(struct reader *rd, const char *s, size_t n)
{
	const unsigned flags = SAFENAME_FOLD | SAFENAME_ESCAPED;

	if (room(rd, SAFENAME_SIZE(n)))
		return -ENOMEM;
	rd->len +=
	    safename__copy(rd->line + rd->len, rd->cap - rd->len, s, n, flags);
	return 0;
}

static int put(struct reader *rd, const char *s)
{
	size_t n = strlen(s);

	if (room(rd, n))
		return -ENOMEM;
	memcpy(rd->line + rd->len, s, n + 1);
	rd->len += n;
	return 0;
}

/* Text made at line[from..len) kept (interned) and the line cut back. */
static const char *keep(struct reader *rd, size_t from)
{
	const char *t =
	    strpool__add(rd->names, rd->line + from, rd->len - from);

	rd->len = from;
	return t;
}

/* The text made at line[from..len) kept as id's in map (but for id
 * UINT64_MAX, which has no key), the line cut back; NULL on ENOMEM. */
static const char *cache(struct reader *rd, struct u64map *map, uint64_t id,
			 size_t from)
{
	const char *t = keep(rd, from);
	bool added;
	void **slot;

	if (!t || id + 1 == 0)
		return t;
	slot = u64map__add(map, id + 1, &added);
	if (!slot)
		return NULL;
	*slot = (void *)t;
	return t;
}

/* "process;name [tid]" of thread id (cached). */
static const char *thread_text(struct reader *rd, uint64_t type, uint64_t id)
{
	static const char *const java[] = {"javaName", NULL},
				 *const os[] = {"osName", NULL},
				 *const group[] = {"group", "name", NULL};
	void **slot = id + 1 ? u64map__find(&rd->threads, id + 1) : NULL;
	struct jreader r;
	const char *s;
	size_t n, from = rd->len;
	char tid[32];

	if (slot)
		return *slot;
	if (!constant(rd, type, id, &r))
		return "java;[unknown thread]";
	n = rd->ours ? text(rd, r, type, group, &s) : 0;
	if (n ? put_safe(rd, s, n) : put(rd, "java"))
		return NULL;
	n = text(rd, r, type, java, &s);
	if (!n)
		n = text(rd, r, type, os, &s);
	snprintf(tid, sizeof(tid), " [%" PRIu64 "]",
		 number(rd, r, type, "osThreadId"));
	if (put(rd, ";") || (n ? put_safe(rd, s, n) : put(rd, "[unknown]")) ||
	    put(rd, tid))
		return NULL;
	return cache(rd, &rd->threads, id, from);
}

/* The folded suffix of a frame type's description (NULL: a Java frame of
 * a type we do not know; "" native). */
static const char *suffix_of(const char *d, size_t n)
{
	static const struct {
		const char *desc, *suffix;
	} kinds[] = {{"Interpreted", "_[0]"},
		     {"JIT compiled", "_[j]"},
		     {"C1 compiled", "_[1]"},
		     {"Inlined", "_[i]"},
		     {"Kernel", "_[k]"},
		     {"Native", ""},
		     {"C++", ""}};

	for (size_t i = 0; d && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].desc) == n && !memcmp(d, kinds[i].desc, n))
			return kinds[i].suffix;
	return NULL;
}

/* One frame (r at a StackFrame of type) appended to the line. */
static int put_frame(struct reader *rd, struct jreader r, uint64_t type)
{
	static const char *const cls[] = {"method", "type", "name", NULL},
				 *const meth[] = {"method", "name", NULL},
				 *const desc[] = {"type", "description", NULL};
	const char *s, *suffix;
	size_t n = text(rd, r, type, desc, &s), start = rd->len;
	int64_t line = (int32_t)number(rd, r, type, "lineNumber");
	char num[16] = "";

	suffix = suffix_of(s, n);
	n = text(rd, r, type, cls, &s);
	if (n && (put_safe(rd, s, n) || put(rd, ".")))
		return -ENOMEM;
	/* a native frame of a Java method (the JDK's "Native"): as our
	 * JNI wrappers, compiled Java */
	if (!suffix || (!*suffix && rd->len > start))
		suffix = "_[j]";
	n = text(rd, r, type, meth, &s);
	if (n ? put_safe(rd, s, n) : put(rd, "[unknown]"))
		return -ENOMEM;
	/* lines only as we write them (--lines): a JDK recording's would
	 * split every method into one frame per line */
	if (rd->ours && line > 0 && *suffix && strcmp(suffix, "_[k]"))
		snprintf(num, sizeof(num), ":%" PRId64, line);
	return put(rd, num) || put(rd, suffix) ? -ENOMEM : 0;
}

/* ";frame;...;frame" of stack trace id, root first (cached). */
static const char *stack_text(struct reader *rd, uint64_t type, uint64_t id)
{
	void **slot = id + 1 ? u64map__find(&rd->stacks, id + 1) : NULL;
	const struct rfield *f;
	struct jreader r, *at;
	uint64_t n;
	size_t from = rd->len;

	if (slot)
		return *slot;
	if (!constant(rd, type, id, &r) || !field(rd, &r, type, "frames", &f))
		return ";[no stack]";
	n = jr__var(&r);
	if (n > MAX_FRAMES || !f->array)
		return ";[stack too deep]";
	at = calloc(n ? n : 1, sizeof(*at));
	if (!at)
		return NULL;
	/* JFR lists frames leaf first: find each, then write root first */
	for (uint64_t i = 0; i < n && !r.err; i++) {
		at[i] = r;
		if (f->cpool) {
			uint64_t fid = jr__var(&r);

			if (!constant(rd, f->type, fid, &at[i]))
				r.err = -EINVAL;
		} else if (skip_value(rd, &r, f->type, 1)) {
			r.err = -EINVAL;
		}
	}
	for (uint64_t i = n; i-- > 0 && !r.err;)
		if (put(rd, ";") || put_frame(rd, at[i], f->type))
			r.err = -ENOMEM;
	free(at);
	if (r.err == -ENOMEM)
		return NULL;
	if (r.err) {
		rd->len = from;
		return ";[bad stack]";
	}
	return cache(rd, &rd->stacks, id, from);
}

/* ---- events ---- */

struct pick {
	const char *name; /* the event type read */
	int (*fn)(const char *line, size_t len, uint64_t count, void *ctx);
	void *ctx;
};

/* Where an event's fields of interest start (p NULL: absent). */
struct event_at {
	struct jreader thread, stack, cls, weight;
	const struct rfield *tf, *sf, *cf, *wf;
};

/* Note where the fields we read are, skipping the others. */
static int find_fields(struct reader *rd, struct jreader *r,
		       const struct rtype *t, struct event_at *e)
{
	static const char *const weights[] = {"weight", "duration", "calls"};
	int ret = 0;

	for (size_t i = 0; i < t->nf && !ret; i++) {
		const struct rfield *f = &t->f[i];

		if (i && !strcmp(f->name, "sampledThread")) {
			e->thread = *r, e->tf = f;
		} else if (i && !strcmp(f->name, "eventThread")) {
			e->thread = *r, e->tf = f;
		} else if (!strcmp(f->name, "stackTrace")) {
			e->stack = *r, e->sf = f;
		} else if (!strcmp(f->name, "objectClass")) {
			e->cls = *r, e->cf = f;
		} else {
			for (size_t k = 0; k < 3; k++)
				if (!strcmp(f->name, weights[k]))
					e->weight = *r, e->wf = f;
		}
		ret = skip_field(rd, r, f, 0);
	}
	return ret;
}

/* What an event weighs: 1 a sample; bytes; microseconds; calls. */
static uint64_t weight(const struct reader *rd, struct event_at *e)
{
	uint64_t v;

	if (!e->wf)
		return 1;
	v = jr__var(&e->weight);
	if (!strcmp(e->wf->name, "duration")) /* ticks */
		return rd->tps ? (unsigned __int128)v * 1000000 / rd->tps : 0;
	return v;
}

/* A constant reference field's id (0, null, when not one). */
static uint64_t ref(struct jreader *r, const struct rfield *f)
{
	return f && f->cpool && !f->array ? jr__var(r) : 0;
}

/* One event (r past its type id) as a line to the callback. */
static int one_event(struct reader *rd, struct jreader *r,
		     const struct rtype *t, const struct pick *pk)
{
	struct event_at e = {0};
	const char *th, *st;
	uint64_t w;
	int ret = find_fields(rd, r, t, &e);

	if (ret)
		return ret;
	w = weight(rd, &e);
	if (!w)
		return 0;
	th = e.tf ? thread_text(rd, e.tf->type, ref(&e.thread, e.tf)) : "java";
	st = e.sf ? stack_text(rd, e.sf->type, ref(&e.stack, e.sf)) : "";
	if (!th || !st)
		return -ENOMEM;
	rd->len = 0;
	if (put(rd, th) || put(rd, st))
		return -ENOMEM;
	if (e.cf) { /* the allocated class, as our --alloc's leaf */
		static const char *const name[] = {"name", NULL};
		const char *s;
		struct jreader c;
		size_t n = constant(rd, e.cf->type, ref(&e.cls, e.cf), &c)
			       ? text(rd, c, e.cf->type, name, &s)
			       : 0;

		if (put(rd, ";") ||
		    (n ? put_safe(rd, s, n) : put(rd, "[unknown class]")))
			return -ENOMEM;
	}
	return pk->fn(rd->line, rd->len, w, pk->ctx);
}

/*
 * Each event of the chunk: counted into counts[] by picks[] (pk NULL),
 * or those of pk->name passed on as lines.
 */
static int chunk_events(struct reader *rd, const struct pick *pk,
			uint64_t *counts)
{
	const struct rtype *want = NULL;
	uint64_t off = HEADER_SIZE, type;
	int ret = 0;

	for (size_t i = 0; pk && i < rd->ntypes; i++)
		if (!strcmp(rd->types[i].name, pk->name))
			want = &rd->types[i];
	if (pk && !want)
		return 0;
	while (off < rd->size && !ret) {
		struct jreader r = {.p = rd->base + off,
				    .end = rd->base + rd->size};

		type = event_head(&r, rd->base + off);
		if (r.err)
			return fail(rd, "an event past its chunk");
		off = r.end - rd->base;
		if (want && type == want->id) {
			ret = one_event(rd, &r, want, pk);
		} else if (!pk) {
			const struct rtype *t = type_of(rd, type);

			for (size_t i = 0; t && i < NPICKS; i++)
				counts[i] += !strcmp(t->name, picks[i]);
		}
	}
	return ret;
}

/* One chunk at buf[0..len): its size, after reading it for pk/counts. */
static int chunk(struct reader *rd, const uint8_t *buf, uint64_t len,
		 const struct pick *pk, uint64_t *counts, uint64_t *size)
{
	struct jreader h = {.p = buf, .end = buf + len};
	uint64_t major, cpool, meta;
	int ret;

	if (len < HEADER_SIZE || memcmp(buf, "FLR", 4))
		return fail(rd, "not a JFR chunk (no FLR magic)");
	jr__skip(&h, 4);
	major = jr__be(&h, 2);
	jr__be(&h, 2); /* minor */
	*size = jr__be(&h, 8);
	cpool = jr__be(&h, 8);
	meta = jr__be(&h, 8);
	jr__skip(&h, 24); /* start ns, duration ns, start ticks */
	rd->tps = jr__be(&h, 8);
	if (major != 2 && major != 1)
		return fail(rd, "a JFR version other than 1 or 2");
	if (*size < HEADER_SIZE || *size > len || cpool < HEADER_SIZE ||
	    cpool >= *size || meta < HEADER_SIZE || meta >= *size)
		return fail(rd, "a chunk's sizes out of range (a recording "
				"still being written?)");
	free_types(rd);
	rd->base = buf;
	rd->size = *size;
	rd->ours = false;
	ret = read_metadata(rd, meta);
	if (!ret && pk)
		ret = read_pools(rd, cpool);
	return ret ? ret : chunk_events(rd, pk, counts);
}

/* Every chunk, for pk or counts. */
static int chunks(struct reader *rd, const uint8_t *buf, size_t len,
		  const struct pick *pk, uint64_t *counts)
{
	uint64_t off = 0, size;
	int ret = 0;

	while (off < len && !ret) {
		ret = chunk(rd, buf + off, len - off, pk, counts, &size);
		off += size;
	}
	return ret;
}

int jfr__read(const void *buf, size_t len,
	      int (*fn)(const char *line, size_t len, uint64_t count,
			void *ctx),
	      void *ctx, const char **why)
{
	struct reader rd = {.why = why};
	struct pick pk = {NULL, fn, ctx};
	uint64_t counts[NPICKS] = {0};
	int ret;

	*why = NULL;
	if (len > JFR_MAX_BYTES)
		return -EFBIG;
	rd.names = strpool__new();
	if (!rd.names)
		return -ENOMEM;
	ret = chunks(&rd, buf, len, NULL, counts);
	for (size_t i = 0; !ret && !pk.name && i < NPICKS; i++)
		if (counts[i])
			pk.name = picks[i];
	if (!ret && pk.name)
		ret = chunks(&rd, buf, len, &pk, NULL);
	free_types(&rd);
	strpool__free(rd.names);
	free(rd.line);
	return ret;
}
