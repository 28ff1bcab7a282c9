// SPDX-License-Identifier: GPL-2.0
/* Folded-stack lines built with annotation (the aggregate: foldtab.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "common/cgroup.h"
#include "common/safename.h"
#include "fold.h"

void fold_line__init(struct fold_line *l, bool annotate)
{
	l->buf = NULL;
	l->len = l->cap = 0;
	l->ends = NULL;
	l->types = NULL;
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
	free(l->types);
	l->buf = NULL;
	l->ends = NULL;
	l->types = NULL;
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

/* Room for extra more frames' ends and types. */
static int reserve_frames(struct fold_line *l, uint32_t extra)
{
	uint32_t cap = l->ncap ? l->ncap : 64;
	struct fold_type *nt;
	uint32_t *ne;

	if (l->n + extra <= l->ncap)
		return 0;
	while (cap < l->n + extra)
		cap *= 2;
	ne = realloc(l->ends, cap * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	l->ends = ne;
	nt = realloc(l->types, cap * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	l->types = nt;
	l->ncap = cap;
	return 0;
}

/* ":LINE" ending s[0..*n) (digits, no leading 0): LINE, *n cut before
 * it; else 0. */
static uint32_t line_of(const char *s, uint32_t *n)
{
	uint32_t i = *n, v = 0;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == 0 || i == *n || s[i - 1] != ':' || s[i] == '0' || *n - i > 9)
		return 0;
	for (uint32_t j = i; j < *n; j++)
		v = v * 10 + (s[j] - '0');
	*n = i - 1;
	return v;
}

/* A Java frame's class, from its name s[0..t->name): where its method's
 * name starts. */
static void java_parts(const char *s, struct fold_type *t)
{
	uint32_t dot;

	for (dot = t->name; dot > 0 && s[dot - 1] != '.'; dot--)
		;
	t->method = dot;
}

void fold_type__of(const char *s, size_t n, struct fold_type *t)
{
	static const char kinds[] = "j10ik";
	static const uint32_t types[] = {FOLD_JIT, FOLD_C1, FOLD_INTERP,
					 FOLD_INLINED, FOLD_KERNEL};
	const char *k;

	*t = (struct fold_type){.kind = FOLD_NATIVE, .name = (uint32_t)n};
	if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    s[n - 2] && (k = strchr(kinds, s[n - 2]))) {
		t->kind = types[k - kinds];
		t->name = n - 4;
		if (fold_kind__java(t->kind)) {
			t->line = line_of(s, &t->name);
			java_parts(s, t);
		}
		return;
	}
	if (memmem(s, n, "::", 2))
		t->kind = FOLD_CPP;
}

/* Frames [from, l->n) typed by their text. */
static void type_text(struct fold_line *l, uint32_t from)
{
	for (uint32_t i = from; i < l->n; i++) {
		size_t len;
		const char *p = fold_line__frame(l, i, &len);

		fold_type__of(p, len, &l->types[i]);
	}
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
	uint32_t from = l->n;

	if (reserve(l, len + 1) || reserve_frames(l, n))
		return -ENOMEM;
	at = put_text(l, text, len);
	for (p = text; (e = memchr(p, ';', text + len - p)); p = e + 1)
		l->ends[l->n++] = at + (e - text);
	l->ends[l->n++] = at + len;
	type_text(l, from);
	return 0;
}

int fold_line__append_frames(struct fold_line *l, const char *text, size_t len,
			     const uint32_t *ends,
			     const struct fold_type *types, uint32_t n)
{
	size_t at;

	if (!n)
		return 0;
	if (reserve(l, len + 1) || reserve_frames(l, n))
		return -ENOMEM;
	at = put_text(l, text, len);
	memcpy(l->types + l->n, types, n * sizeof(*types));
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

/* A frame of a tier, with its suffix (annotation gives both or neither). */
static bool tiered(const struct fold_type *t)
{
	return t->kind == FOLD_C1 || t->kind == FOLD_INTERP;
}

bool fold_line__tiers(const struct fold_line *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (tiered(&l->types[i]))
			return true;
	return false;
}

void fold_line__untier(struct fold_line *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		if (!tiered(&l->types[i]))
			continue;
		l->buf[l->ends[i] - 2] = 'j'; /* "_[0]", "_[1]": "_[j]" */
		l->types[i].kind = FOLD_JIT;
	}
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
	for (uint32_t j = i; j + 1 < l->n; j++) {
		l->ends[j] = l->ends[j + 1] - skip;
		l->types[j] = l->types[j + 1];
	}
	l->n--;
}

