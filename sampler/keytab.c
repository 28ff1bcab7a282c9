/*
 * keytab: user space's count of keys (keytab.h), on common/u64map: the
 * map's key is a hash of the whole sample key, its value the chain of the
 * entries whose keys hash alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/hash.h"
#include "keytab.h"

/* An entry as held: the caller's view, then the chain. */
struct keytab_node {
	struct keytab_ent ent;
	struct keytab_node *next;
};

void keytab__init(struct keytab *t)
{
	memset(t, 0, sizeof(*t));
	t->pending = UINT64_MAX;
}

/* A hash of the whole key, never 0 (u64map's empty key). */
static uint64_t key_hash(const struct sample_key *k)
{
	uint64_t w[sizeof(*k) / 8], h = 0;

	memcpy(w, k, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		h = hash__mix(h ^ w[i]) + i;
	return h ? h : 1;
}

static struct keytab_node *chain_find(struct keytab_node *x,
				      const struct sample_key *k)
{
	while (x && memcmp(&x->ent.key, k, sizeof(*k)))
		x = x->next;
	return x;
}

int keytab__add(struct keytab *t, const struct sample_key *k, uint64_t n,
		uint64_t events, bool *added)
{
	struct keytab_node *x;
	void **slot;
	bool fresh;

	*added = false;
	if (!k->pid)
		return -EINVAL;
	slot = u64map__add(&t->map, key_hash(k), &fresh);
	if (!slot)
		return -ENOMEM;
	x = chain_find(*slot, k);
	if (!x) {
		x = calloc(1, sizeof(*x));
		if (!x) {
			if (fresh) /* no empty chain left behind */
				u64map__del(&t->map, key_hash(k));
			return -ENOMEM;
		}
		x->ent.key = *k;
		x->next = *slot;
		*slot = x;
		t->n++;
		*added = true;
		if (k->bucket < t->pending)
			t->pending = k->bucket;
	}
	x->ent.n += n;
	x->ent.events += events;
	return 0;
}

const struct keytab_ent *keytab__find(const struct keytab *t,
				      const struct sample_key *k)
{
	void **slot;
	struct keytab_node *x;

	if (!k->pid || !(slot = u64map__find(&t->map, key_hash(k))))
		return NULL;
	x = chain_find(*slot, k);
	return x ? &x->ent : NULL;
}

/* keytab__take's pass over the chains. */
struct take {
	struct keytab *t;
	uint64_t done_below;
	struct keytab_ent *out; /* room for every entry held */
	size_t n; /* moved */
	uint64_t pending; /* the oldest bucket left */
};

/* Move chain's done entries out; keep the chain while any is left. */
static bool take_chain(uint64_t hash, void *chain, void *ctx)
{
	struct take *tk = ctx;
	struct keytab_node *head = chain, **p = &head, *x;

	while ((x = *p)) {
		if (x->ent.key.bucket >= tk->done_below) {
			if (x->ent.key.bucket < tk->pending)
				tk->pending = x->ent.key.bucket;
			p = &x->next;
			continue;
		}
		tk->out[tk->n++] = x->ent;
		*p = x->next;
		free(x);
	}
	if (!head)
		return false;
	/* its head may have gone: the slot holds the new one */
	*u64map__find(&tk->t->map, hash) = head;
	return true;
}

long keytab__take(struct keytab *t, uint64_t done_below,
		  struct keytab_ent **out, size_t *cap)
{
	struct take tk = {t, done_below, NULL, 0, UINT64_MAX};

	if (t->pending >= done_below)
		return 0;
	/* room for all of them: a count first would be a pass more */
	if (t->n > *cap) {
		struct keytab_ent *o = realloc(*out, t->n * sizeof(*o));

		if (!o)
			return -ENOMEM;
		*out = o;
		*cap = t->n;
	}
	tk.out = *out;
	u64map__filter(&t->map, take_chain, &tk);
	t->n -= tk.n;
	t->pending = tk.pending;
	return tk.n;
}

static void free_chain(void *chain)
{
	struct keytab_node *x = chain, *next;

	for (; x; x = next) {
		next = x->next;
		free(x);
	}
}

void keytab__release(struct keytab *t)
{
	u64map__clear(&t->map, free_chain);
	u64map__release(&t->map);
	keytab__init(t);
}
