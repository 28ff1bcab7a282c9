/*
 * slicetab: parsing slices.tsv by column position.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "slicetab.h"

#define MAX_COLS 6

/* Split [p, e) at tabs into at most MAX_COLS columns; returns how many. */
static int split(const char *p, const char *e, const char *col[], size_t len[])
{
	int n = 0;
	const char *q;

	while (n < MAX_COLS) {
		q = memchr(p, '\t', e - p);
		if (!q)
			q = e;
		col[n] = p;
		len[n++] = q - p;
		if (q == e)
			break;
		p = q + 1;
	}
	return n;
}

static bool parse_u64(const char *s, size_t len, uint64_t *v)
{
	uint64_t n = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (s[i] - '0');
	}
	*v = n;
	return true;
}

int slicetab__parse_line(struct fg_slicetab *st, const char *line, size_t len,
			 unsigned long lineno, const char **why)
{
	const char *e = line + len, *col[MAX_COLS];
	size_t clen[MAX_COLS];
	struct fg_slice s = {0}, *v;
	uint64_t partial = 0;
	int n;

	while (e > line && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	if (e == line || line[0] == '#')
		return 1;
	n = split(line, e, col, clen);
	if (!parse_u64(col[0], clen[0], &s.index)) {
		if (lineno == 1)
			return 1;
		*why = "bad index";
		return -EINVAL;
	}
	if (n < 5) {
		*why = "fewer than 5 columns";
		return -EINVAL;
	}
	if (!parse_u64(col[1], clen[1], &s.start_ns) ||
	    !parse_u64(col[2], clen[2], &s.end_ns) || s.end_ns < s.start_ns) {
		*why = "bad start_ns or end_ns";
		return -EINVAL;
	}
	if (!parse_u64(col[3], clen[3], &s.samples)) {
		*why = "bad samples";
		return -EINVAL;
	}
	if (!clen[4]) {
		*why = "empty file name";
		return -EINVAL;
	}
	if (n > 5 && clen[5] && !parse_u64(col[5], clen[5], &partial)) {
		*why = "bad partial";
		return -EINVAL;
	}
	s.partial = partial != 0;
	if (st->nr == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;

		v = realloc(st->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		st->v = v;
		st->cap = cap;
	}
	s.file = strndup(col[4], clen[4]);
	if (!s.file)
		return -ENOMEM;
	st->v[st->nr++] = s;
	return 0;
}

int slicetab__load(struct fg_slicetab *st, FILE *in, const char *name)
{
	const char *why = NULL;
	unsigned long lineno = 0;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&buf, &cap, in)) >= 0) {
		ret = slicetab__parse_line(st, buf, n, ++lineno, &why);
		if (ret == -ENOMEM) {
			fprintf(stderr, "mixprof: %s: %s\n", name,
				strerror(ENOMEM));
			break;
		}
		if (ret < 0) {
			fprintf(stderr, "mixprof: %s:%lu: %s\n", name, lineno,
				why);
			break;
		}
		ret = 0;
	}
	free(buf);
	if (!ret && ferror(in)) {
		fprintf(stderr, "mixprof: %s: read error\n", name);
		ret = -EIO;
	}
	return ret;
}

static int by_start(const void *a, const void *b)
{
	const struct fg_slice *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void slicetab__sort(struct fg_slicetab *st)
{
	if (st->nr)
		qsort(st->v, st->nr, sizeof(*st->v), by_start);
}

void slicetab__release(struct fg_slicetab *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		free(st->v[i].file);
	free(st->v);
	st->v = NULL;
	st->nr = st->cap = 0;
}
