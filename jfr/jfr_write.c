/*
 * jfr_write: folded lines into one JFR chunk (see jfr.h).
 *
 * A chunk is a 68-byte header (magic "FLR\0", version 2.0, its size, the
 * offsets of its last constant pool event and of its metadata event, its
 * start in wall-clock nanoseconds and in ticks, ticks per second, flags),
 * the metadata event (jmeta.c), the events, then one checkpoint event
 * holding every constant pool the events refer to by id: threads, stack
 * traces, methods, classes, symbols. Ids start at 1: 0 is null. Ticks
 * are nanoseconds of the wall clock, so a tick is a time as it is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "common/strpool.h"
#include "common/u64map.h"
#include "stacks/fold.h"
#include "jbuf.h"
#include "jfr.h"
#include "jmeta.h"

#define HEADER_SIZE 68
#define COMPRESSED_INTS 1 /* the header's flag: events use varints */

struct jthread {
	const char *name; /* interned, len bytes */
	size_t len;
	int64_t tid;
	uint64_t group;
	bool java; /* a sample of it had a Java frame */
};

struct jmethod {
	uint64_t cls, name;
};

/* A thread group: a process, or a container of one (parent: its id). */
struct jgroup {
	const char *name; /* interned, len bytes */
	size_t len;
	uint64_t parent;
};

/* One line: count samples (or bytes, us, calls) of a thread in a stack. */
struct jrec {
	uint64_t thread, stack, cls, count;
};

/* A growable array of n items of size bytes. */
struct vec {
	void *p;
	size_t n, cap;
};

struct jfr_writer {
	struct jfr_meta m;
	struct strpool *pool;
	/* interned text (pointer) or composite key -> id */
	struct u64map sym_ids, class_ids, method_ids, stack_ids, thread_ids,
	    group_ids;
	struct vec syms, classes, methods, groups, threads, recs;
	struct pbuf stacks; /* the stack trace pool's entries, encoded */
	uint64_t nstacks;
	uint64_t *frames; /* scratch: a stack's method ids... */
	int32_t *lines, *bcis; /* -1: none */
	uint8_t *types;
	size_t capframes;
	char *key; /* scratch: frames' text joined, as a key */
	size_t capkey;
	struct fold_line text; /* a line given as text, typed (__add) */
	struct fold_frame *fr;
	size_t capfr;
};

/* Room for one more item; the new item (zeroed), or NULL. */
static void *vec_push(struct vec *v, size_t size)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		void *p = realloc(v->p, cap * size);

		if (!p)
			return NULL;
		v->p = p;
		v->cap = cap;
	}
	memset((char *)v->p + v->n * size, 0, size);
	return (char *)v->p + v->n++ * size;
}

struct jfr_writer *jfr_writer__new(const struct jfr_meta *m)
{
	struct jfr_writer *w = calloc(1, sizeof(*w));

	if (!w || !(w->pool = strpool__new())) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->m = *m;
	return w;
}

void jfr_writer__free(struct jfr_writer *w)
{
	struct u64map *maps[] = {&w->sym_ids,	&w->class_ids,	&w->method_ids,
				 &w->stack_ids, &w->thread_ids, &w->group_ids};
	struct vec *vecs[] = {&w->syms,	  &w->classes, &w->methods,
			      &w->groups, &w->threads, &w->recs};

	if (!w)
		return;
	for (size_t i = 0; i < 6; i++) {
		u64map__release(maps[i]);
		free(vecs[i]->p);
	}
	pbuf__release(&w->stacks);
	strpool__free(w->pool);
	free(w->frames);
	free(w->lines);
	free(w->bcis);
	free(w->types);
	free(w->key);
	fold_line__release(&w->text);
	free(w->fr);
	free(w);
}

/*
 * The id of key in map, made the next one (n + 1) if new: *added says
 * so. 0 on ENOMEM.
 */
static uint64_t key_id(struct u64map *map, uint64_t key, size_t n, bool *added)
{
	void **slot = u64map__add(map, key, added);

	if (!slot)
		return 0;
	if (*added)
		*slot = (void *)(uintptr_t)(n + 1);
	return (uintptr_t)*slot;
}

/* The id of text s[0..n) in map, whose vec holds the texts by id. */
static uint64_t text_id(struct jfr_writer *w, struct u64map *map, struct vec *v,
			const char *s, size_t n)
{
	const char *p = strpool__intern(w->pool, s, n);
	const char **slot;
	bool added;
	uint64_t id;

	if (!p)
		return 0;
	id = key_id(map, (uintptr_t)p, v->n, &added);
	if (!id || !added)
		return id;
	slot = vec_push(v, sizeof(*slot));
	if (!slot) {
		u64map__del(map, (uintptr_t)p);
		return 0;
	}
	*slot = p;
	return id;
}

