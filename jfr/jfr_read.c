/*
 * jfr_read: any JFR recording's samples as folded lines (see jfr.h).
 *
 * Each chunk (jchunk.h) in turn: a first pass counts the events of the
 * types read (picks[]) and picks one, a second turns each event of it
 * into a line: its thread and its stack, each decoded once and then
 * remembered by its constant id.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/safename.h"
#include "common/strpool.h"
#include "common/u64map.h"
#include "jchunk.h"
#include "jfr.h"

#define MAX_FRAMES 8192 /* a stack deeper than any JVM's 2048 default */

/* The event types read, in the order one is picked (jfr.h). */
static const char *const picks[] = {
    "jdk.ExecutionSample", "jdk.ObjectAllocationSample", "mixprof.OffCPU",
    "mixprof.WallClock", "mixprof.MethodCalls"};
#define NPICKS (sizeof(picks) / sizeof(picks[0]))

struct reader {
	struct jchunk c;
	struct u64map threads, stacks; /* constant id + 1 -> text */
	char *line;
	size_t len, cap;
};

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
	    strpool__add(rd->c.names, rd->line + from, rd->len - from);

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
				 *const group[] = {"group", "name", NULL},
				 *const parent[] = {"group", "parent", "name",
						    NULL};
	void **slot = id + 1 ? u64map__find(&rd->threads, id + 1) : NULL;
	struct jreader r;
	const char *s;
	size_t n, from = rd->len;
	char tid[32];

	if (slot)
		return *slot;
	if (!jchunk__constant(&rd->c, type, id, &r))
		return "java;[unknown thread]";
	/* ours: the process, and with --per-container its container */
	n = rd->c.ours ? jchunk__text(&rd->c, r, type, parent, &s) : 0;
	if (n && (put_safe(rd, s, n) || put(rd, ";")))
		return NULL;
	n = rd->c.ours ? jchunk__text(&rd->c, r, type, group, &s) : 0;
	if (n ? put_safe(rd, s, n) : put(rd, "java"))
		return NULL;
	n = jchunk__text(&rd->c, r, type, java, &s);
	if (!n)
		n = jchunk__text(&rd->c, r, type, os, &s);
	snprintf(tid, sizeof(tid), " [%" PRIu64 "]",
		 jchunk__number(&rd->c, r, type, "osThreadId"));
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
	size_t n = jchunk__text(&rd->c, r, type, desc, &s), start = rd->len;
	int64_t line = (int32_t)jchunk__number(&rd->c, r, type, "lineNumber");
	char num[16] = "";

	suffix = suffix_of(s, n);
	n = jchunk__text(&rd->c, r, type, cls, &s);
	if (n && (put_safe(rd, s, n) || put(rd, ".")))
		return -ENOMEM;
	/* a native frame of a Java method (the JDK's "Native"): as our
	 * JNI wrappers, compiled Java */
	if (!suffix || (!*suffix && rd->len > start))
		suffix = "_[j]";
	n = jchunk__text(&rd->c, r, type, meth, &s);
	if (n ? put_safe(rd, s, n) : put(rd, "[unknown]"))
		return -ENOMEM;
	/* lines only as we write them (--lines): a JDK recording's would
	 * split every method into one frame per line */
	if (rd->c.ours && line > 0 && *suffix && strcmp(suffix, "_[k]"))
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
	if (!jchunk__constant(&rd->c, type, id, &r) ||
	    !jchunk__field(&rd->c, &r, type, "frames", &f))
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

			if (!jchunk__constant(&rd->c, f->type, fid, &at[i]))
				r.err = -EINVAL;
		} else if (jchunk__skip_value(&rd->c, &r, f->type, 1)) {
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
		ret = jchunk__skip_field(&rd->c, r, f, 0);
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
		return rd->c.tps ? (unsigned __int128)v * 1000000 / rd->c.tps
				 : 0;
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
		size_t n =
		    jchunk__constant(&rd->c, e.cf->type, ref(&e.cls, e.cf), &c)
			? jchunk__text(&rd->c, c, e.cf->type, name, &s)
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
	uint64_t off = JCHUNK_HEADER_SIZE, type;
	int ret = 0;

	for (size_t i = 0; pk && i < rd->c.ntypes; i++)
		if (!strcmp(rd->c.types[i].name, pk->name))
			want = &rd->c.types[i];
	if (pk && !want)
		return 0;
	while (off < rd->c.size && !ret) {
		struct jreader r = {.p = rd->c.base + off,
				    .end = rd->c.base + rd->c.size};

		type = jchunk__event_head(&r, rd->c.base + off);
		if (r.err)
			return jchunk__fail(&rd->c, "an event past its chunk");
		off = r.end - rd->c.base;
		if (want && type == want->id) {
			ret = one_event(rd, &r, want, pk);
		} else if (!pk) {
			const struct rtype *t = jchunk__type(&rd->c, type);

			for (size_t i = 0; t && i < NPICKS; i++)
				counts[i] += !strcmp(t->name, picks[i]);
		}
	}
	return ret;
}

/* One chunk at buf[0..len): its size, after reading it for pk/counts. */
/* One chunk at buf[0..len) (its size in *size) read for pk or counts. */
static int chunk(struct reader *rd, const uint8_t *buf, uint64_t len,
		 const struct pick *pk, uint64_t *counts, uint64_t *size)
{
	int ret = jchunk__open(&rd->c, buf, len, pk != NULL, size);

	u64map__release(&rd->threads);
	u64map__release(&rd->stacks);
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
	struct reader rd = {.c.why = why};
	struct pick pk = {NULL, fn, ctx};
	uint64_t counts[NPICKS] = {0};
	int ret;

	*why = NULL;
	if (len > JFR_MAX_BYTES)
		return -EFBIG;
	rd.c.names = strpool__new();
	if (!rd.c.names)
		return -ENOMEM;
	ret = chunks(&rd, buf, len, NULL, counts);
	for (size_t i = 0; !ret && !pk.name && i < NPICKS; i++)
		if (counts[i])
			pk.name = picks[i];
	if (!ret && pk.name)
		ret = chunks(&rd, buf, len, &pk, NULL);
	jchunk__release(&rd.c);
	u64map__release(&rd.threads);
	u64map__release(&rd.stacks);
	strpool__free(rd.c.names);
	free(rd.line);
	return ret;
}