/*
 * Names come from targets: made safe (common/safename.h) as they enter
 * the line, the one place every sink's text passes, with ';' (it
 * separates frames) written ':', so a name can neither split a line nor
 * reach a terminal with its control characters.
 */
static int push(struct fold_line *l, const char *name, const char *suffix,
		uint32_t kind)
{
	size_t n = strlen(name), s = suffix ? strlen(suffix) : 0, at;

	if (reserve(l, SAFENAME_SIZE(n) + s + 1) || reserve_frames(l, 1))
		return -ENOMEM;
	if (l->len)
		l->buf[l->len++] = ';';
	at = l->len;
	if (safename__plain(name, n, SAFENAME_FOLD) == n) {
		memcpy(l->buf + l->len, name, n); /* nearly every name */
		l->len += n;
	} else {
		l->len += safename__copy(l->buf + l->len, l->cap - l->len, name,
					 n, SAFENAME_FOLD);
	}
	/* the name as made safe: what the writers show */
	l->types[l->n] =
	    (struct fold_type){.kind = kind, .name = (uint32_t)(l->len - at)};
	if (fold_kind__java(kind))
		java_parts(l->buf + at, &l->types[l->n]);
	memcpy(l->buf + l->len, suffix ? suffix : "", s);
	l->len += s;
	l->buf[l->len] = '\0';
	l->ends[l->n++] = l->len;
	return 0;
}

/* The suffix of a frame of kind k (flamegraph.pl's, async-profiler's). */
static const char *suffix_of(uint32_t k)
{
	switch (k) {
	case FOLD_JIT:
		return "_[j]";
	case FOLD_C1:
		return "_[1]";
	case FOLD_INTERP:
		return "_[0]";
	case FOLD_INLINED:
		return "_[i]";
	case FOLD_KERNEL:
		return "_[k]";
	default:
		return NULL;
	}
}

/* Without annotation, no suffix: the frame is what its text shows. */
static int push_kind(struct fold_line *l, const char *name, uint32_t kind)
{
	if (!l->annotate || !suffix_of(kind))
		kind = strstr(name, "::") ? FOLD_CPP : FOLD_NATIVE;
	return push(l, name, suffix_of(kind), kind);
}

int fold_line__push(struct fold_line *l, const struct frame *f)
{
	static const uint32_t kinds[] = {
	    [FRAME_JAVA] = FOLD_JIT,
	    [FRAME_INTERP] = FOLD_INTERP,
	    [FRAME_INLINED] = FOLD_INLINED,
	    [FRAME_KERNEL] = FOLD_KERNEL,
	};
	uint32_t kind = (size_t)f->kind < sizeof(kinds) / sizeof(kinds[0])
			    ? kinds[f->kind]
			    : FOLD_NATIVE;

	return push_kind(l, f->name ? f->name : "[unknown]", kind);
}

int fold_line__push_java(struct fold_line *l, const char *name, uint32_t kind,
			 uint32_t line, int32_t bci)
{
	struct fold_type *t;
	uint32_t at, end;
	char buf[16];
	size_t n;
	int ret = push_kind(l, name, kind);

	if (!ret && bci >= 0 && fold_kind__java(l->types[l->n - 1].kind))
		l->types[l->n - 1].bci1 = (uint32_t)bci + 1;
	if (ret || !line)
		return ret;
	/* ":LINE" before the suffix: the frame as async-profiler writes it */
	n = (size_t)snprintf(buf, sizeof(buf), ":%u", line);
	if (reserve(l, n))
		return -ENOMEM;
	t = &l->types[l->n - 1];
	end = l->ends[l->n - 1];
	at = end - (suffix_of(t->kind) ? 4 : 0);
	memmove(l->buf + at + n, l->buf + at, end - at + 1);
	memcpy(l->buf + at, buf, n);
	l->len += n;
	l->ends[l->n - 1] += n;
	if (fold_kind__java(t->kind))
		t->line = line;
	else /* no suffix, no kind: the line is part of the name */
		t->name += n;
	return 0;
}

