/*
 * pprof_read: a profile.proto (gzipped or plain) back into folded lines
 * (see pprof.h). Field numbers as in pprof_write.c; a Location's Lines
 * are innermost first (the last one is the function the others were
 * inlined into), a Sample's location_ids leaf first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "pbuf.h"
#include "pprof.h"
#include "common/cgroup.h"
#include "common/u64map.h"

struct span {
	const uint8_t *p;
	size_t n;
};

struct vec { /* a growable array of elem-byte items */
	void *v;
	size_t n, cap;
};

struct func {
	uint64_t name, sys; /* string indices */
};

struct loc {
	size_t first, nr; /* into rd.loc_funcs: function ids, innermost first */
};

struct rd {
	struct vec strs, samples, funcs_raw, locs_raw, types; /* spans */
	uint64_t default_type;
	struct vec funcs, locs, loc_funcs; /* struct func, struct loc, u64 */
	struct u64map func_by_id, loc_by_id; /* id -> index + 1 */
	struct vec ids, vals; /* one sample's, u64 */
	char *line;
	size_t len, cap;
	const char *why;
};

static int push(struct vec *v, const void *item, size_t size)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		void *p = realloc(v->v, cap * size);

		if (!p)
			return -ENOMEM;
		v->v = p;
		v->cap = cap;
	}
	memcpy((char *)v->v + v->n++ * size, item, size);
	return 0;
}

#define AT(vec, type, i) (((type *)(vec).v)[i])

static int bad(struct rd *r, const char *why)
{
	r->why = why;
	return -EINVAL;
}

/* gzip to plain, at most PPROF_MAX_BYTES. *out malloc'ed. */
static int gunzip(const uint8_t *in, size_t n, uint8_t **out, size_t *len,
		  const char **why)
{
	z_stream z = {0};
	size_t cap = n * 4 + 4096;
	uint8_t *buf = NULL, *p;
	int zr, ret = 0;

	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)in;
	z.avail_in = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	*len = 0;
	do {
		if (*len == cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > PPROF_MAX_BYTES)
				cap = PPROF_MAX_BYTES;
			if (buf && *len == cap) {
				ret = -EFBIG;
				*why = "larger than 1 GiB uncompressed";
				break;
			}
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		z.next_out = buf + *len;
		z.avail_out = (uInt)(cap - *len);
		zr = inflate(&z, Z_NO_FLUSH);
		*len = cap - z.avail_out;
		if (zr != Z_OK && zr != Z_STREAM_END) {
			ret = -EINVAL;
			*why = "corrupt gzip data";
			break;
		}
		if (zr == Z_OK && !z.avail_in && z.avail_out) {
			ret = -EINVAL;
			*why = "truncated gzip data";
			break;
		}
	} while (zr != Z_STREAM_END);
	inflateEnd(&z);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
}

/* The top-level fields, sorted into spans by kind. */
static int scan_profile(struct rd *r, const uint8_t *p, size_t n)
{
	struct pb_reader pr = {p, p + n};
	struct pb_field f;
	struct vec *to;
	int ret;

	while ((ret = pbuf__next(&pr, &f)) == 1) {
		to = NULL;
		switch (f.num) {
		case 1:
			to = &r->types;
			break;
		case 2:
			to = &r->samples;
			break;
		case 4:
			to = &r->locs_raw;
			break;
		case 5:
			to = &r->funcs_raw;
			break;
		case 6:
			to = &r->strs;
			break;
		case 14:
			r->default_type = f.v;
			continue;
		default:
			continue;
		}
		if (f.wire != PB_LEN)
			return bad(r, "a message field of the wrong type");
		struct span s = {f.data, f.len};

		if (push(to, &s, sizeof(s)))
			return -ENOMEM;
	}
	return ret ? bad(r, "not a profile.proto") : 0;
}

/* Field num's varint in the message s (0 when absent). */
static int msg_varint(const struct span *s, uint32_t num, uint64_t *v)
{
	struct pb_reader pr = {s->p, s->p + s->n};
	struct pb_field f;
	int ret;

	*v = 0;
	while ((ret = pbuf__next(&pr, &f)) == 1)
		if (f.num == num && f.wire == PB_VARINT)
			*v = f.v;
	return ret;
}

static int index_id(struct u64map *m, uint64_t id, size_t idx)
{
	bool added;
	void **slot;

	if (!id)
		return -EINVAL;
	slot = u64map__add(m, id, &added);
	if (!slot)
		return -ENOMEM;
	*slot = (void *)(uintptr_t)(idx + 1);
	return 0;
}

static int read_funcs(struct rd *r)
{
	for (size_t i = 0; i < r->funcs_raw.n; i++) {
		struct span *s = &AT(r->funcs_raw, struct span, i);
		struct func fn;
		uint64_t id;

		if (msg_varint(s, 1, &id) || msg_varint(s, 2, &fn.name) ||
		    msg_varint(s, 3, &fn.sys))
			return bad(r, "a bad Function");
		if (fn.name >= r->strs.n || fn.sys >= r->strs.n)
			return bad(r,
				   "a Function name out of the string table");
		if (push(&r->funcs, &fn, sizeof(fn)))
			return -ENOMEM;
		if (index_id(&r->func_by_id, id, r->funcs.n - 1))
			return bad(r, "a Function with id 0");
	}
	return 0;
}

