// SPDX-License-Identifier: GPL-2.0
/*
 * struct fold: folded lines and their counts, each line kept as the ids of
 * its frames. A busy host's minute held ~170,000 distinct lines of up to
 * kilobytes each (34 MB as strings), while their frames repeat: the same
 * thread roots, the same JVM and kernel paths. Frames are interned once
 * (a strpool and a hash set), a line is 4 bytes a frame in one growing
 * array, and lines are rebuilt as text only to be handed out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/strpool.h"
#include "fold.h"
#include "common/array.h"

struct slot {
	uint64_t hash, count;
	size_t off; /* first id in fold.ids */
	uint32_t n; /* frames; 0: empty slot (a line has at least one) */
};

struct frame_text {
	const char *text;
	uint64_t hash;
	uint32_t len;
	struct fold_type t; /* as it first came */
};

struct frames {
	struct strpool *pool;
	struct frame_text *v; /* by id */
	size_t n, cap;
	uint32_t *set; /* id + 1; 0: empty. set_cap is a power of two */
	size_t set_cap;
};

struct fold {
	struct slot *slots;
	size_t n, cap; /* cap is a power of two */
	uint64_t total;
	struct frames fr;
	uint32_t *ids;
	size_t ids_n, ids_cap;
	uint32_t *tmp; /* the line being added or looked up */
	size_t tmp_cap;
	char *buf; /* a line rebuilt as text */
	size_t buf_cap;
	struct fold_line parse; /* a line read as text, typed (fold__add) */
};

struct fold *fold__new(void)
{
	struct fold *f = calloc(1, sizeof(*f));

	if (f && !(f->fr.pool = strpool__new())) {
		free(f);
		return NULL;
	}
	if (f)
		fold_line__init(&f->parse, false);
	return f;
}

void fold__free(struct fold *f)
{
	if (!f)
		return;
	strpool__free(f->fr.pool);
	free(f->fr.v);
	free(f->fr.set);
	free(f->slots);
	free(f->ids);
	free(f->tmp);
	free(f->buf);
	fold_line__release(&f->parse);
	free(f);
}

/*
 * FNV-1a over 8-byte words with a shift to fold the high bits down, in
 * four lanes: frames run to hundreds of bytes (C++ templates, Java
 * signatures), and one multiply per byte was a visible share of a
 * profile's CPU.
 */
static uint64_t hash_bytes(const char *s, size_t n)
{
	const uint64_t k = 1099511628211ULL;
	uint64_t h[4] = {1469598103934665603ULL ^ n, 0x9e3779b97f4a7c15ULL,
			 0xc2b2ae3d27d4eb4fULL, 0x165667b19e3779f9ULL},
		 w[4];
	size_t i;

	for (i = 0; i + 32 <= n; i += 32) {
		memcpy(w, s + i, 32);
		for (int j = 0; j < 4; j++) {
			h[j] = (h[j] ^ w[j]) * k;
			h[j] ^= h[j] >> 29;
		}
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(w, s + i, 8);
		h[0] = (h[0] ^ w[0]) * k;
		h[0] ^= h[0] >> 29;
	}
	w[0] = 0;
	memcpy(w, s + i, n - i);
	h[0] = (h[0] ^ w[0] ^ (h[1] << 1) ^ (h[2] << 2) ^ (h[3] << 3)) * k;
	return h[0] ^ (h[0] >> 32);
}

