/*
 * linefilter: which folded stacks a run keeps (see linefilter.h).
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/cgroup.h"
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
 * A virtual thread's element ("virtual-ID on CARRIER [tid]",
 * stackfold.c): --thread matches its carrier's name on its own too.
 */
static bool carrier_match(const struct linefilter *f, const char *s, size_t n,
			  char *buf, size_t cap)
{
	static const char on[] = " on ";
	const char *p;

	if (n < 8 || memcmp(s, "virtual-", 8))
		return false;
	for (p = s + 8; p + sizeof(on) - 1 <= s + n; p++)
		if (!memcmp(p, on, sizeof(on) - 1))
			return any_match(&f->thr, p + sizeof(on) - 1,
					 s + n - (p + sizeof(on) - 1), buf,
					 cap);
	return false;
}

/* The thread element "name [tid]" s[0..n): name kept, tid listed? */
static bool keep_thread(const struct linefilter *f, const char *s, size_t n,
			char *buf, size_t cap)
{
	const char *open = NULL;
	size_t name = n;
	uint32_t tid = 0;

	for (size_t i = n; i > 0; i--)
		if (s[i - 1] == '[') {
			open = s + i - 1;
			break;
		}
	if (open && open > s && open[-1] == ' ' && s[n - 1] == ']') {
		name = open - 1 - s;
		tid = (uint32_t)strtoul(open + 1, NULL, 10);
	}
	if (f->ntids) {
		size_t i;

		for (i = 0; i < f->ntids && f->tids[i] != tid; i++)
			;
		if (i == f->ntids)
			return false;
	}
	return !f->thr.n || any_match(&f->thr, s, name, buf, cap) ||
	       carrier_match(f, s, name, buf, cap);
}

bool linefilter__keep(const struct linefilter *f, const char *line,
		      bool per_thread)
{
	const char *p = line, *e;
	bool inc = !f->inc.n;
	char buf[4096];
	int idx = 0, tidx = 1; /* the thread's frame: after a container's */

	if (!linefilter__active(f))
		return true;
	for (;; p = e + 1, idx++) {
		e = strchr(p, ';');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (idx == 1 && cgroup__is_frame(p, n))
			tidx = 2;
		if (idx == tidx && per_thread && linefilter__wants_threads(f) &&
		    !keep_thread(f, p, n, buf, sizeof(buf)))
			return false;
		if (f->exc.n && any_match(&f->exc, p, n, buf, sizeof(buf)))
			return false;
		if (!inc && any_match(&f->inc, p, n, buf, sizeof(buf)))
			inc = true;
		if (!e)
			break;
	}
	return inc && (!linefilter__wants_threads(f) || idx >= tidx);
}