/* The function ids of one Location's Lines, appended to loc_funcs. */
static int read_lines(struct rd *r, const struct span *s, struct loc *l)
{
	struct pb_reader pr = {s->p, s->p + s->n};
	struct pb_field f;
	int ret;

	l->first = r->loc_funcs.n;
	l->nr = 0;
	while ((ret = pbuf__next(&pr, &f)) == 1) {
		struct span line = {f.data, f.len};
		uint64_t fid;

		if (f.num != 4 || f.wire != PB_LEN)
			continue;
		if (msg_varint(&line, 1, &fid))
			return bad(r, "a bad Line");
		if (push(&r->loc_funcs, &fid, sizeof(fid)))
			return -ENOMEM;
		l->nr++;
	}
	return ret ? bad(r, "a bad Location") : 0;
}

static int read_locs(struct rd *r)
{
	for (size_t i = 0; i < r->locs_raw.n; i++) {
		struct span *s = &AT(r->locs_raw, struct span, i);
		struct loc l;
		uint64_t id;
		int ret;

		if (msg_varint(s, 1, &id))
			return bad(r, "a bad Location");
		ret = read_lines(r, s, &l);
		if (ret)
			return ret;
		if (push(&r->locs, &l, sizeof(l)))
			return -ENOMEM;
		if (index_id(&r->loc_by_id, id, r->locs.n - 1))
			return bad(r, "a Location with id 0");
	}
	return 0;
}

/* Which value of a sample is its count (pprof.h). */
static int pick_type(struct rd *r, size_t *which)
{
	size_t n = r->types.n, i;
	uint64_t t, u;

	if (!n)
		return bad(r, "no sample type");
	*which = n - 1;
	for (i = n; i-- > 0;) {
		struct span *s = &AT(r->types, struct span, i);

		if (msg_varint(s, 1, &t) || msg_varint(s, 2, &u))
			return bad(r, "a bad sample type");
		if (r->default_type && t == r->default_type) {
			*which = i;
			return 0;
		}
		if (u < r->strs.n) {
			struct span *us = &AT(r->strs, struct span, u);

			if (us->n == 5 && !memcmp(us->p, "count", 5))
				*which = i;
		}
	}
	return 0;
}

static int put(struct rd *r, const void *s, size_t n)
{
	if (r->len + n + 2 > r->cap) {
		size_t cap = r->cap ? r->cap : 4096;
		char *p;

		while (cap < r->len + n + 2)
			cap *= 2;
		p = realloc(r->line, cap);
		if (!p)
			return -ENOMEM;
		r->line = p;
		r->cap = cap;
	}
	memcpy(r->line + r->len, s, n);
	r->len += n;
	r->line[r->len] = 0;
	return 0;
}

/*
 * One frame name (string index) between pre and post, ';' and newlines
 * made harmless.
 */
static int put_wrapped(struct rd *r, uint64_t idx, const char *none,
		       const char *pre, const char *post)
{
	struct span *s = &AT(r->strs, struct span, idx);
	size_t from = r->len;
	int ret;

	if (r->len && (ret = put(r, ";", 1)))
		return ret;
	from = r->len;
	ret = put(r, pre, strlen(pre));
	ret = ret ?: s->n ? put(r, s->p, s->n) : put(r, none, strlen(none));
	ret = ret ?: put(r, post, strlen(post));
	for (size_t i = from; !ret && i < r->len; i++) {
		if (r->line[i] == ';')
			r->line[i] = ':';
		else if (r->line[i] == '\n' || r->line[i] == '\r' ||
			 !r->line[i])
			r->line[i] = ' ';
	}
	return ret;
}

/* One frame name (string index); none when it is empty. */
static int put_name(struct rd *r, uint64_t idx, const char *none)
{
	return put_wrapped(r, idx, none, "", "");
}

static int collect(uint64_t v, void *ctx)
{
	return push(ctx, &v, sizeof(v));
}

struct labels {
	uint64_t process, thread, container; /* string indices, 0: none */
	uint64_t tid;
	int has_tid;
};

/* A Label we know (process, thread, tid) into *lb. */
static int read_label(struct rd *r, const struct pb_field *f, struct labels *lb)
{
	struct span s = {f->data, f->len}, *k;
	uint64_t key, str, num;

	if (msg_varint(&s, 1, &key) || msg_varint(&s, 2, &str) ||
	    msg_varint(&s, 3, &num) || key >= r->strs.n || str >= r->strs.n)
		return bad(r, "a bad Label");
	k = &AT(r->strs, struct span, key);
	if (k->n == 7 && !memcmp(k->p, "process", 7))
		lb->process = str;
	else if (k->n == 6 && !memcmp(k->p, "thread", 6))
		lb->thread = str;
	else if (k->n == 12 && !memcmp(k->p, "container.id", 12))
		lb->container = str;
	else if (k->n == 3 && !memcmp(k->p, "tid", 3)) {
		lb->tid = num;
		lb->has_tid = 1;
	}
	return 0;
}

