/*
 * timed: parse timed sample lines into a tree plus (ms, leaf, count).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "timed.h"

struct fg_timed *timed__new(void)
{
	struct fg_timed *tm = calloc(1, sizeof(*tm));

	if (!tm)
		return NULL;
	tm->tree = tree__new();
	if (!tm->tree) {
		free(tm);
		errno = ENOMEM;
		return NULL;
	}
	tm->bucket_ms = 10;
	return tm;
}

void timed__free(struct fg_timed *tm)
{
	if (!tm)
		return;
	tree__free(tm->tree);
	free(tm->samples);
	free(tm);
}

/* "key=N" among the header's words; unknown keys are for later versions. */
static void parse_header(struct fg_timed *tm, const char *p, const char *e)
{
	const char *w;
	unsigned long long v;
	char *end;

	while (e > p && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		w = p;
		while (p < e && *p != ' ' && *p != '\t')
			p++;
		if (!strncmp(w, "bucket_ms=", 10) && p - w > 10) {
			v = strtoull(w + 10, &end, 10);
			if (end == p && v > 0)
				tm->bucket_ms = v;
		} else if (!strncmp(w, "start_ns=", 9) && p - w > 9) {
			v = strtoull(w + 9, &end, 10);
			if (end == p)
				tm->start_ns = v;
		}
	}
}

static int push_sample(struct fg_timed *tm, uint64_t ms, uint32_t node,
		       uint64_t count)
{
	struct fg_tsample *s;
	size_t cap;

	if (tm->nr == tm->cap) {
		cap = tm->cap ? tm->cap * 2 : 1024;
		s = realloc(tm->samples, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		tm->samples = s;
		tm->cap = cap;
	}
	tm->samples[tm->nr++] = (struct fg_tsample){ms, node, count};
	tm->total = tree__sat_add(tm->total, count);
	return 0;
}

int timed__parse_line(struct fg_timed *tm, const char *line, size_t len,
		      const char **why)
{
	static const char magic[] = "# mixprof-timed";
	const char *p = line, *e = line + len;
	uint64_t ms = 0, count;
	size_t stack_len;
	uint32_t leaf;
	int ret;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && *p == '#') {
		if ((size_t)(e - p) >= sizeof(magic) - 1 &&
		    !memcmp(p, magic, sizeof(magic) - 1))
			parse_header(tm, p + sizeof(magic) - 1, e);
		return 1;
	}
	if (p == e || *p == '\n' || *p == '\r')
		return 1;
	if (*p < '0' || *p > '9') {
		*why = "bad offset";
		return -EINVAL;
	}
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		if (ms > (UINT64_MAX - 9) / 10) {
			*why = "bad offset";
			return -ERANGE;
		}
		ms = ms * 10 + (*p - '0');
	}
	if (p == e || (*p != ' ' && *p != '\t')) {
		*why = "bad offset";
		return -EINVAL;
	}
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	ret = folded__parse_line(p, e - p, &stack_len, &count, why);
	if (ret == 1) {
		*why = "no stack";
		return -ENODATA;
	}
	if (ret < 0)
		return ret;
	ret = tree__add_at(tm->tree, p, stack_len, count, FG_SLOT_VALUE, false,
			   &leaf);
	return ret ? ret : push_sample(tm, ms, leaf, count);
}

int timed__load(struct fg_timed *tm, FILE *in, struct fg_load_stats *st)
{
	const char *why = NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	while ((n = getline(&buf, &cap, in)) >= 0) {
		st->lines++;
		ret = timed__parse_line(tm, buf, n, &why);
		if (ret == -ENOMEM)
			break;
		if (ret == 0)
			st->used++;
		else if (ret < 0 && !st->skipped++) {
			st->first_bad = st->lines;
			st->why = why;
		}
		ret = 0;
	}
	if (!ret && ferror(in))
		ret = -EIO;
	free(buf);
	return ret;
}

int timed__load_path(struct fg_timed *tm, const char *path)
{
	const char *shown;
	struct fg_load_stats st;
	FILE *in = folded__open_input(path, &shown);
	int err;

	if (!in)
		return -errno;
	err = timed__load(tm, in, &st);
	if (in != stdin)
		fclose(in);
	return folded__report(shown, err, &st, "no timed samples", false);
}
