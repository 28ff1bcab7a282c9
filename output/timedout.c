/*
 * timedout: the timed-samples file (see timedout.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/nsec.h"
#include "stacks/fold.h"
#include "timedout.h"

struct held {
	uint64_t bucket;
	struct fold *fold;
};

struct timedout {
	const struct timebase *tb; /* the run's, outlives us */
	FILE *out;
	struct held *h; /* buckets not written yet */
	size_t nr, cap;
	bool header; /* written */
};

struct timedout *timedout__new(const struct timebase *tb, FILE *out)
{
	struct timedout *to = calloc(1, sizeof(*to));

	if (!to) {
		fclose(out);
		errno = ENOMEM;
		return NULL;
	}
	to->tb = tb;
	to->out = out;
	return to;
}

static void drop_held(struct timedout *to)
{
	size_t i;

	for (i = 0; i < to->nr; i++)
		fold__free(to->h[i].fold);
	to->nr = 0;
}

void timedout__free(struct timedout *to)
{
	if (!to)
		return;
	drop_held(to);
	if (to->out)
		fclose(to->out);
	free(to->h);
	free(to);
}

/* The fold of bucket b; a drain touches few buckets, newest last. */
static struct fold *held_get(struct timedout *to, uint64_t b)
{
	struct held *h;
	size_t i;

	for (i = to->nr; i-- > 0;)
		if (to->h[i].bucket == b)
			return to->h[i].fold;
	if (to->nr == to->cap) {
		h = realloc(to->h, (to->cap * 2 + 16) * sizeof(*h));
		if (!h)
			return NULL;
		to->h = h;
		to->cap = to->cap * 2 + 16;
	}
	h = &to->h[to->nr];
	h->bucket = b;
	h->fold = fold__new();
	if (!h->fold)
		return NULL;
	to->nr++;
	return h->fold;
}

int timedout__add(struct timedout *to, uint64_t bucket, const char *line,
		  uint64_t count)
{
	struct fold *f = held_get(to, bucket);

	if (!f)
		return -ENOMEM;
	return fold__add(f, line, count);
}

static int cmp_held(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	return x->bucket < y->bucket ? -1 : x->bucket > y->bucket;
}

/* Bucket h's sorted folded lines, each behind its offset. */
static int write_bucket(struct timedout *to, const struct held *h)
{
	uint64_t ms = h->bucket * to->tb->bucket_ns / NSEC_PER_MSEC;
	char *buf = NULL, *p, *nl;
	size_t len = 0;
	FILE *mem;
	int ret;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	ret = fold__write(h->fold, mem);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	for (p = buf; !ret && p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', buf + len - p);
		if (!nl)
			break;
		if (fprintf(to->out, "%" PRIu64 " %.*s\n", ms, (int)(nl - p),
			    p) < 0)
			ret = errno ? -errno : -EIO; /* ENOSPC... */
	}
	free(buf);
	return ret;
}

int timedout__flush(struct timedout *to)
{
	size_t i;
	int ret = 0;

	if (!to->header) {
		fprintf(to->out,
			"# mixprof-timed v1 bucket_ms=%" PRIu64
			" start_ns=%" PRIu64 "\n",
			(uint64_t)(to->tb->bucket_ns / NSEC_PER_MSEC),
			to->tb->start_ns);
		to->header = true;
	}
	if (to->nr) /* qsort wants an array, even of none */
		qsort(to->h, to->nr, sizeof(*to->h), cmp_held);
	for (i = 0; i < to->nr && !ret; i++)
		ret = write_bucket(to, &to->h[i]);
	drop_held(to);
	if (!ret && ferror(to->out))
		ret = -EIO;
	return ret;
}

int timedout__finish(struct timedout *to)
{
	int ret = timedout__flush(to);

	if (fclose(to->out) && !ret)
		ret = -errno;
	to->out = NULL;
	return ret;
}