/* The frames of location ids, root first. */
static int put_frames(struct rd *r)
{
	for (size_t i = r->ids.n; i-- > 0;) {
		void **slot =
		    u64map__find(&r->loc_by_id, AT(r->ids, uint64_t, i));
		struct loc *l;

		if (!slot)
			return bad(r, "a Sample names an unknown Location");
		l = &AT(r->locs, struct loc, (uintptr_t)*slot - 1);
		for (size_t j = l->nr; j-- > 0;) {
			uint64_t fid = AT(r->loc_funcs, uint64_t, l->first + j);
			void **fs = u64map__find(&r->func_by_id, fid);
			struct func *fn;
			int ret;

			if (!fs)
				return bad(r,
					   "a Line names an unknown Function");
			fn = &AT(r->funcs, struct func, (uintptr_t)*fs - 1);
			ret = put_name(r, fn->sys ? fn->sys : fn->name,
				       "[unknown]");
			if (ret)
				return ret;
		}
		if (!l->nr && (put(r, r->len ? ";" : "", r->len ? 1 : 0) ||
			       put(r, "[unknown]", 9)))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The head of a line: process, "[container ID]", then "thread [tid]",
 * from the labels.
 */
static int put_head(struct rd *r, const struct labels *lb)
{
	char tid[32];
	int ret = 0;

	if (lb->process)
		ret = put_name(r, lb->process, "");
	if (!ret && lb->container)
		ret =
		    put_wrapped(r, lb->container, "", CGROUP_FRAME_PREFIX, "]");
	if (!ret && lb->thread) {
		ret = put_name(r, lb->thread, "");
		if (!ret && lb->has_tid) {
			snprintf(tid, sizeof(tid), " [%llu]",
				 (unsigned long long)lb->tid);
			ret = put(r, tid, strlen(tid));
		}
	}
	return ret;
}

static int read_sample(struct rd *r, const struct span *s, size_t which,
		       uint64_t *count)
{
	struct pb_reader pr = {s->p, s->p + s->n};
	struct labels lb = {0};
	struct pb_field f;
	int ret;

	r->ids.n = r->vals.n = r->len = 0;
	while ((ret = pbuf__next(&pr, &f)) == 1) {
		if (f.num == 1)
			ret = pbuf__each_varint(&f, collect, &r->ids);
		else if (f.num == 2)
			ret = pbuf__each_varint(&f, collect, &r->vals);
		else if (f.num == 3 && f.wire == PB_LEN)
			ret = read_label(r, &f, &lb);
		else
			ret = 0;
		if (ret)
			return ret == -EINVAL && !r->why
				   ? bad(r, "a bad Sample")
				   : ret;
	}
	if (ret)
		return bad(r, "a bad Sample");
	if (which >= r->vals.n)
		return bad(r, "a Sample with fewer values than sample types");
	*count = AT(r->vals, uint64_t, which);
	if ((int64_t)*count < 0) /* int64 in the format */
		*count = 0;
	ret = put_head(r, &lb);
	return ret ? ret : put_frames(r);
}

static void rd_release(struct rd *r)
{
	struct vec *v[] = {&r->strs,  &r->samples, &r->funcs_raw, &r->locs_raw,
			   &r->types, &r->funcs,   &r->locs,	  &r->loc_funcs,
			   &r->ids,   &r->vals};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		free(v[i]->v);
	u64map__release(&r->func_by_id);
	u64map__release(&r->loc_by_id);
	free(r->line);
}

static int read_plain(struct rd *r, const uint8_t *p, size_t n,
		      int (*fn)(const char *, size_t, uint64_t, void *),
		      void *ctx)
{
	size_t which;
	uint64_t count;
	int ret;

	ret = scan_profile(r, p, n);
	ret = ret ?: read_funcs(r);
	ret = ret ?: read_locs(r);
	ret = ret ?: pick_type(r, &which);
	if (!ret && !r->strs.n)
		ret = bad(r, "no string table");
	for (size_t i = 0; !ret && i < r->samples.n; i++) {
		ret = read_sample(r, &AT(r->samples, struct span, i), which,
				  &count);
		if (!ret && count && r->len)
			ret = fn(r->line, r->len, count, ctx);
	}
	return ret;
}

int pprof__read(const void *buf, size_t len,
		int (*fn)(const char *line, size_t len, uint64_t count,
			  void *ctx),
		void *ctx, const char **why)
{
	struct rd r = {0};
	uint8_t *plain = NULL;
	size_t n = len;
	int ret = 0;

	*why = NULL;
	if (pprof__is_gzip(buf, len))
		ret = gunzip(buf, len, &plain, &n, why);
	if (!ret)
		ret = read_plain(&r, plain ? plain : buf, n, fn, ctx);
	if (r.why)
		*why = r.why;
	rd_release(&r);
	free(plain);
	return ret;
}
