/*
 * probe_count: per-method call counts of a probe run (probe_count.h).
 * A handful of methods is the common case; a linear array keyed by site
 * is enough even for a wide wildcard (thousands of sites, one lookup per
 * site per poll).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "common/safename.h"
#include "probe_count.h"

struct row {
	unsigned site;
	uint64_t count;
	char *name; /* made safe: the table's */
	char *raw; /* as the JVM wrote it: the writers make it safe */
	/* it was called between these polls: from the one before its
	 * first calls were seen to the one that saw its last (0: unknown) */
	uint64_t from_ns, to_ns;
};

struct probe_count {
	struct row *rows;
	unsigned nr, cap;
	unsigned last; /* index of the last site set: replies come in order */
	uint64_t prev_ns, now_ns; /* the last two probe_count__tick()s */
};

struct probe_count *probe_count__new(void)
{
	return calloc(1, sizeof(struct probe_count));
}

void probe_count__free(struct probe_count *t)
{
	unsigned i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++) {
		free(t->rows[i].name);
		free(t->rows[i].raw);
	}
	free(t->rows);
	free(t);
}

static struct row *find(struct probe_count *t, unsigned site)
{
	unsigned i;

	if (t->last < t->nr && t->rows[t->last].site == site)
		return &t->rows[t->last];
	for (i = 0; i < t->nr; i++)
		if (t->rows[i].site == site) {
			t->last = i + 1;
			return &t->rows[i];
		}
	return NULL;
}

void probe_count__tick(struct probe_count *t, uint64_t now_ns)
{
	t->prev_ns = t->now_ns ? t->now_ns : now_ns;
	t->now_ns = now_ns;
}

/* count calls seen at this poll: the window they fall in grows. */
static void seen(struct probe_count *t, struct row *r, uint64_t count)
{
	if (count <= r->count)
		return;
	if (!r->count)
		r->from_ns = t->prev_ns;
	r->to_ns = t->now_ns;
	r->count = count;
}

int probe_count__set(struct probe_count *t, unsigned site, uint64_t count,
		     const char *name)
{
	struct row *r = find(t, site), *n;

	if (r) {
		t->last = r - t->rows + 1;
		seen(t, r, count);
		return 0;
	}
	if (t->nr == t->cap) {
		unsigned cap = t->cap ? t->cap * 2 : 16;

		n = realloc(t->rows, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->rows = n;
		t->cap = cap;
	}
	r = &t->rows[t->nr];
	/* the JVM wrote it: kept made safe, as the table shows it */
	r->name = malloc(SAFENAME_SIZE(strlen(name)));
	r->raw = strdup(name);
	if (!r->name || !r->raw) {
		free(r->name);
		free(r->raw);
		return -ENOMEM;
	}
	safename__copy(r->name, SAFENAME_SIZE(strlen(name)), name, strlen(name),
		       0);
	r->site = site;
	r->count = 0;
	r->from_ns = r->to_ns = 0;
	seen(t, r, count);
	t->nr++;
	t->last = t->nr;
	return 0;
}

uint64_t probe_count__total(const struct probe_count *t)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < t->nr; i++)
		sum += t->rows[i].count;
	return sum;
}

unsigned probe_count__methods(const struct probe_count *t)
{
	return t->nr;
}

/* Biggest first; compared, not subtracted (counts are 64-bit). */
static int by_total(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

int probe_count__each(const struct probe_count *t,
		      int (*fn)(const char *name, uint64_t count, void *ctx),
		      void *ctx)
{
	int ret = 0;

	for (unsigned i = 0; !ret && i < t->nr; i++)
		ret = fn(t->rows[i].raw, t->rows[i].count, ctx);
	return ret;
}

/* Calls per second while r was being called; secs when not known. */
static double rate(const struct row *r, double secs)
{
	double window =
	    r->to_ns > r->from_ns ? (r->to_ns - r->from_ns) / 1e9 : secs;

	return window > 0 ? r->count / window : 0.0;
}

int probe_count__print(struct probe_count *t, FILE *out, double secs)
{
	int w = 6; /* "METHOD"; names set the column, however long */
	unsigned i;

	qsort(t->rows, t->nr, sizeof(*t->rows), by_total);
	t->last = 0;
	for (i = 0; i < t->nr; i++)
		if ((int)strlen(t->rows[i].name) > w)
			w = (int)strlen(t->rows[i].name);
	fprintf(out, "%-*s %14s %14s\n", w, "METHOD", "TOTAL", "CALLS_PER_S");
	for (i = 0; i < t->nr; i++)
		fprintf(out, "%-*s %14" PRIu64 " %14.1f\n", w, t->rows[i].name,
			t->rows[i].count, rate(&t->rows[i], secs));
	return fflush(out) || ferror(out) ? -EIO : 0;
}