static uint64_t symbol(struct jfr_writer *w, const char *s, size_t n)
{
	return text_id(w, &w->sym_ids, &w->syms, s, n);
}

/* A java.lang.Class named s[0..n): its id (its name a symbol). */
static uint64_t class_id(struct jfr_writer *w, const char *s, size_t n)
{
	uint64_t sym = symbol(w, s, n), id, *c;
	bool added;

	if (!sym)
		return 0;
	id = key_id(&w->class_ids, sym, w->classes.n, &added);
	if (!id || !added)
		return id;
	c = vec_push(&w->classes, sizeof(*c));
	if (!c) {
		u64map__del(&w->class_ids, sym);
		return 0;
	}
	*c = sym;
	return id;
}

static uint64_t method_id(struct jfr_writer *w, const char *cls, size_t cn,
			  const char *name, size_t nn)
{
	uint64_t c = class_id(w, cls, cn), s = symbol(w, name, nn), id;
	struct jmethod *m;
	bool added;

	if (!c || !s)
		return 0;
	/* ids stay far below 2^32: a line is at most a few KiB */
	id = key_id(&w->method_ids, c << 32 | s, w->methods.n, &added);
	if (!id || !added)
		return id;
	m = vec_push(&w->methods, sizeof(*m));
	if (!m) {
		u64map__del(&w->method_ids, c << 32 | s);
		return 0;
	}
	m->cls = c;
	m->name = s;
	return id;
}

/* JFR's frame type of a frame of kind k. */
static enum jframe_type frame_type(uint32_t k)
{
	switch (k) {
	case FOLD_JIT:
		return JFT_JIT;
	case FOLD_C1:
		return JFT_C1;
	case FOLD_INTERP:
		return JFT_INTERPRETED;
	case FOLD_INLINED:
		return JFT_INLINED;
	case FOLD_KERNEL:
		return JFT_KERNEL;
	case FOLD_CPP:
		return JFT_CPP;
	default:
		return JFT_NATIVE;
	}
}

/*
 * One frame's method, line and type into the scratch arrays at k, from
 * its type: a Java frame "pkg/Cls.m" is method m of class pkg/Cls, any
 * other frame a method of class "" named as the frame is.
 */
static int frame(struct jfr_writer *w, const struct fold_frame *f, size_t k)
{
	const struct fold_type *t = f->t;
	bool java = fold_kind__java(t->kind);
	/* a role's frame among the frames is named whole */
	size_t len = t->kind >= FOLD_PROCESS ? f->len : t->name;

	w->frames[k] = java && t->method
			   ? method_id(w, f->text, t->method - 1,
				       f->text + t->method, len - t->method)
			   : method_id(w, "", 0, f->text, len);
	w->lines[k] = java && t->line ? (int32_t)t->line : -1;
	w->bcis[k] = java && t->bci1 ? (int32_t)(t->bci1 - 1) : -1;
	w->types[k] = frame_type(t->kind);
	return w->frames[k] ? 0 : -ENOMEM;
}

/*
 * The text of frames fr[0..n) joined by ';' in w->key, each frame typed
 * with a bytecode index followed by "@BCI" (two frames of one text at
 * two bcis make two stack traces), as a key to intern: its length, or
 * -ENOMEM.
 */
static int64_t join(struct jfr_writer *w, const struct fold_frame *fr,
		    uint32_t n)
{
	size_t len = 0;

	for (uint32_t i = 0; i < n; i++)
		len += fr[i].len + 12;
	if (array__grow((void **)&w->key, &w->capkey, len + 1, 1))
		return -ENOMEM;
	len = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			w->key[len++] = ';';
		memcpy(w->key + len, fr[i].text, fr[i].len);
		len += fr[i].len;
		if (fr[i].t && fr[i].t->bci1)
			len += (size_t)snprintf(w->key + len, 12, "@%u",
						fr[i].t->bci1 - 1);
	}
	return (int64_t)len;
}

/* Scratch for n frames. */
static int frames_room(struct jfr_writer *w, size_t n)
{
	uint64_t *f;
	int32_t *l, *b;
	uint8_t *t;

	if (n <= w->capframes)
		return 0;
	f = realloc(w->frames, n * sizeof(*f));
	if (f)
		w->frames = f;
	l = realloc(w->lines, n * sizeof(*l));
	if (l)
		w->lines = l;
	b = realloc(w->bcis, n * sizeof(*b));
	if (b)
		w->bcis = b;
	t = realloc(w->types, n);
	if (t)
		w->types = t;
	if (!f || !l || !b || !t)
		return -ENOMEM;
	w->capframes = n;
	return 0;
}

