/*
 * u64map: an open-addressing hash table from nonzero 64-bit keys (stack
 * keys, interp ids: already hashes) to pointers. Linear probing with
 * backward-shift deletion, so deleting leaves no tombstones and lookups
 * stay short however many keys come and go over a run.
 */
#ifndef MIXPROF_U64MAP_H
#define MIXPROF_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys; /* 0: empty slot */
	void **vals;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

/* The value slot of key (nonzero); NULL when absent. */
void **u64map__find(const struct u64map *m, uint64_t key);
/*
 * The value slot of key, added (value NULL) when absent; *added says
 * which. NULL on ENOMEM. Slots move when the table grows or a key is
 * deleted: use one before the next add or delete.
 */
void **u64map__add(struct u64map *m, uint64_t key, bool *added);
/* Remove key; its value (for the caller to free), or NULL if absent. */
void *u64map__del(struct u64map *m, uint64_t key);
/* Call fn on each entry (no adds or deletes from fn). */
void u64map__each(const struct u64map *m,
		  void (*fn)(uint64_t key, void *val, void *ctx), void *ctx);
/*
 * Remove each entry keep says no to (keep frees its value then); the rest
 * stay. keep may be asked twice about an entry a removal moved. Returns
 * how many were removed.
 */
size_t u64map__filter(struct u64map *m,
		      bool (*keep)(uint64_t key, void *val, void *ctx),
		      void *ctx);
/* Empty the table, keeping its room; free_val (or NULL) on each value. */
void u64map__clear(struct u64map *m, void (*free_val)(void *));
/* Release the table (u64map__clear first for owned values). */
void u64map__release(struct u64map *m);

#endif
