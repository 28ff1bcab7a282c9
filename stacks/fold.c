// SPDX-License-Identifier: GPL-2.0
/* Folded-stack lines built with annotation (the aggregate: foldtab.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/safename.h"
#include "fold.h"

void fold_line__init(struct fold_line *l, bool annotate)
{
	l->buf = NULL;
	l->len = l->cap = 0;
	l->ends = NULL;
	l->n = l->ncap = 0;
	l->annotate = annotate;
}

void fold_line__reset(struct fold_line *l)
{
	l->len = 0;
	l->n = 0;
	if (l->buf)
		l->buf[0] = '\0';
}

void fold_line__release(struct fold_line *l)
{
	free(l->buf);
	free(l->ends);
	l->buf = NULL;
	l->ends = NULL;
	l->len = l->cap = 0;
	l->n = l->ncap = 0;
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

/* Room for extra more frames' ends. */
static int reserve_frames(struct fold_line *l, uint32_t extra)
{
	uint32_t cap = l->ncap ? l->ncap : 64;
	uint32_t *ne;

	if (l->n + extra <= l->ncap)
		return 0;
	while (cap < l->n + extra)
		cap *= 2;
	ne = realloc(l->ends, cap * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	l->ends = ne;
	l->ncap = cap;
	return 0;
}

/* Copy len bytes of frames onto the line, after a ';' if not the first. */
static size_t put_text(struct fold_line *l, const char *text, size_t len)
{
	size_t at;

	if (l->len)
		l->buf[l->len++] = ';';
	at = l->len;
	memcpy(l->buf + l->len, text, len);
	l->len += len;
	l->buf[l->len] = '\0';
	return at;
}

int fold_line__append(struct fold_line *l, const char *text, size_t len)
{
	const char *p, *e;
	uint32_t n = 1;
	size_t at;

	if (!len)
		return 0;
	for (p = text; (p = memchr(p, ';', text + len - p)); p++)
		n++;
	if (reserve(l, len + 1) || reserve_frames(l, n))
		return -ENOMEM;
	at = put_text(l, text, len);
	for (p = text; (e = memchr(p, ';', text + len - p)); p = e + 1)
		l->ends[l->n++] = at + (e - text);
	l->ends[l->n++] = at + len;
	return 0;
}

int fold_line__append_frames(struct fold_line *l, const char *text, size_t len,
			     const uint32_t *ends, uint32_t n)
{
	size_t at;

	if (!n)
		return 0;
	if (reserve(l, len + 1) || reserve_frames(l, n))
		return -ENOMEM;
	at = put_text(l, text, len);
	for (uint32_t i = 0; i < n; i++)
		l->ends[l->n++] = at + ends[i];
	return 0;
}

const char *fold_line__frame(const struct fold_line *l, uint32_t i, size_t *len)
{
	uint32_t start = i ? l->ends[i - 1] + 1 : 0;

	*len = l->ends[i] - start;
	return l->buf + start;
}

void fold_line__truncate(struct fold_line *l, uint32_t n)
{
	if (n >= l->n)
		return;
	l->n = n;
	l->len = n ? l->ends[n - 1] : 0;
	if (l->buf)
		l->buf[l->len] = '\0';
}

void fold_line__drop(struct fold_line *l, uint32_t i)
{
	uint32_t start = i ? l->ends[i - 1] + 1 : 0;
	uint32_t skip = l->ends[i] + 1 - start; /* the frame and its ';' */

	memmove(l->buf + start, l->buf + start + skip,
		l->len - (start + skip) + 1);
	l->len -= skip;
	for (uint32_t j = i; j + 1 < l->n; j++)
		l->ends[j] = l->ends[j + 1] - skip;
	l->n--;
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

	if (reserve(l, SAFENAME_SIZE(n) + s + 1) || reserve_frames(l, 1))
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
	l->ends[l->n++] = l->len;
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