static uint64_t hash_ids(const uint32_t *v, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	for (uint32_t i = 0; i < n; i++) {
		h = (h ^ v[i]) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h;
}

static int set_grow(struct frames *fr)
{
	size_t cap = fr->set_cap ? fr->set_cap * 2 : 1024;
	uint32_t *ns = calloc(cap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t id = 0; id < fr->n; id++) {
		size_t j = fr->v[id].hash & (cap - 1);

		while (ns[j])
			j = (j + 1) & (cap - 1);
		ns[j] = id + 1;
	}
	free(fr->set);
	fr->set = ns;
	fr->set_cap = cap;
	return 0;
}

/*
 * The id of frame s[0..n) of bytecode index bci1 (fold.h; 0: none, as a
 * frame looked up by its text has): found, or added (typed t) when t is
 * given. -ENOENT when absent and not added, -ENOMEM. A Java frame's bci
 * is part of its identity (JFR writes it), not of its text: its variants
 * hash apart, so they do not crowd one probe run.
 */
static int64_t frame_id(struct frames *fr, const char *s, size_t n,
			uint32_t bci1, const struct fold_type *t)
{
	uint64_t h = hash_bytes(s, n) ^ (bci1 * 0x9e3779b97f4a7c15ULL);
	size_t j;
	char *copy;

	if (fr->set_cap)
		for (j = h & (fr->set_cap - 1); fr->set[j];
		     j = (j + 1) & (fr->set_cap - 1)) {
			uint32_t id = fr->set[j] - 1;

			if (fr->v[id].hash == h && fr->v[id].len == n &&
			    fr->v[id].t.bci1 == bci1 &&
			    !memcmp(fr->v[id].text, s, n))
				return id;
		}
	if (!t)
		return -ENOENT;
	if (n > UINT32_MAX || fr->n >= UINT32_MAX - 1)
		return -ENOMEM;
	if ((fr->n + 1) * 4 > fr->set_cap * 3 && set_grow(fr))
		return -ENOMEM;
	if (array__grow((void **)&fr->v, &fr->cap, fr->n + 1, sizeof(*fr->v)))
		return -ENOMEM;
	copy = strpool__add(fr->pool, s, n);
	if (!copy)
		return -ENOMEM;
	fr->v[fr->n] = (struct frame_text){copy, h, n, *t};
	for (j = h & (fr->set_cap - 1); fr->set[j];
	     j = (j + 1) & (fr->set_cap - 1))
		;
	fr->set[j] = fr->n + 1;
	return fr->n++;
}

/* Room for n ids in f->tmp. */
static int tmp_room(struct fold *f, size_t n)
{
	return array__grow((void **)&f->tmp, &f->tmp_cap, n, sizeof(*f->tmp));
}

/*
 * line's frames (split at ';': a line looked up as text, fold__count) as
 * ids in f->tmp; returns their number, 0 when a frame is unknown, or
 * -ENOMEM.
 */
static int64_t split(struct fold *f, const char *line)
{
	uint32_t n = 0;

	for (const char *p = line;; n++) {
		const char *e = strchrnul(p, ';');
		int64_t id;

		if (n == UINT32_MAX)
			return -ENOMEM;
		if (tmp_room(f, n + 1))
			return -ENOMEM;
		id = frame_id(&f->fr, p, e - p, 0, NULL);
		if (id == -ENOENT)
			return 0;
		if (id < 0)
			return id;
		f->tmp[n] = id;
		if (!*e)
			return n + 1;
		p = e + 1;
	}
}

static bool same(const struct fold *f, const struct slot *s, uint64_t h,
		 uint32_t n)
{
	return s->hash == h && s->n == n &&
	       !memcmp(f->ids + s->off, f->tmp, n * sizeof(*f->tmp));
}

static int grow_slots(struct fold *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024;
	struct slot *ns = calloc(cap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < f->cap; i++) {
		size_t j;

		if (!f->slots[i].n)
			continue;
		j = f->slots[i].hash & (cap - 1);
		while (ns[j].n)
			j = (j + 1) & (cap - 1);
		ns[j] = f->slots[i];
	}
	free(f->slots);
	f->slots = ns;
	f->cap = cap;
	return 0;
}

/* Add count to the line whose n frames' ids are in f->tmp. */
static int add_ids(struct fold *f, uint32_t n, uint64_t count)
{
	uint64_t h;
	size_t i;

	if ((f->n + 1) * 4 > f->cap * 3 && grow_slots(f))
		return -ENOMEM;
	h = hash_ids(f->tmp, n);
	for (i = h & (f->cap - 1); f->slots[i].n; i = (i + 1) & (f->cap - 1)) {
		if (same(f, &f->slots[i], h, n)) {
			f->slots[i].count += count;
			f->total += count;
			return 0;
		}
	}
	if (array__grow((void **)&f->ids, &f->ids_cap, f->ids_n + n,
			sizeof(*f->ids)))
		return -ENOMEM;
	memcpy(f->ids + f->ids_n, f->tmp, n * sizeof(*f->tmp));
	f->slots[i] = (struct slot){h, count, f->ids_n, n};
	f->ids_n += n;
	f->n++;
	f->total += count;
	return 0;
}

int fold__add(struct fold *f, const char *line, uint64_t count)
{
	struct fold_line *l = &f->parse;
	int ret = fold_line__parse(l, line, strlen(line));

	return ret
		   ?: fold__add_frames(f, l->buf, l->ends, l->types, l->n,
				       count);
}

int fold__add_frames(struct fold *f, const char *text, const uint32_t *ends,
		     const struct fold_type *types, uint32_t n, uint64_t count)
{
	uint32_t start = 0;
	int64_t id;

	if (!n || tmp_room(f, n))
		return n ? -ENOMEM : -EINVAL;
	for (uint32_t i = 0; i < n; start = ends[i++] + 1) {
		id = frame_id(&f->fr, text + start, ends[i] - start,
			      types[i].bci1, &types[i]);
		if (id < 0)
			return id;
		f->tmp[i] = id;
	}
	return add_ids(f, n, count);
}

/* Slot s's line as text, in f->buf (valid until the next call); NULL: ENOMEM */
static const char *text_of(struct fold *f, const struct slot *s)
{
	size_t len = 0;

	for (uint32_t i = 0; i < s->n; i++)
		len += f->fr.v[f->ids[s->off + i]].len + 1;
	if (array__grow((void **)&f->buf, &f->buf_cap, len + 1, 1))
		return NULL;
	len = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct frame_text *t = &f->fr.v[f->ids[s->off + i]];

		if (i)
			f->buf[len++] = ';';
		memcpy(f->buf + len, t->text, t->len);
		len += t->len;
	}
	f->buf[len] = '\0';
	return f->buf;
}

