/*
 * folded: the tolerant line parser and the loader that feeds the tree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "folded.h"
#include "jfr/jfr.h"
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

int folded__parse_line(const char *line, size_t len, size_t *stack_len,
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

int folded__parse_line2(const char *line, size_t len, size_t *stack_len,
			uint64_t *before, uint64_t *after, const char **why)
{
	const char *tok;
	size_t l;
	int ret;

	ret = folded__parse_line(line, len, &l, after, why);
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
		ret = folded__parse_line2(buf, len, &l, &before, &after, &why);
	else
		ret = folded__parse_line(buf, len, &l, &after, &why);
	if (ret == 1)
		return 0;
	if (ret < 0) {
		note_bad(st, why);
		return 0;
	}
	st->used++;
	if (o->two_counts && before &&
	    tree__add(t, buf, l, before, FG_SLOT_BASE, o->reverse))
		return -ENOMEM;
	return tree__add(t, buf, l, after,
			 o->two_counts ? FG_SLOT_VALUE : o->slot, o->reverse);
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
	return tree__add(pl->t, line, len, count,
			 pl->o->two_counts ? FG_SLOT_VALUE : pl->o->slot,
			 pl->o->reverse);
}

/* A reader of a whole binary profile: pprof__read, jfr__read. */
typedef int (*binary_read_fn)(const void *buf, size_t len,
			      int (*fn)(const char *line, size_t len,
					uint64_t count, void *ctx),
			      void *ctx, const char **why);

/* The rest of in (a gzipped profile.proto, a JFR recording: read) into
 * the tree. */
static int load_binary(struct fg_tree *t, FILE *in,
		       const struct fg_load_opts *o, struct fg_load_stats *st,
		       binary_read_fn read, const char *head, size_t nh)
{
	struct pprof_load pl = {t, o, st};
	size_t len = 0, cap = 1 << 16, got;
	char *buf = malloc(cap), *p;
	int err = 0;

	if (buf) { /* what was peeked first */
		memcpy(buf, head, nh);
		len = nh;
	}
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
		err = read(buf, len, pprof_line, &pl, &st->why);
		if (err == -EINVAL) { /* reported like a bad folded line */
			st->skipped++;
			st->first_bad = 1;
			err = 0;
		}
	}
	free(buf);
	return err;
}

/* The first bytes of in (up to cap): how many. */
static size_t peek(FILE *in, char *head, size_t cap)
{
	size_t n = 0;
	int c;

	while (n < cap && (c = getc(in)) != EOF)
		head[n++] = c;
	return n;
}

/* Glue head[0..nh) before line buf[0..*n) (the first line, whose start
 * peek took). */
static int unpeek(char **buf, size_t *cap, ssize_t *n, const char *head,
		  size_t nh)
{
	char *p = malloc(nh + *n + 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, head, nh);
	memcpy(p + nh, *buf ? *buf : "", *n + 1);
	free(*buf);
	*buf = p;
	*cap = nh + *n + 1;
	*n += nh;
	return 0;
}

int folded__load(struct fg_tree *t, FILE *in, const struct fg_load_opts *o,
		 struct fg_load_stats *st)
{
	char *buf = NULL, head[4];
	size_t cap = 0, nh;
	ssize_t n;
	int err = 0;

	memset(st, 0, sizeof(*st));
	/* folded text never starts so: a gzip stream (pprof) always does,
	 * a JFR recording with "FLR\0" */
	nh = peek(in, head, sizeof(head));
	if (nh >= 2 && pprof__is_gzip(head, nh))
		return load_binary(t, in, o, st, pprof__read, head, nh);
	if (jfr__is_jfr(head, nh))
		return load_binary(t, in, o, st, jfr__read, head, nh);
	while (!err && (n = getline(&buf, &cap, in)) >= 0) {
		if (nh)
			err = unpeek(&buf, &cap, &n, head, nh);
		nh = 0;
		st->lines++;
		err = err ?: load_line(t, buf, n, o, st);
	}
	if (!err && nh) { /* a file shorter than head, no newline */
		n = 0;
		err = unpeek(&buf, &cap, &n, head, nh);
		st->lines++;
		err = err ?: load_line(t, buf, n, o, st);
	}
	if (!err && ferror(in))
		err = -EIO;
	free(buf);
	return err;
}

FILE *folded__open_input(const char *path, const char **shown)
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

int folded__load_path(struct fg_tree *t, const char *path,
		      const struct fg_load_opts *o)
{
	const char *shown;
	struct fg_load_stats st;
	FILE *in = folded__open_input(path, &shown);
	int err;

	if (!in)
		return -errno;
	err = folded__load(t, in, o, &st);
	if (in != stdin)
		fclose(in);
	return folded__report(shown, err, &st, "no usable folded lines", true);
}

int folded__report(const char *shown, int err, const struct fg_load_stats *st,
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
