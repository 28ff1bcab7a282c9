/*
 * folded: the tolerant line parser and the loader that feeds the tree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "folded.h"
#include "pprof/pprof.h"

/* Parse [s, e) as a decimal count; false unless it is one. */
static bool parse_count(const char *s, const char *e, uint64_t *v)
{
	uint64_t n = 0;

	if (s == e)
		return false;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9' || n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (*s - '0');
	}
	*v = n;
	return true;
}

/* Trim trailing whitespace (CR from Windows files too) from [line, *e). */
static const char *rtrim(const char *line, const char *e)
{
	while (e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			    e[-1] == '\n'))
		e--;
	return e;
}

/* Start of the last space/tab-separated token of [line, e), or NULL. */
static const char *last_token(const char *line, const char *e)
{
	const char *p = e;

	while (p > line && p[-1] != ' ' && p[-1] != '\t')
		p--;
	return p > line ? p : NULL;
}

int fg_parse_line(const char *line, size_t len, size_t *stack_len,
		  uint64_t *count, const char **why)
{
	const char *e = rtrim(line, line + len), *tok, *s;

	if (e == line || line[0] == '#')
		return 1;
	tok = last_token(line, e);
	if (!tok) {
		*why = "no count";
		return -EINVAL;
	}
	if (!parse_count(tok, e, count)) {
		*why = "bad count";
		return -ERANGE;
	}
	s = rtrim(line, tok);
	if (s == line) {
		*why = "empty stack";
		return -ENODATA;
	}
	*stack_len = s - line;
	return 0;
}

int fg_parse_line2(const char *line, size_t len, size_t *stack_len,
		   uint64_t *before, uint64_t *after, const char **why)
{
	const char *tok;
	size_t l;
	int ret;

	ret = fg_parse_line(line, len, &l, after, why);
	if (ret)
		return ret;
	*before = 0;
	tok = last_token(line, line + l);
	if (tok && parse_count(tok, line + l, before)) {
		l = rtrim(line, tok) - line;
		if (!l) {
			*why = "empty stack";
			return -ENODATA;
		}
	}
	*stack_len = l;
	return 0;
}

static void note_bad(struct fg_load_stats *st, const char *why)
{
	if (!st->skipped++) {
		st->first_bad = st->lines;
		st->why = why;
	}
}

/* One line into the tree; bad ones are counted, not fatal. */
static int load_line(struct fg_tree *t, const char *buf, size_t len,
		     const struct fg_load_opts *o, struct fg_load_stats *st)
{
	const char *why = NULL;
	uint64_t before = 0, after = 0;
	size_t l;
	int ret;

	if (o->two_counts)
		ret = fg_parse_line2(buf, len, &l, &before, &after, &why);
	else
		ret = fg_parse_line(buf, len, &l, &after, &why);
	if (ret == 1)
		return 0;
	if (ret < 0) {
		note_bad(st, why);
		return 0;
	}
	st->used++;
	if (o->two_counts && before &&
	    fg_tree__add(t, buf, l, before, FG_SLOT_BASE, o->reverse))
		return -ENOMEM;
	return fg_tree__add(t, buf, l, after,
			    o->two_counts ? FG_SLOT_VALUE : o->slot,
			    o->reverse);
}

struct pprof_load {
	struct fg_tree *t;
	const struct fg_load_opts *o;
	struct fg_load_stats *st;
};

/* A pprof sample as a folded line: one stack, one count. */
static int pprof_line(const char *line, size_t len, uint64_t count, void *ctx)
{
	struct pprof_load *pl = ctx;

	pl->st->lines++;
	pl->st->used++;
	return fg_tree__add(pl->t, line, len, count,
			    pl->o->two_counts ? FG_SLOT_VALUE : pl->o->slot,
			    pl->o->reverse);
}

/* The rest of in (a gzipped profile.proto) into the tree. */
static int load_pprof(struct fg_tree *t, FILE *in, const struct fg_load_opts *o,
		      struct fg_load_stats *st)
{
	struct pprof_load pl = {t, o, st};
	size_t len = 0, cap = 1 << 16, got;
	char *buf = malloc(cap), *p;
	int err = 0;

	while (buf && (got = fread(buf + len, 1, cap - len, in)) > 0) {
		len += got;
		if (len < cap)
			continue;
		if (cap >= PPROF_MAX_BYTES) {
			err = -EFBIG;
			break;
		}
		p = realloc(buf, cap * 2);
		if (!p)
			break;
		buf = p;
		cap *= 2;
	}
	if (!buf || (!err && len == cap))
		err = -ENOMEM;
	else if (!err && ferror(in))
		err = -EIO;
	if (!err) {
		err = pprof__read(buf, len, pprof_line, &pl, &st->why);
		if (err == -EINVAL) { /* reported like a bad folded line */
			st->skipped++;
			st->first_bad = 1;
			err = 0;
		}
	}
	free(buf);
	return err;
}

int fg_load_folded(struct fg_tree *t, FILE *in, const struct fg_load_opts *o,
		   struct fg_load_stats *st)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int err = 0, c;

	memset(st, 0, sizeof(*st));
	/* folded text never starts so; a gzip stream (pprof) always does */
	c = getc(in);
	if (c != EOF && ungetc(c, in) == 0x1f)
		return load_pprof(t, in, o, st);
	while (!err && (n = getline(&buf, &cap, in)) >= 0) {
		st->lines++;
		err = load_line(t, buf, n, o, st);
	}
	if (!err && ferror(in))
		err = -EIO;
	free(buf);
	return err;
}

FILE *fg_open_input(const char *path, const char **shown)
{
	bool std = !strcmp(path, "-");
	FILE *in = std ? stdin : fopen(path, "r");

	*shown = std ? "<stdin>" : path;
	if (!in) {
		int err =
		    errno; /* the caller returns it; stdio may change it */

		fprintf(stderr, "mixprof: %s: %s\n", *shown, strerror(err));
		errno = err;
	}
	return in;
}

int fg_load_path(struct fg_tree *t, const char *path,
		 const struct fg_load_opts *o)
{
	const char *shown;
	struct fg_load_stats st;
	FILE *in = fg_open_input(path, &shown);
	int err;

	if (!in)
		return -errno;
	err = fg_load_folded(t, in, o, &st);
	if (in != stdin)
		fclose(in);
	return fg_load_report(shown, err, &st, "no usable folded lines", true);
}

int fg_load_report(const char *shown, int err, const struct fg_load_stats *st,
		   const char *none, bool empty_ok)
{
	if (err) {
		fprintf(stderr, "mixprof: %s: %s\n", shown, strerror(-err));
		return err;
	}
	if (st->skipped)
		fprintf(stderr,
			"mixprof: %s: %llu line%s skipped (%s, first at line "
			"%llu)\n",
			shown, (unsigned long long)st->skipped,
			st->skipped == 1 ? "" : "s", st->why,
			(unsigned long long)st->first_bad);
	if (!st->used && (st->skipped || !empty_ok)) {
		fprintf(stderr, "mixprof: %s: %s\n", shown, none);
		return -ENODATA;
	}
	return 0;
}