int fold__merge(struct fold *dst, const struct fold *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		const struct slot *s = &src->slots[i];
		int64_t id;
		int err;

		if (!s->n)
			continue;
		if (tmp_room(dst, s->n))
			return -ENOMEM;
		for (uint32_t j = 0; j < s->n; j++) { /* src's ids, dst's */
			const struct frame_text *t =
			    &src->fr.v[src->ids[s->off + j]];

			id = frame_id(&dst->fr, t->text, t->len, t->t.bci1,
				      &t->t);
			if (id < 0)
				return id;
			dst->tmp[j] = id;
		}
		err = add_ids(dst, s->n, s->count);
		if (err)
			return err;
	}
	return 0;
}

/* The count of the line of n ids in f->tmp. */
static uint64_t count_tmp(const struct fold *f, uint32_t n)
{
	uint64_t h = hash_ids(f->tmp, n);

	for (size_t i = h & (f->cap - 1); f->slots[i].n;
	     i = (i + 1) & (f->cap - 1))
		if (same(f, &f->slots[i], h, n))
			return f->slots[i].count;
	return 0;
}

uint64_t fold__count(const struct fold *cf, const char *line)
{
	struct fold *f = (struct fold *)cf; /* f->tmp is scratch */
	int64_t n = f->cap ? split(f, line) : 0;

	return n > 0 ? count_tmp(f, n) : 0;
}

uint64_t fold__count_frames(const struct fold *cf, const struct fold_frame *fr,
			    uint32_t n)
{
	struct fold *f = (struct fold *)cf; /* f->tmp is scratch */

	if (!f->cap || !n || tmp_room(f, n))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		int64_t id = frame_id(&f->fr, fr[i].text, fr[i].len,
				      fr[i].t ? fr[i].t->bci1 : 0, NULL);

		if (id < 0)
			return 0;
		f->tmp[i] = id;
	}
	return count_tmp(f, n);
}

uint64_t fold__total(const struct fold *f)
{
	return f->total;
}

size_t fold__lines(const struct fold *f)
{
	return f->n;
}

/*
 * The byte at position pos of a line's text, walked frame by frame: a
 * frame's bytes, then ';' if another follows, then NUL.
 */
struct cursor {
	const struct fold *f;
	const uint32_t *ids;
	uint32_t n, i, pos;
};

static unsigned char next_byte(struct cursor *c)
{
	while (c->i < c->n) {
		const struct frame_text *t = &c->f->fr.v[c->ids[c->i]];

		if (c->pos < t->len)
			return t->text[c->pos++];
		c->i++;
		c->pos = 0;
		if (c->i < c->n)
			return ';';
	}
	return 0;
}

