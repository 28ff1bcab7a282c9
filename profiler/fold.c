// SPDX-License-Identifier: GPL-2.0
/* Folded-stack lines: building with annotation, counting, sorted output. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/safename.h"
#include "fold.h"

void fold_line__init(struct fold_line *l, bool annotate)
{
	l->buf = NULL;
	l->len = l->cap = 0;
	l->annotate = annotate;
}

void fold_line__reset(struct fold_line *l)
{
	l->len = 0;
	if (l->buf)
		l->buf[0] = '\0';
}

void fold_line__release(struct fold_line *l)
{
	free(l->buf);
	l->buf = NULL;
	l->len = l->cap = 0;
}

static int reserve(struct fold_line *l, size_t extra)
{
	size_t need = l->len + extra + 1, cap = l->cap ? l->cap : 256;
	char *nb;

	if (need <= l->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	nb = realloc(l->buf, cap);
	if (!nb)
		return -ENOMEM;
	l->buf = nb;
	l->cap = cap;
	return 0;
}

int fold_line__append(struct fold_line *l, const char *text, size_t len)
{
	if (!len)
		return 0;
	if (reserve(l, len + 1))
		return -ENOMEM;
	if (l->len)
		l->buf[l->len++] = ';';
	memcpy(l->buf + l->len, text, len);
	l->len += len;
	l->buf[l->len] = '\0';
	return 0;
}

/*
 * Names come from targets: made safe (common/safename.h) as they enter
 * the line, the one place every sink's text passes, with ';' (it
 * separates frames) written ':', so a name can neither split a line nor
 * reach a terminal with its control characters.
 */
static int push(struct fold_line *l, const char *name, const char *suffix)
{
	size_t n = strlen(name), s = suffix ? strlen(suffix) : 0;

	if (reserve(l, SAFENAME_SIZE(n) + s + 1))
		return -ENOMEM;
	if (l->len)
		l->buf[l->len++] = ';';
	if (safename__plain(name, n, SAFENAME_FOLD) == n) {
		memcpy(l->buf + l->len, name, n); /* nearly every name */
		l->len += n;
	} else {
		l->len += safename__copy(l->buf + l->len, l->cap - l->len, name,
					 n, SAFENAME_FOLD);
	}
	memcpy(l->buf + l->len, suffix ? suffix : "", s);
	l->len += s;
	l->buf[l->len] = '\0';
	return 0;
}

int fold_line__push(struct fold_line *l, const struct frame *f)
{
	const char *suffix = NULL;

	if (l->annotate) {
		switch (f->kind) {
		case FRAME_JAVA:
			suffix = "_[j]";
			break;
		case FRAME_INTERP:
			suffix = "_[0]";
			break;
		case FRAME_INLINED:
			suffix = "_[i]";
			break;
		case FRAME_KERNEL:
			suffix = "_[k]";
			break;
		default:
			break;
		}
	}
	return push(l, f->name ? f->name : "[unknown]", suffix);
}

int fold_line__push_name(struct fold_line *l, const char *name)
{
	return push(l, name, NULL);
}

struct slot {
	char *line; /* NULL: empty */
	uint64_t hash, count;
};

struct fold {
	struct slot *slots;
	size_t n, cap; /* cap is a power of two */
	uint64_t total;
};

struct fold *fold__new(void)
{
	return calloc(1, sizeof(struct fold));
}

void fold__free(struct fold *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->cap; i++)
		free(f->slots[i].line);
	free(f->slots);
	free(f);
}

/*
 * FNV-1a over 8-byte words with a shift to fold the high bits down:
 * lines run to kilobytes (deep Java stacks), and one multiply per byte
 * was a visible share of a profile's CPU.
 */
/*
 * Four words at a time in four independent lanes: a deep Java stack's
 * line is kilobytes, and one multiply chain over it was most of the cost
 * of adding a line.
 */
static uint64_t hash(const char *s)
{
	const uint64_t k = 1099511628211ULL;
	size_t n = strlen(s), i;
	uint64_t h[4] = {1469598103934665603ULL ^ n, 0x9e3779b97f4a7c15ULL,
			 0xc2b2ae3d27d4eb4fULL, 0x165667b19e3779f9ULL},
		 w[4];

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

static int grow(struct fold *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024;
	struct slot *ns = calloc(cap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < f->cap; i++) {
		size_t j;

		if (!f->slots[i].line)
			continue;
		j = f->slots[i].hash & (cap - 1);
		while (ns[j].line)
			j = (j + 1) & (cap - 1);
		ns[j] = f->slots[i];
	}
	free(f->slots);
	f->slots = ns;
	f->cap = cap;
	return 0;
}

int fold__add(struct fold *f, const char *line, uint64_t count)
{
	uint64_t h = hash(line);
	size_t i;

	if ((f->n + 1) * 4 > f->cap * 3 && grow(f))
		return -ENOMEM;
	for (i = h & (f->cap - 1); f->slots[i].line;
	     i = (i + 1) & (f->cap - 1)) {
		if (f->slots[i].hash == h && !strcmp(f->slots[i].line, line)) {
			f->slots[i].count += count;
			f->total += count;
			return 0;
		}
	}
	f->slots[i].line = strdup(line);
	if (!f->slots[i].line)
		return -ENOMEM;
	f->slots[i].hash = h;
	f->slots[i].count = count;
	f->n++;
	f->total += count;
	return 0;
}

int fold__merge(struct fold *dst, const struct fold *src)
{
	for (size_t i = 0; i < src->cap; i++) {
		int err;

		if (!src->slots[i].line)
			continue;
		err = fold__add(dst, src->slots[i].line, src->slots[i].count);
		if (err)
			return err;
	}
	return 0;
}

uint64_t fold__count(const struct fold *f, const char *line)
{
	uint64_t h = hash(line);

	if (!f->cap)
		return 0;
	for (size_t i = h & (f->cap - 1); f->slots[i].line;
	     i = (i + 1) & (f->cap - 1))
		if (f->slots[i].hash == h && !strcmp(f->slots[i].line, line))
			return f->slots[i].count;
	return 0;
}

uint64_t fold__total(const struct fold *f)
{
	return f->total;
}

size_t fold__lines(const struct fold *f)
{
	return f->n;
}

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *const *x = a, *const *y = b;

	return strcmp((*x)->line, (*y)->line);
}

/* The slots of f sorted by line, or NULL (ENOMEM). */
static const struct slot **sorted(const struct fold *f)
{
	const struct slot **v = malloc((f->n ? f->n : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < f->cap; i++)
		if (f->slots[i].line)
			v[k++] = &f->slots[i];
	qsort(v, k, sizeof(*v), slot_cmp);
	return v;
}

int fold__each(const struct fold *f,
	       int (*fn)(const char *line, uint64_t count, void *ctx),
	       void *ctx)
{
	const struct slot **v = sorted(f);
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < f->n; i++)
		ret = fn(v[i]->line, v[i]->count, ctx);
	free(v);
	return ret;
}

int fold__write(const struct fold *f, FILE *out)
{
	const struct slot **v = sorted(f);
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		if (fprintf(out, "%s %llu\n", v[i]->line,
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
