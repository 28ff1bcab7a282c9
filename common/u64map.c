/*
 * u64map: see u64map.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "u64map.h"

/* The keys are hashes already; mix once more so patterns do not cluster. */
static size_t home(const struct u64map *m, uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ULL;
	return (key >> 17) & (m->cap - 1);
}

void **u64map__find(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->cap || !key)
		return NULL;
	for (i = home(m, key); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return &m->vals[i];
	return NULL;
}

static void put(struct u64map *m, uint64_t key, void *val)
{
	size_t i = home(m, key);

	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = key;
	m->vals[i] = val;
}

/* Double the room (or make the first), rehashing every entry. */
static int grow(struct u64map *m)
{
	struct u64map old = *m;
	size_t cap = m->cap ? m->cap * 2 : 64, i;

	m->keys = calloc(cap, sizeof(*m->keys));
	m->vals = calloc(cap, sizeof(*m->vals));
	if (!m->keys || !m->vals) {
		free(m->keys);
		free(m->vals);
		*m = old;
		return -ENOMEM;
	}
	m->cap = cap;
	for (i = 0; i < old.cap; i++)
		if (old.keys[i])
			put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
	return 0;
}

void **u64map__add(struct u64map *m, uint64_t key, bool *added)
{
	void **slot = u64map__find(m, key);
	size_t i;

	*added = false;
	if (slot || !key)
		return slot;
	/* at most half full: probes stay short */
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return NULL;
	for (i = home(m, key); m->keys[i]; i = (i + 1) & (m->cap - 1))
		;
	m->keys[i] = key;
	m->vals[i] = NULL;
	m->n++;
	*added = true;
	return &m->vals[i];
}

/*
 * Backward shift: after emptying slot i, move later entries of the same
 * probe run back into the hole when their home allows it.
 */
void *u64map__del(struct u64map *m, uint64_t key)
{
	void **slot = u64map__find(m, key), *val;
	size_t i, j, h, mask = m->cap - 1;

	if (!slot)
		return NULL;
	val = *slot;
	i = slot - m->vals;
	for (j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		h = home(m, m->keys[j]);
		/* j's entry may fill the hole unless its home lies in (i, j] */
		if (((j - h) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = 0;
	m->vals[i] = NULL;
	m->n--;
	return val;
}

void u64map__each(const struct u64map *m,
		  void (*fn)(uint64_t key, void *val, void *ctx), void *ctx)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->keys[i])
			fn(m->keys[i], m->vals[i], ctx);
}

size_t u64map__filter(struct u64map *m,
		      bool (*keep)(uint64_t key, void *val, void *ctx),
		      void *ctx)
{
	size_t i = 0, gone = 0;

	/* a removal shifts a later entry of the run into slot i: look at
	 * slot i again; an entry moved from before i (a run that wraps) is
	 * one kept already */
	while (i < m->cap) {
		if (m->keys[i] && !keep(m->keys[i], m->vals[i], ctx)) {
			u64map__del(m, m->keys[i]);
			gone++;
		} else {
			i++;
		}
	}
	return gone;
}

void u64map__clear(struct u64map *m, void (*free_val)(void *))
{
	size_t i;

	for (i = 0; free_val && i < m->cap; i++)
		if (m->keys[i])
			free_val(m->vals[i]);
	if (m->cap) {
		memset(m->keys, 0, m->cap * sizeof(*m->keys));
		memset(m->vals, 0, m->cap * sizeof(*m->vals));
	}
	m->n = 0;
}

void u64map__release(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