/*
 * Lines x and y from their first differing frame k on, by that frame's
 * texts alone (a sort compares each line ~log2(n) times: one memcmp,
 * not a byte at a time): -1, 0 or 1; 2 when the texts are the same (one
 * text at two bcis): the rest decides.
 */
static int frame_cmp(const struct fold *f, const struct slot *x,
		     const struct slot *y, uint32_t k)
{
	const struct frame_text *a = &f->fr.v[f->ids[x->off + k]],
				*b = &f->fr.v[f->ids[y->off + k]];
	uint32_t m = a->len < b->len ? a->len : b->len;
	int r = memcmp(a->text, b->text, m);
	unsigned char p, q;

	if (r || a->len == b->len)
		return r ? (r > 0) - (r < 0) : 2;
	/* one text is the other's start: what follows it decides */
	p = a->len > m ? a->text[m] : k + 1 < x->n ? ';' : 0;
	q = b->len > m ? b->text[m] : k + 1 < y->n ? ';' : 0;
	return (p > q) - (p < q);
}

/* Two slots' lines compared as strcmp compares their texts. */
static int slot_cmp(const void *a, const void *b, void *ctx)
{
	const struct fold *f = ctx;
	const struct slot *x = *(const struct slot *const *)a,
			  *y = *(const struct slot *const *)b;
	uint32_t k = 0;
	struct cursor cx, cy;
	int r;

	/* equal leading frames are equal text, ';' after them included
	 * when both go on */
	while (k < x->n && k < y->n && f->ids[x->off + k] == f->ids[y->off + k])
		k++;
	if (k == x->n || k == y->n)
		return (k < x->n) - (k < y->n); /* a line ended: it is first */
	r = frame_cmp(f, x, y, k);
	if (r != 2)
		return r;
	cx = (struct cursor){f, f->ids + x->off, x->n, k, 0};
	cy = (struct cursor){f, f->ids + y->off, y->n, k, 0};
	for (;;) {
		unsigned char p = next_byte(&cx), q = next_byte(&cy);

		if (p != q || !p)
			return (int)p - (int)q;
	}
}

/* The slots of f sorted by line, or NULL (ENOMEM). */
static const struct slot **sorted(const struct fold *f)
{
	const struct slot **v = malloc((f->n ? f->n : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < f->cap; i++)
		if (f->slots[i].n)
			v[k++] = &f->slots[i];
	qsort_r(v, k, sizeof(*v), slot_cmp, (void *)f);
	return v;
}

int fold__each(const struct fold *cf,
	       int (*fn)(const char *line, uint64_t count, void *ctx),
	       void *ctx)
{
	struct fold *f = (struct fold *)cf; /* f->buf is scratch */
	const struct slot **v = sorted(f);
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < f->n; i++) {
		const char *line = text_of(f, v[i]);

		ret = line ? fn(line, v[i]->count, ctx) : -ENOMEM;
	}
	free(v);
	return ret;
}

int fold__each_frames(const struct fold *f,
		      int (*fn)(const struct fold_frame *fr, uint32_t n,
				uint64_t count, void *ctx),
		      void *ctx)
{
	const struct slot **v = sorted(f);
	struct fold_frame *fr = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < f->n; i++) {
		const struct slot *s = v[i];

		if (array__grow((void **)&fr, &cap, s->n, sizeof(*fr))) {
			ret = -ENOMEM;
			break;
		}
		for (uint32_t j = 0; j < s->n; j++) {
			uint32_t id = f->ids[s->off + j];
			const struct frame_text *t = &f->fr.v[id];

			fr[j] = (struct fold_frame){t->text, t->len, id, &t->t};
		}
		ret = fn(fr, s->n, s->count, ctx);
	}
	free(fr);
	free(v);
	return ret;
}

int fold__write(const struct fold *cf, FILE *out)
{
	struct fold *f = (struct fold *)cf; /* f->buf is scratch */
	const struct slot **v = sorted(f);
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		const char *line = text_of(f, v[i]);

		if (!line) {
			err = -ENOMEM;
			break;
		}
		if (fprintf(out, "%s %llu\n", line,
			    (unsigned long long)v[i]->count) < 0) {
			err = errno ? -errno : -EIO; /* ENOSPC, EPIPE... */
			break;
		}
	}
	free(v);
	if (!err && fflush(out))
		err = -errno;
	return err;
}