int fold_line__push_name(struct fold_line *l, const char *name)
{
	return push(l, name, NULL, strstr(name, "::") ? FOLD_CPP : FOLD_NATIVE);
}

int fold_line__push_role(struct fold_line *l, const char *name,
			 const struct fold_type *t)
{
	struct fold_type *got;
	int ret = push(l, name, NULL, t->kind);

	if (ret || t->kind != FOLD_THREAD)
		return ret;
	got = &l->types[l->n - 1];
	got->tid = t->tid;
	got->method = t->method;
	/* " [TID]" is plain: the name as made safe is the rest */
	got->name -= (uint32_t)strlen(name) - t->name;
	return 0;
}

/* "NAME [TID]": the name's length and the tid; 0 if not that shape. */
static uint32_t thread_shape(const char *s, uint32_t n, uint32_t *tid)
{
	uint32_t i = n - 1, v = 0;

	if (n < 4 || s[n - 1] != ']')
		return 0;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i < 2 || i == n - 1 || n - 1 - i > 9 || s[i - 1] != '[' ||
	    s[i - 2] != ' ')
		return 0;
	for (uint32_t j = i; j < n - 1; j++)
		v = v * 10 + (s[j] - '0');
	*tid = v;
	return i - 2;
}

/* A virtual thread's "virtual-ID on CARRIER": where CARRIER starts. */
static uint32_t carrier_of(const char *s, uint32_t n)
{
	const char *on;

	if (n < 12 || memcmp(s, "virtual-", 8))
		return 0;
	on = memmem(s + 8, n - 8, " on ", 4);
	return on ? (uint32_t)(on + 4 - s) : 0;
}

int fold_line__parse(struct fold_line *l, const char *line, size_t len)
{
	uint32_t i = 1, n;
	struct fold_type *t;
	const char *p;
	size_t fl;
	int ret;

	fold_line__reset(l);
	if (!len) /* one empty frame, as splitting "" gives */
		return push(l, "", NULL, FOLD_PROCESS);
	ret = fold_line__append(l, line, len);
	if (ret)
		return ret;
	p = fold_line__frame(l, 0, &fl);
	l->types[0] = (struct fold_type){.kind = FOLD_PROCESS, .name = fl};
	if (i < l->n && (p = fold_line__frame(l, i, &fl)) &&
	    cgroup__is_frame(p, fl))
		l->types[i++] =
		    (struct fold_type){.kind = FOLD_CONTAINER, .name = fl};
	if (i < l->n) {
		t = &l->types[i];
		p = fold_line__frame(l, i, &fl);
		n = thread_shape(p, fl, &t->tid);
		if (n)
			*t = (struct fold_type){.kind = FOLD_THREAD,
						.name = n,
						.method = carrier_of(p, n),
						.tid = t->tid};
	}
	return 0;
}

int fold_line__as_frames(const struct fold_line *l, struct fold_frame **fr,
			 size_t *cap)
{
	if (array__grow((void **)fr, cap, l->n ? l->n : 1, sizeof(**fr)))
		return -ENOMEM;
	for (uint32_t i = 0; i < l->n; i++) {
		size_t fl;
		const char *p = fold_line__frame(l, i, &fl);

		(*fr)[i] =
		    (struct fold_frame){p, (uint32_t)fl, 0, &l->types[i]};
	}
	return (int)l->n;
}

int fold_line__frames(struct fold_line *l, const char *line, size_t len,
		      struct fold_frame **fr, size_t *cap)
{
	int ret = fold_line__parse(l, line, len);

	return ret ?: fold_line__as_frames(l, fr, cap);
}
