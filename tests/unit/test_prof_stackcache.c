/*
 * Unit tests: u64map (adds, finds, backward-shift deletes against a
 * reference model over many random operations) and stackcache (a stack is
 * fetched once, deleted in the kernel once its keys are taken, and
 * forgotten a read later).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
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
	long n;

	CHECK(c != NULL);
	if (!c)
		return;
	stackcache__begin(c); /* read 1: key 7 is new, used in bucket 5 */
	CHECK_INT(stackcache__touch(c, 7, 5), 0);
	CHECK_INT(stackcache__put(c, 7, ips, 3, 5), 0);
	CHECK_INT(stackcache__sweep(c, UINT64_MAX, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);
	CHECK(got[2] == 0x403000);

	stackcache__begin(c); /* read 2: a new key of bucket 6 uses it */
	CHECK_INT(stackcache__touch(c, 7, 6), 1);
	CHECK_INT(stackcache__sweep(c, UINT64_MAX, &out), 0);

	stackcache__begin(c); /* read 3: bucket 6's key not taken: kept */
	CHECK_INT(stackcache__sweep(c, 5, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);

	stackcache__begin(c); /* read 4: a late sample's key shows it */
	CHECK_INT(stackcache__touch(c, 7, 7), 1);
	CHECK_INT(stackcache__sweep(c, 6, &out), 0);

	stackcache__begin(c); /* read 5: all its keys taken: delete there */
	n = stackcache__sweep(c, 7, &out);
	CHECK_INT(n, 1);
	CHECK(n == 1 && out[0] == 7);
	CHECK_INT(stackcache__get(c, 7, &got), 3); /* one read longer */

	stackcache__begin(c); /* read 6: a key shows it again: kept */
	CHECK_INT(stackcache__touch(c, 7, 8), 1);
	CHECK_INT(stackcache__sweep(c, 7, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), 3);

	stackcache__begin(c); /* read 7: bucket 8 taken: delete again */
	CHECK_INT(stackcache__sweep(c, 8, &out), 1);
	stackcache__begin(c); /* read 8: forgotten */
	CHECK_INT(stackcache__sweep(c, 8, &out), 0);
	CHECK_INT(stackcache__get(c, 7, &got), -ENOENT);
	CHECK_INT(stackcache__size(c), 0);
	stackcache__free(c);
}

int main(void)
{
	test_u64map_model();
	test_stackcache();
	return check_report();
}
