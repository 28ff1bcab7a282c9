/*
 * topn: the frames with the most self samples, as text (see topn.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "stacks/fold.h"
#include "topn.h"

struct topn {
	struct fold *self, *total;
	struct fold_frame *v;
	size_t cap;
	bool per_thread;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct fold_frame *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Add frame r to fold f as a line of its own. */
static int add_frame(struct fold *f, const struct fold_frame *r, uint64_t count)
{
	uint32_t end = r->len;

	return fold__add_frames(f, r->text, &end, r->t, 1, count);
}

/*
 * One line's frames: the leaf's self, and each distinct frame's total.
 * The root frames (process, container, thread) are not counted.
 */
static int add_line(const struct fold_frame *fr, uint32_t n, uint64_t count,
		    void *ctx)
{
	struct topn *t = ctx;
	uint32_t skip = t->per_thread ? 2 : 1, nr;
	int ret;

	/* --per-container's frame is a root frame too */
	if (n > 2 && fr[1].t->kind == FOLD_CONTAINER)
		skip++;
	if (n <= skip)
		return 0;
	nr = n - skip;
	if (array__grow((void **)&t->v, &t->cap, nr, sizeof(*t->v)))
		return -ENOMEM;
	memcpy(t->v, fr + skip, nr * sizeof(*t->v));
	ret = add_frame(t->self, &t->v[nr - 1], count);
	qsort(t->v, nr, sizeof(*t->v), ref_cmp);
	for (uint32_t i = 0; !ret && i < nr; i++)
		if (!i || ref_cmp(&t->v[i - 1], &t->v[i]))
			ret = add_frame(t->total, &t->v[i], count);
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
		ret = fold__each_frames(f, add_line, &t);
		ret = ret ?: print(&t, f, n, out);
	}
	fold__free(t.self);
	fold__free(t.total);
	free(t.v);
	return ret;
}
