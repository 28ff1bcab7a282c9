/*
 * linefilter: which folded stacks a run keeps (see linefilter.h).
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "linefilter.h"

struct relist {
	regex_t re[LINEFILTER_MAX];
	int n;
};

struct linefilter {
	struct relist inc, exc, thr;
	uint32_t *tids;
	size_t ntids;
};

struct linefilter *linefilter__new(void)
{
	return calloc(1, sizeof(struct linefilter));
}

static void relist_free(struct relist *l)
{
	for (int i = 0; i < l->n; i++)
		regfree(&l->re[i]);
}

void linefilter__free(struct linefilter *f)
{
	if (!f)
		return;
	relist_free(&f->inc);
	relist_free(&f->exc);
	relist_free(&f->thr);
	free(f->tids);
	free(f);
}

int linefilter__add_regex(struct linefilter *f, enum linefilter_kind kind,
			  const char *re, char *err, size_t errlen)
{
	struct relist *l = kind == LF_INCLUDE	? &f->inc
			   : kind == LF_EXCLUDE ? &f->exc
						: &f->thr;
	int ret;

	if (l->n == LINEFILTER_MAX) {
		snprintf(err, errlen, "at most %d of each", LINEFILTER_MAX);
		return -ENOSPC;
	}
	ret = regcomp(&l->re[l->n], re, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		regerror(ret, &l->re[l->n], err, errlen);
		return -EINVAL;
	}
	l->n++;
	return 0;
}

int linefilter__add_tids(struct linefilter *f, const char *list, char *err,
			 size_t errlen)
{
	const char *p = list;
	char *end;

	for (;;) {
		unsigned long v;
		uint32_t *t;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || !v || v > UINT32_MAX ||
		    (*end && *end != ',')) {
			snprintf(err, errlen, "'%s': a tid list is 1,2,3",
				 list);
			return -EINVAL;
		}
		t = realloc(f->tids, (f->ntids + 1) * sizeof(*t));
		if (!t)
			return -ENOMEM;
		f->tids = t;
		f->tids[f->ntids++] = (uint32_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

bool linefilter__wants_threads(const struct linefilter *f)
{
	return f && (f->ntids || f->thr.n);
}

bool linefilter__active(const struct linefilter *f)
{
	return f && (f->inc.n || f->exc.n || linefilter__wants_threads(f));
}

/* Does a regex of l match s[0..n)? (regexec wants a string.) */
static bool any_match(const struct relist *l, const char *s, size_t n,
		      char *buf, size_t cap)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	for (int i = 0; i < l->n; i++)
		if (!regexec(&l->re[i], buf, 0, NULL, 0))
			return true;
	return false;
}

/*
 * The thread's frame of s: tid listed, name kept? A virtual thread's
 * ("virtual-ID on CARRIER", stackfold.c): --thread matches its
 * carrier's name on its own too.
 */
static bool keep_thread(const struct linefilter *f, const struct fold_stack *s,
			char *buf, size_t cap)
{
	const struct fold_type *t;
	const char *name;
	size_t len, i;

	if (f->ntids) {
		for (i = 0; i < f->ntids && f->tids[i] != s->tid; i++)
			;
		if (i == f->ntids)
			return false;
	}
	if (!f->thr.n)
		return true;
	/* its type: NAME's length, and where CARRIER starts in it */
	t = &s->line->types[s->thread];
	name = fold_line__frame(s->line, s->thread, &len);
	len = t->name;
	return any_match(&f->thr, name, len, buf, cap) ||
	       (t->method && t->method < len &&
		any_match(&f->thr, name + t->method, len - t->method, buf,
			  cap));
}

bool linefilter__keep(const struct linefilter *f, const struct fold_stack *s)
{
	bool inc = !f->inc.n;
	const char *p;
	char buf[4096];
	size_t n;

	if (!linefilter__active(f))
		return true;
	if (linefilter__wants_threads(f) &&
	    (s->thread < 0 || !keep_thread(f, s, buf, sizeof(buf))))
		return false;
	for (uint32_t i = 0; i < s->line->n; i++) {
		p = fold_line__frame(s->line, i, &n);
		if (f->exc.n && any_match(&f->exc, p, n, buf, sizeof(buf)))
			return false;
		if (!inc && any_match(&f->inc, p, n, buf, sizeof(buf)))
			inc = true;
	}
	return inc;
}
