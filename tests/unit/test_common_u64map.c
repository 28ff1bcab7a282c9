/*
 * u64map: filter removes exactly the entries its keep says no to, in
 * tables whose probe runs wrap around their end, and what stays is found.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "common/u64map.h"

#define N 5000

static bool keep_odd(uint64_t key, void *val, void *ctx)
{
	(void)ctx;
	if (key & 1)
		return true;
	free(val);
	return false;
}

/* keys from a xorshift: they collide as real hashes do (sequential keys
 * spread too evenly to make runs) */
static uint64_t key_of(uint64_t k)
{
	uint64_t x = k * 0x2545f4914f6cdd1dULL + 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return x ? x : 1;
}

static void test_filter(void)
{
	struct u64map m = {};
	size_t found = 0, wrong = 0, odd = 0;
	bool added;

	/* 5,000 keys in 16,384 slots: runs, some past the end */
	for (uint64_t k = 1; k <= N; k++) {
		void **slot = u64map__add(&m, key_of(k), &added);

		CHECK(slot && added);
		odd += key_of(k) & 1;
		if (slot)
			*slot = malloc(8);
	}
	CHECK_INT(m.n, N);
	CHECK_INT(u64map__filter(&m, keep_odd, NULL), N - odd);
	CHECK_INT(m.n, odd);
	for (size_t i = 0; i < m.cap; i++)
		if (m.keys[i])
			wrong += !(m.keys[i] & 1);
	CHECK_INT(wrong, 0);
	for (uint64_t k = 1; k <= N; k++) {
		if (key_of(k) & 1)
			found += u64map__find(&m, key_of(k)) != NULL;
	}
	CHECK_INT(found, m.n);
	CHECK_INT(u64map__filter(&m, keep_odd, NULL), 0);
	u64map__clear(&m, free);
	u64map__release(&m);
}

int main(void)
{
	test_filter();
	return check_report();
}
