/*
 * namecache: see namecache.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "namecache.h"
#include "common/u64map.h"
#include "common/hash.h"

struct namecache {
	struct u64map m; /* hash of the id -> struct part */
	size_t bytes, budget;
	uint64_t *drop; /* sweep scratch */
	size_t ndrop;
};

/* The table key of id: a hash (never 0); parts keep id to check it. */
static uint64_t key_of(const struct part_id *id)
{
	return hash__mix(id->stack ^
			 hash__mix(id->interp_id ^ hash__mix(id->pid))) |
	       1;
}

static bool same_id(const struct part_id *a, const struct part_id *b)
{
	return a->stack == b->stack && a->interp_id == b->interp_id &&
	       a->pid == b->pid;
}

static size_t size_of(const struct part *p)
{
	return sizeof(*p) + p->n * (sizeof(p->ends[0]) + sizeof(p->types[0])) +
	       p->len + 1;
}

size_t namecache__bytes(const struct namecache *nc)
{
	return nc->bytes;
}

struct namecache *namecache__new(size_t budget)
{
	struct namecache *nc = calloc(1, sizeof(*nc));

	if (nc)
		nc->budget = budget;
	return nc;
}

void namecache__free(struct namecache *nc)
{
	if (!nc)
		return;
	u64map__clear(&nc->m, free);
	u64map__release(&nc->m);
	free(nc->drop);
	free(nc);
}

struct part *namecache__get(struct namecache *nc, const struct part_id *id)
{
	void **slot = u64map__find(&nc->m, key_of(id));
	struct part *p;

	if (!slot)
		return NULL;
	p = *slot;
	if (!same_id(&p->id, id))
		return NULL;
	p->used = 1;
	return p;
}

static void note_unused(uint64_t key, void *val, void *ctx)
{
	struct namecache *nc = ctx;
	struct part *p = val;

	if (!p->used)
		nc->drop[nc->ndrop++] = key;
	p->used = 0;
}

/*
 * Over budget: drop the parts not asked for since the last sweep (those
 * named once and never seen again go first); when the rest still fill
 * most of the budget, drop all, so sweeps stay a quarter budget apart.
 */
static void sweep(struct namecache *nc)
{
	uint64_t *d = realloc(nc->drop, nc->m.n * sizeof(*d));
	struct part *p;

	if (!d) {
		nc->ndrop = 0;
		goto all;
	}
	nc->drop = d;
	nc->ndrop = 0;
	u64map__each(&nc->m, note_unused, nc);
	for (size_t i = 0; i < nc->ndrop; i++) {
		p = u64map__del(&nc->m, nc->drop[i]);
		nc->bytes -= size_of(p);
		free(p);
	}
	if (nc->bytes <= nc->budget / 4 * 3)
		return;
all:
	u64map__clear(&nc->m, free);
	nc->bytes = 0;
}

int namecache__put(struct namecache *nc, const struct part_id *id,
		   const uint64_t v[PART_VERSIONS], const struct part_counts *c,
		   const char *text, size_t len, const uint32_t *ends,
		   const struct fold_type *types, uint32_t n)
{
	struct part *p =
	    malloc(sizeof(*p) + n * (sizeof(*ends) + sizeof(*types)) + len + 1);
	void **slot;
	bool added;

	if (!p)
		return -ENOMEM;
	p->id = *id;
	memcpy(p->v, v, sizeof(p->v));
	p->c = *c;
	p->len = len;
	p->n = n;
	p->used = 0; /* until asked for again */
	memcpy(p->ends, ends, n * sizeof(*ends));
	p->types = (struct fold_type *)(p->ends + n);
	memcpy(p->types, types, n * sizeof(*types));
	p->text = (char *)(p->types + n);
	memcpy(p->text, text, len);
	p->text[len] = 0;
	if (nc->bytes + size_of(p) > nc->budget)
		sweep(nc);
	slot = u64map__add(&nc->m, key_of(id), &added);
	if (!slot) {
		free(p);
		return -ENOMEM;
	}
	if (!added) {
		nc->bytes -= size_of(*slot);
		free(*slot);
	}
	*slot = p;
	nc->bytes += size_of(p);
	return 0;
}