/* The stack trace of frames fr[0..n) (root first), encoded when new. */
static uint64_t stack_id(struct jfr_writer *w, const struct fold_frame *fr,
			 uint32_t n, bool *java)
{
	int64_t len = join(w, fr, n);
	const char *p = len < 0 ? NULL : strpool__intern(w->pool, w->key, len);
	uint64_t id;
	bool added;

	if (!p)
		return 0;
	id = key_id(&w->stack_ids, (uintptr_t)p, w->nstacks, &added);
	if (!id || !added)
		return id;
	w->nstacks++;
	if (frames_room(w, n))
		return 0;
	/* JFR lists frames leaf first */
	for (uint32_t k = 0; k < n; k++) {
		if (frame(w, &fr[n - 1 - k], k))
			return 0;
		*java |= w->types[k] <= JFT_INLINED || w->types[k] == JFT_C1;
	}
	jbuf__var(&w->stacks, id);
	jbuf__u8(&w->stacks, 0); /* truncated: false */
	jbuf__var(&w->stacks, n);
	for (uint32_t k = 0; k < n; k++) {
		jbuf__var(&w->stacks, w->frames[k]);
		jbuf__var(&w->stacks, (uint32_t)w->lines[k]);
		jbuf__var(&w->stacks, (uint32_t)w->bcis[k]);
		jbuf__var(&w->stacks, w->types[k] + 1);
	}
	return w->stacks.err ? 0 : id;
}

/*
 * The thread group of a line's process fr[0], or with its container
 * frame (cont, --per-container), a group of its own under the process's.
 */
static uint64_t group_id(struct jfr_writer *w, const struct fold_frame *fr,
			 bool cont)
{
	uint64_t parent = cont ? group_id(w, fr, false) : 0, id;
	int64_t len = join(w, fr, cont ? 2 : 1);
	const char *key =
	    len < 0 ? NULL : strpool__intern(w->pool, w->key, len);
	struct jgroup *g;
	bool added;

	if ((cont && !parent) || !key)
		return 0;
	id = key_id(&w->group_ids, (uintptr_t)key, w->groups.n, &added);
	if (!id || !added)
		return id;
	g = vec_push(&w->groups, sizeof(*g));
	if (!g)
		return 0;
	g->name = cont ? key + fr[0].len + 1 : key;
	g->len = cont ? fr[1].len : fr[0].len;
	g->parent = parent;
	return id;
}

/*
 * The thread of a line whose head is fr[0..head): the process, its
 * container frame (cont), its thread frame (thread; else the process's
 * own, tid 0).
 */
static uint64_t thread_id(struct jfr_writer *w, const struct fold_frame *fr,
			  uint32_t head, bool cont, bool thread)
{
	int64_t len = join(w, fr, head);
	const char *key =
	    len < 0 ? NULL : strpool__intern(w->pool, w->key, len);
	const struct fold_frame *t = &fr[head - 1];
	struct jthread *th;
	bool added;
	uint64_t id;

	if (!key)
		return 0;
	id = key_id(&w->thread_ids, (uintptr_t)key, w->threads.n, &added);
	if (!id || !added)
		return id;
	th = vec_push(&w->threads, sizeof(*th));
	if (!th)
		return 0;
	th->len = thread ? t->t->name : fr[0].len;
	th->name =
	    strpool__intern(w->pool, thread ? t->text : fr[0].text, th->len);
	th->tid = thread ? t->t->tid : 0;
	if (!th->name)
		return 0;
	th->group = group_id(w, fr, cont);
	return th->group ? id : 0;
}

int jfr_writer__add(struct jfr_writer *w, const char *line, size_t len,
		    uint64_t count)
{
	int n = fold_line__frames(&w->text, line, len, &w->fr, &w->capfr);

	return n < 0 ? n : jfr_writer__add_frames(w, w->fr, n, count);
}

