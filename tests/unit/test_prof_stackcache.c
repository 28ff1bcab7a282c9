/*
 * Unit tests: u64map (adds, finds, backward-shift deletes against a
 * reference model over many random operations), stackcache (a stack is
 * fetched once, deleted in the kernel once its keys are taken, and
 * forgotten a read later) and keytab, user space's count of keys (adds
 * against a reference model over many random keys and buckets; takes of
 * done buckets: each key once, with its whole count, the rest kept).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "sampler/keytab.h"
#include "sampler/stackcache.h"
#include "common/u64map.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Random adds and deletes over a small key space, checked against an
 * array: collisions and wrap-around runs happen often. */
static void test_u64map_model(void)
{
	enum { KEYS = 300 };
	static bool in[KEYS + 1];
	struct u64map m = {0};
	size_t n = 0, bad = 0;
	bool added;

	for (int op = 0; op < 200000; op++) {
		uint64_t k = 1 + next() % KEYS;
		void **slot;

		if (next() % 3) {
			slot = u64map__add(&m, k, &added);
			if (!slot || added == in[k])
				bad++;
			if (added)
				*slot = (void *)(uintptr_t)k;
			n += added;
			in[k] = true;
		} else {
			void *v = u64map__del(&m, k);

			if ((v != NULL) != in[k] ||
			    (v && v != (void *)(uintptr_t)k))
				bad++;
			n -= in[k];
			in[k] = false;
		}
	}
	CHECK_INT(bad, 0);
	CHECK_INT(m.n, n);
	for (uint64_t k = 1; k <= KEYS; k++) {
		void **slot = u64map__find(&m, k);

		if ((slot != NULL) != in[k] ||
		    (slot && *slot != (void *)(uintptr_t)k))
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK(u64map__find(&m, 0) == NULL);
	u64map__release(&m);
}

static void test_stackcache(void)
{
	struct stackcache *c = stackcache__new();
	const uint64_t ips[3] = {0x401000, 0x402000, 0x403000}, *got, *out;
	struct u64map none = {0}, held = {0};
	bool added;
	long n;

	CHECK(c != NULL);
	if (!c)
		return;
	stackcache__begin(c); /* read 1: key 7 is new, used in bucket 5 */
	CHECK_INT(stackcache__touch(c, 7, 5), 0);
	CHECK_INT(stackcache__put(c, 7, ips, 3, 5), 0);
	CHECK_INT(stackcache__sweep(c, UINT64_MAX, &none, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);
	CHECK(got[2] == 0x403000);

	stackcache__begin(c); /* read 2: a new key of bucket 6 uses it */
	CHECK_INT(stackcache__touch(c, 7, 6), 1);
	CHECK_INT(stackcache__sweep(c, UINT64_MAX, &none, &out), 0);

	stackcache__begin(c); /* read 3: bucket 6's key not taken: kept */
	CHECK_INT(stackcache__sweep(c, 5, &none, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);

	stackcache__begin(c); /* read 4: a late sample's key shows it */
	CHECK_INT(stackcache__touch(c, 7, 7), 1);
	CHECK_INT(stackcache__sweep(c, 6, &none, &out), 0);

	stackcache__begin(c); /* read 5: all its keys taken: delete there */
	n = stackcache__sweep(c, 7, &none, &out);
	CHECK_INT(n, 1);
	CHECK(n == 1 && out[0] == 7);
	CHECK_INT(stackcache__get(c, 7, &got), 3); /* one read longer */

	stackcache__begin(c); /* read 6: a key shows it again: kept */
	CHECK_INT(stackcache__touch(c, 7, 8), 1);
	CHECK_INT(stackcache__sweep(c, 7, &none, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);

	/* reads 7 and 8: bucket 8 taken, but a wait open holds it (its
	 * stacks are used by no key until it ends): neither offered nor
	 * forgotten */
	CHECK(u64map__add(&held, 7, &added) != NULL);
	stackcache__begin(c);
	CHECK_INT(stackcache__sweep(c, 8, &held, &out), 0);
	stackcache__begin(c);
	CHECK_INT(stackcache__sweep(c, 8, &held, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);

	stackcache__begin(c); /* read 9: the wait ended: delete again */
	CHECK_INT(stackcache__sweep(c, 8, &none, &out), 1);
	stackcache__begin(c); /* read 10: forgotten */
	CHECK_INT(stackcache__sweep(c, 8, &none, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), -ENOENT);
	CHECK_INT(stackcache__size(c), 0);
	u64map__release(&held);
	stackcache__free(c);
}

enum { TAB_KEYS = 500, BUCKETS = 8 };

/* key i of the model: keys that differ in one field only, comm too */
static struct sample_key key_of(unsigned i)
{
	struct sample_key k = {.pid = 100 + i % 3,
			       .user_stack = i % 7 + 2,
			       .kern_stack = i % 5,
			       .bucket = i % BUCKETS,
			       .interp_id = i % 11};

	k.tid = i / (3 * 7 * 5 * 11);
	k.comm[0] = 'a' + i % 2;
	return k;
}

static void test_keytab_model(void)
{
	static uint64_t n[TAB_KEYS], ev[TAB_KEYS];
	struct keytab t;
	struct keytab_ent *out = NULL;
	size_t cap = 0, held = 0, bad = 0;
	bool added;

	keytab__init(&t);
	CHECK(t.pending == UINT64_MAX);
	for (int op = 0; op < 100000; op++) {
		unsigned i = next() % TAB_KEYS;
		struct sample_key k = key_of(i);

		if (keytab__add(&t, &k, 1 + i % 4, i % 2, &added) ||
		    added != !n[i])
			bad++;
		held += added;
		n[i] += 1 + i % 4;
		ev[i] += i % 2;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(t.n, held);
	CHECK_INT(t.pending, 0);
	/* buckets below 3 taken: each such key once, with all it got */
	long got = keytab__take(&t, 3, &out, &cap);
	size_t want = 0;

	for (unsigned i = 0; i < TAB_KEYS; i++)
		want += n[i] && key_of(i).bucket < 3;
	CHECK_INT(got, want);
	for (long j = 0; j < got; j++) {
		unsigned i;

		for (i = 0; i < TAB_KEYS; i++) {
			struct sample_key k = key_of(i);

			if (!memcmp(&k, &out[j].key, sizeof(k)))
				break;
		}
		if (i == TAB_KEYS || !n[i] || out[j].n != n[i] ||
		    out[j].events != ev[i] || out[j].key.bucket >= 3)
			bad++;
		else
			n[i] = 0; /* twice: bad */
	}
	CHECK_INT(bad, 0);
	CHECK_INT(t.pending, 3);
	CHECK_INT(t.n, held - want);
	/* the rest still there, with their counts */
	for (unsigned i = 0; i < TAB_KEYS; i++) {
		struct sample_key k = key_of(i);
		const struct keytab_ent *e = keytab__find(&t, &k);

		if ((e != NULL) != (n[i] != 0) || (e && e->n != n[i]))
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(keytab__take(&t, 3, &out, &cap), 0); /* none done */
	CHECK_INT(keytab__take(&t, UINT64_MAX, &out, &cap), held - want);
	CHECK_INT(t.n, 0);
	CHECK(t.pending == UINT64_MAX);
	/* a key without a pid is no key */
	struct sample_key z = {0};

	CHECK_INT(keytab__add(&t, &z, 1, 0, &added), -EINVAL);
	keytab__release(&t);
	free(out);
}

int main(void)
{
	test_u64map_model();
	test_stackcache();
	test_keytab_model();
	return check_report();
}
