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