int jfr_writer__add_frames(struct jfr_writer *w, const struct fold_frame *fr,
			   uint32_t n, uint64_t count)
{
	uint32_t head = 1, end = n;
	bool java = false, cont = false, thread = false;
	struct jrec *r;

	if (!n)
		return -EINVAL;
	if (head < n &&
	    fr[head].t->kind == FOLD_CONTAINER) { /* --per-container */
		cont = true;
		head++;
	}
	if (head < n && fr[head].t->kind == FOLD_THREAD) {
		thread = true;
		head++;
	}
	if (!(r = vec_push(&w->recs, sizeof(*r))))
		return -ENOMEM;
	r->count = count;
	r->thread = thread_id(w, fr, head, cont, thread);
	if (w->m.kind == JFR_ALLOC && head < end) { /* the leaf: the class */
		end--;
		r->cls = class_id(w, fr[end].text, fr[end].len);
		if (!r->cls)
			return -ENOMEM;
	}
	r->stack = stack_id(w, fr + head, end - head, &java);
	if (!r->thread || !r->stack)
		return -ENOMEM;
	((struct jthread *)w->threads.p)[r->thread - 1].java |= java;
	return 0;
}

/* The event type and its weight field a kind writes. */
static enum jtype event_type(enum jfr_kind k)
{
	switch (k) {
	case JFR_ALLOC:
		return JT_ALLOCATION_SAMPLE;
	case JFR_OFF_CPU:
		return JT_OFF_CPU;
	case JFR_WALL:
		return JT_WALL_CLOCK;
	case JFR_CALLS:
		return JT_METHOD_CALLS;
	default:
		return JT_EXECUTION_SAMPLE;
	}
}

/* The start of the k-th of a file's samples: spread over its span by
 * the golden ratio's sequence, so any stretch of it holds a fair share
 * of every stack (not one stack after another). */
static uint64_t spread(const struct jfr_meta *m, uint64_t k)
{
	uint64_t frac = k * 0x9e3779b97f4a7c15ULL;

	return m->time_ns +
	       (uint64_t)(((unsigned __int128)m->duration_ns * frac) >> 64);
}

/* One event of body e into b, with its size first. */
static void event(struct pbuf *b, struct pbuf *e)
{
	jbuf__var(b, jbuf__event_size(e->len));
	pbuf__raw(b, e->p, e->len);
	if (e->err && !b->err)
		b->err = e->err;
	e->len = 0;
}

/* Every record's events into b. */
static void events(struct jfr_writer *w, struct pbuf *b)
{
	const struct jrec *r = w->recs.p;
	enum jtype type = event_type(w->m.kind);
	struct pbuf e = {0};
	uint64_t k = 0;

	for (size_t i = 0; i < w->recs.n && !b->err; i++, r++) {
		uint64_t n = type == JT_EXECUTION_SAMPLE ? r->count : 1;

		for (uint64_t j = 0; j < n && !b->err; j++) {
			jbuf__var(&e, type);
			jbuf__var(&e, type == JT_EXECUTION_SAMPLE
					  ? spread(&w->m, k++)
					  : w->m.time_ns);
			if (type == JT_OFF_CPU || type == JT_WALL_CLOCK)
				jbuf__var(&e, r->count * 1000); /* us: ns */
			jbuf__var(&e, r->thread);
			jbuf__var(&e, r->stack);
			if (type == JT_EXECUTION_SAMPLE)
				jbuf__var(&e, 1); /* STATE_RUNNABLE */
			if (type == JT_ALLOCATION_SAMPLE) {
				jbuf__var(&e, r->cls);
				jbuf__var(&e, r->count);
			}
			if (type == JT_METHOD_CALLS)
				jbuf__var(&e, r->count);
			event(b, &e);
		}
	}
	pbuf__release(&e);
}

/* A pool's head; false (nothing written) for an empty pool, which the
 * JDK's reader refuses. */
static bool pool_head(struct pbuf *b, enum jtype type, size_t n)
{
	if (!n)
		return false;
	jbuf__var(b, type);
	jbuf__var(b, n);
	return true;
}

/* The pools of named things: thread groups, threads, methods, classes,
 * symbols (desc: the descriptor's). */
