/*
 * keytab: user space's count of keys (keytab.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/hash.h"
#include "keytab.h"

#define KEYTAB_MIN 1024

void keytab__init(struct keytab *t)
{
	memset(t, 0, sizeof(*t));
	t->pending = UINT64_MAX;
}

static uint64_t key_hash(const struct sample_key *k)
{
	uint64_t w[sizeof(*k) / 8], h = 0;

	memcpy(w, k, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		h = hash__mix(h ^ w[i]) + i;
	return h;
}

/* The slot of k in e (cap slots): its entry, or the empty one it would
 * take. */
static struct keytab_ent *slot_of(struct keytab_ent *e, size_t cap,
				  const struct sample_key *k)
{
	size_t i = key_hash(k) & (cap - 1);

	while (e[i].key.pid && memcmp(&e[i].key, k, sizeof(*k)))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

/* A table of cap slots for t's entries of a bucket from done_below on
 * (0: all), replacing t's. 0 or -ENOMEM (t as it was). */
static int rebuild(struct keytab *t, size_t cap, uint64_t done_below)
{
	struct keytab_ent *e = calloc(cap, sizeof(*e));
	size_t n = 0;

	if (!e)
		return -ENOMEM;
	t->pending = UINT64_MAX;
	for (size_t i = 0; i < t->cap; i++) {
		const struct keytab_ent *x = &t->e[i];

		if (!x->key.pid || x->key.bucket < done_below)
			continue;
		*slot_of(e, cap, &x->key) = *x;
		if (x->key.bucket < t->pending)
			t->pending = x->key.bucket;
		n++;
	}
	free(t->e);
	t->e = e;
	t->cap = cap;
	t->n = n;
	return 0;
}

int keytab__add(struct keytab *t, const struct sample_key *k, uint64_t n,
		uint64_t events, bool *added)
{
	struct keytab_ent *x;

	*added = false;
	if (!k->pid)
		return -EINVAL;
	/* at most half full: probes stay short */
	if ((t->n + 1) * 2 > t->cap &&
	    rebuild(t, t->cap ? t->cap * 2 : KEYTAB_MIN, 0))
		return -ENOMEM;
	x = slot_of(t->e, t->cap, k);
	if (!x->key.pid) {
		x->key = *k;
		t->n++;
		*added = true;
		if (k->bucket < t->pending)
			t->pending = k->bucket;
	}
	x->n += n;
	x->events += events;
	return 0;
}

const struct keytab_ent *keytab__find(const struct keytab *t,
				      const struct sample_key *k)
{
	const struct keytab_ent *x;

	if (!t->cap || !k->pid)
		return NULL;
	x = slot_of(t->e, t->cap, k);
	return x->key.pid ? x : NULL;
}

long keytab__take(struct keytab *t, uint64_t done_below,
		  struct keytab_ent **out, size_t *cap)
{
	size_t done = 0, want = KEYTAB_MIN;

	if (t->pending >= done_below)
		return 0;
	for (size_t i = 0; i < t->cap; i++)
		done += t->e[i].key.pid && t->e[i].key.bucket < done_below;
	if (done > *cap) {
		struct keytab_ent *o = realloc(*out, done * sizeof(*o));

		if (!o)
			return -ENOMEM;
		*out = o;
		*cap = done;
	}
	done = 0;
	for (size_t i = 0; i < t->cap; i++)
		if (t->e[i].key.pid && t->e[i].key.bucket < done_below)
			(*out)[done++] = t->e[i];
	/* the rest in a table at most half full, shrunk when they are few */
	while (want < (t->n - done) * 4)
		want *= 2;
	if (rebuild(t, want, done_below))
		return -ENOMEM;
	return done;
}

void keytab__release(struct keytab *t)
{
	free(t->e);
	keytab__init(t);
}
