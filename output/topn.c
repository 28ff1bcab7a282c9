/*
 * topn: the frames with the most self samples, as text (see topn.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/cgroup.h"
#include "stacks/fold.h"
#include "topn.h"

struct frame_ref {
	const char *s;
	size_t n;
};

struct topn {
	struct fold *self, *total;
	struct frame_ref *v;
	size_t cap;
	bool per_thread;
	char *buf;
	size_t bufcap;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct frame_ref *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* Add s[0..n) to fold f as a line of its own. */
static int add_frame(struct topn *t, struct fold *f, const char *s, size_t n,
		     uint64_t count)
{
	if (n + 1 > t->bufcap) {
		char *b = realloc(t->buf, n + 1);

		if (!b)
			return -ENOMEM;
		t->buf = b;
		t->bufcap = n + 1;
	}
	memcpy(t->buf, s, n);
	t->buf[n] = 0;
	return fold__add(f, t->buf, count);
}

/* One line's frames: the leaf's self, and each distinct frame's total. */
static int add_line(const char *line, uint64_t count, void *ctx)
{
	struct topn *t = ctx;
	size_t nr = 0, skip = t->per_thread ? 2 : 1, idx = 0;
	const char *p = line, *e;
	int ret = 0;

	for (;; p = e + 1, idx++) {
		e = strchr(p, ';');
		/* --per-container's frame is a root frame too */
		if (idx == 1 && cgroup__is_frame(p, e ? (size_t)(e - p) : 0))
			skip++;
		if (idx >= skip) {
			if (nr == t->cap) {
				size_t cap = t->cap ? t->cap * 2 : 256;
				struct frame_ref *v =
				    realloc(t->v, cap * sizeof(*v));

				if (!v)
					return -ENOMEM;
				t->v = v;
				t->cap = cap;
			}
			t->v[nr].s = p;
			t->v[nr++].n = e ? (size_t)(e - p) : strlen(p);
		}
		if (!e)
			break;
	}
	if (!nr)
		return 0;
	ret = add_frame(t, t->self, t->v[nr - 1].s, t->v[nr - 1].n, count);
	qsort(t->v, nr, sizeof(*t->v), ref_cmp);
	for (size_t i = 0; !ret && i < nr; i++)
		if (!i || ref_cmp(&t->v[i - 1], &t->v[i]))
			ret =
			    add_frame(t, t->total, t->v[i].s, t->v[i].n, count);
	return ret;
}

struct row {
	char *frame;
	uint64_t self;
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static int collect(const char *line, uint64_t count, void *ctx)
{
	struct rows *r = ctx;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct row *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n].frame = strdup(line); /* line lives only for this call */
	if (!r->v[r->n].frame)
		return -ENOMEM;
	r->v[r->n++].self = count;
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->frame, y->frame);
}

static int print(struct topn *t, const struct fold *f, unsigned int n,
		 FILE *out)
{
	uint64_t all = fold__total(f);
	struct rows r = {0};
	int ret = fold__each(t->self, collect, &r);

	if (ret)
		goto out;
	qsort(r.v, r.n, sizeof(*r.v), row_cmp);
	fprintf(out,
		"# %" PRIu64 " samples, %zu stacks; top %u frames by "
		"self samples\n#\n#  Self%%  Total%%  Frame\n",
		all, fold__lines(f), n < r.n ? n : (unsigned int)r.n);
	for (size_t i = 0; i < r.n && i < n; i++) {
		uint64_t total = fold__count(t->total, r.v[i].frame);

		fprintf(out, "%7.2f%% %6.2f%%  %s\n",
			all ? 100.0 * r.v[i].self / all : 0.0,
			all ? 100.0 * total / all : 0.0, r.v[i].frame);
	}
	fprintf(out, "#\n# the whole profile as folded stacks: -o FILE, or "
		     "stdout to a pipe or file\n");
	if (fflush(out) || ferror(out))
		ret = -EIO;
out:
	for (size_t i = 0; i < r.n; i++)
		free(r.v[i].frame);
	free(r.v);
	return ret;
}

int topn__write(const struct fold *f, bool per_thread, unsigned int n,
		FILE *out)
{
	struct topn t = {.per_thread = per_thread};
	int ret = -ENOMEM;

	t.self = fold__new();
	t.total = fold__new();
	if (t.self && t.total) {
		ret = fold__each(f, add_line, &t);
		ret = ret ?: print(&t, f, n, out);
	}
	fold__free(t.self);
	fold__free(t.total);
	free(t.v);
	free(t.buf);
	return ret;
}