static void named_pools(struct jfr_writer *w, struct pbuf *b, uint64_t desc)
{
	const char *const *s = w->syms.p;
	const struct jgroup *g = w->groups.p;
	const struct jthread *t = w->threads.p;
	const struct jmethod *m = w->methods.p;
	const uint64_t *c = w->classes.p;
	size_t i;

	pool_head(b, JT_THREAD_GROUP, w->groups.n);
	for (i = 0; i < w->groups.n; i++, g++) {
		jbuf__var(b, i + 1);
		jbuf__var(b, g->parent);
		jbuf__str(b, g->name, g->len);
	}
	pool_head(b, JT_THREAD, w->threads.n);
	for (i = 0; i < w->threads.n; i++, t++) {
		jbuf__var(b, i + 1);
		jbuf__str(b, t->name, t->len);
		jbuf__var(b, t->tid);
		jbuf__str(b, t->java ? t->name : NULL, t->len);
		jbuf__var(b, t->java ? t->tid : 0);
		jbuf__var(b, t->group);
	}
	pool_head(b, JT_METHOD, w->methods.n);
	for (i = 0; i < w->methods.n; i++, m++) {
		jbuf__var(b, i + 1);
		jbuf__var(b, m->cls);
		jbuf__var(b, m->name);
		jbuf__var(b, desc);
		jbuf__var(b, 0); /* modifiers */
		jbuf__u8(b, 0); /* hidden */
	}
	pool_head(b, JT_CLASS, w->classes.n);
	for (i = 0; i < w->classes.n; i++) {
		jbuf__var(b, i + 1);
		jbuf__var(b, 0); /* class loader */
		jbuf__var(b, c[i]);
		jbuf__var(b, 0); /* package */
		jbuf__var(b, 0); /* modifiers */
	}
	pool_head(b, JT_SYMBOL, w->syms.n);
	for (i = 0; i < w->syms.n; i++) {
		jbuf__var(b, i + 1);
		jbuf__str(b, s[i], strlen(s[i]));
	}
}

/* The checkpoint event: every constant pool. */
static int checkpoint(struct jfr_writer *w, struct pbuf *b)
{
	size_t n[] = {w->nstacks,   w->groups.n,  w->threads.n,
		      w->methods.n, w->classes.n, w->syms.n};
	/* a symbol for the descriptor only when there are methods */
	uint64_t desc = w->methods.n ? symbol(w, "()L;", 4) : 0;
	size_t pools = 2;
	struct pbuf e = {0};

	if (w->methods.n && !desc)
		return -ENOMEM;
	n[5] = w->syms.n;
	for (size_t i = 0; i < 6; i++)
		pools += n[i] > 0;
	jbuf__var(&e, JT_CPOOL);
	jbuf__var(&e, w->m.time_ns);
	jbuf__var(&e, 0); /* duration */
	jbuf__var(&e, 0); /* delta to the previous checkpoint: none */
	jbuf__u8(&e, 1); /* a flush checkpoint */
	jbuf__var(&e, pools);
	pool_head(&e, JT_FRAME_TYPE, JFT_NR);
	for (int i = 0; i < JFT_NR; i++) {
		jbuf__var(&e, i + 1);
		jbuf__str(&e, jmeta_frame_types[i],
			  strlen(jmeta_frame_types[i]));
	}
	pool_head(&e, JT_THREAD_STATE, 1);
	jbuf__var(&e, 1);
	jbuf__str(&e, "STATE_RUNNABLE", 14);
	if (pool_head(&e, JT_STACK_TRACE, w->nstacks))
		pbuf__raw(&e, w->stacks.p, w->stacks.len);
	named_pools(w, &e, desc);
	event(b, &e);
	pbuf__release(&e);
	return w->stacks.err;
}

int jfr_writer__write(struct jfr_writer *w, FILE *out)
{
	struct pbuf b = {0};
	size_t cpool;
	int ret;

	pbuf__raw(&b, "FLR", 4); /* the NUL too */
	jbuf__be(&b, 2, 2); /* major */
	jbuf__be(&b, 0, 2); /* minor */
	jbuf__be(&b, 0, 8); /* chunk size, offsets: patched below */
	jbuf__be(&b, 0, 8);
	jbuf__be(&b, HEADER_SIZE, 8); /* metadata: first */
	jbuf__be(&b, w->m.time_ns, 8);
	jbuf__be(&b, w->m.duration_ns, 8);
	jbuf__be(&b, w->m.time_ns, 8); /* start ticks */
	jbuf__be(&b, 1000000000, 8); /* ticks per second */
	jbuf__be(&b, COMPRESSED_INTS, 4);
	jmeta__write(&b, w->m.time_ns);
	events(w, &b);
	cpool = b.len;
	ret = checkpoint(w, &b);
	jbuf__put_be64(&b, 8, b.len);
	jbuf__put_be64(&b, 16, cpool);
	ret = ret ? ret : b.err;
	if (!ret && fwrite(b.p, 1, b.len, out) != b.len)
		ret = errno ? -errno : -EIO;
	if (!ret && fflush(out))
		ret = -errno;
	pbuf__release(&b);
	return ret;
}

bool jfr__is_jfr(const void *buf, size_t len)
{
	return len >= 4 && !memcmp(buf, "FLR", 4);
}
