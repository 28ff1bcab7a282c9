/*
 * stackcache: see stackcache.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "stackcache.h"
#include "common/u64map.h"

struct cached {
	uint64_t read; /* the last read that showed it */
	uint64_t bucket; /* the latest bucket of a key using it */
	uint64_t deleted; /* the read that offered it (epoch bumped) */
	bool in_kernel; /* the program may take it as sent */
	uint32_t nr;
	uint64_t ips[];
};

struct stackcache {
	struct u64map m;
	uint64_t read; /* reads so far */
	uint64_t *out, *gone; /* sweep scratch */
	size_t cap;
};

struct stackcache *stackcache__new(void)
{
	return calloc(1, sizeof(struct stackcache));
}

void stackcache__free(struct stackcache *c)
{
	if (!c)
		return;
	u64map__clear(&c->m, free);
	u64map__release(&c->m);
	free(c->out);
	free(c->gone);
	free(c);
}

void stackcache__begin(struct stackcache *c)
{
	c->read++;
}

int stackcache__touch(struct stackcache *c, uint64_t key, uint64_t bucket)
{
	void **slot = u64map__find(&c->m, key);
	struct cached *e;

	if (!slot)
		return 0;
	e = *slot;
	if (bucket > e->bucket)
		e->bucket = bucket;
	if (e->read != c->read) {
		e->read = c->read;
		/* a sample since the epoch bump sent it again */
		e->in_kernel = true;
	}
	return 1;
}

int stackcache__put(struct stackcache *c, uint64_t key, const uint64_t *ips,
		    uint32_t nr, uint64_t bucket)
{
	struct cached *e = malloc(sizeof(*e) + nr * sizeof(*ips));
	void **slot;
	bool added;

	if (!e)
		return -ENOMEM;
	e->read = c->read;
	e->bucket = bucket;
	e->deleted = 0;
	e->in_kernel = true;
	e->nr = nr;
	memcpy(e->ips, ips, nr * sizeof(*ips));
	slot = u64map__add(&c->m, key, &added);
	if (!slot) {
		free(e);
		return -ENOMEM;
	}
	free(*slot);
	*slot = e;
	return 0;
}

int stackcache__get(const struct stackcache *c, uint64_t key,
		    const uint64_t **ips)
{
	void **slot = u64map__find(&c->m, key);
	struct cached *e;

	if (!slot)
		return -ENOENT;
	e = *slot;
	*ips = e->ips;
	return e->nr;
}

struct sweep {
	struct stackcache *c;
	uint64_t taken;
	const struct u64map *held;
	size_t nout, ngone;
};

static void sweep_one(uint64_t key, void *val, void *ctx)
{
	struct sweep *sw = ctx;
	struct cached *e = val;

	if (e->read == sw->c->read || u64map__find(sw->held, key))
		return;
	if (sw->taken == UINT64_MAX || e->bucket > sw->taken)
		return; /* a key not taken yet uses it: new samples may too */
	if (e->in_kernel) {
		e->in_kernel = false;
		e->deleted = sw->c->read;
		sw->c->out[sw->nout++] = key;
	} else if (e->deleted < sw->c->read) {
		sw->c->gone[sw->ngone++] = key;
	}
}

long stackcache__sweep(struct stackcache *c, uint64_t taken,
		       const struct u64map *held, const uint64_t **out)
{
	struct sweep sw = {c, taken, held, 0, 0};
	size_t i;

	if (c->cap < c->m.n) {
		free(c->out);
		free(c->gone);
		c->out = malloc(c->m.n * sizeof(*c->out));
		c->gone = malloc(c->m.n * sizeof(*c->gone));
		c->cap = c->out && c->gone ? c->m.n : 0;
		if (!c->cap)
			return -ENOMEM;
	}
	u64map__each(&c->m, sweep_one, &sw);
	for (i = 0; i < sw.ngone; i++)
		free(u64map__del(&c->m, c->gone[i]));
	*out = c->out;
	return sw.nout;
}

size_t stackcache__size(const struct stackcache *c)
{
	return c->m.n;
}
