/*
 * keytab: the keys user space counts itself, key -> (samples or weight,
 * events), until their bucket is done: the timed samples the BPF program
 * sends as records (sampler_abi.h, struct sample_rec), and the counts map's
 * keys of a done bucket, added in before the bucket is taken. On
 * common/u64map by a hash of the whole key (keys that hash alike
 * chained); a take moves a done bucket's keys out and leaves the rest.
 */
#ifndef MIXPROF_KEYTAB_H
#define MIXPROF_KEYTAB_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/u64map.h"
#include "sampler_abi.h"

struct keytab_ent {
	struct sample_key key; /* pid 0: an empty slot (no key has it) */
	uint64_t n, events;
};

struct keytab {
	struct u64map map; /* key hash -> its chain of entries */
	size_t n; /* keys held */
	uint64_t pending; /* the oldest bucket held, or UINT64_MAX */
};

/* Empty (cap 0). */
void keytab__init(struct keytab *t);
/*
 * n more of key k, in events more events; *added: k was not held. 0, or
 * -ENOMEM (k not counted); -EINVAL for a key without a pid.
 */
int keytab__add(struct keytab *t, const struct sample_key *k, uint64_t n,
		uint64_t events, bool *added);
/* k's entry, or NULL. */
const struct keytab_ent *keytab__find(const struct keytab *t,
				      const struct sample_key *k);
/*
 * Move every key of a bucket below done_below into out[] (grown as
 * needed: *out, *cap); the rest stay. The number moved, or -ENOMEM
 * (nothing moved).
 */
long keytab__take(struct keytab *t, uint64_t done_below,
		  struct keytab_ent **out, size_t *cap);
void keytab__release(struct keytab *t);

#endif
