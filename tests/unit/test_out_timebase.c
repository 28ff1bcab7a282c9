/*
 * Unit tests: bucket and slice arithmetic (timebase.c): every bucket in
 * exactly one slice, slices tile the run, the last one is partial.
 */
#include "check.h"
#include "output/timebase.h"

#define MS 1000000ULL
#define S 1000000000ULL

static void test_buckets(void)
{
	struct timebase tb = {.start_ns = 1000 * S, .bucket_ns = S};

	CHECK_INT(timebase__bucket_end(&tb, 0), 1001 * S);
	CHECK_INT(timebase__bucket_end(&tb, 4), 1005 * S);
	CHECK(!timebase__bucket_done(&tb, 0, 1001 * S, 50 * MS));
	CHECK(!timebase__bucket_done(&tb, 0, 1001 * S + 49 * MS, 50 * MS));
	CHECK(timebase__bucket_done(&tb, 0, 1001 * S + 50 * MS, 50 * MS));
	/* the drain takes the buckets below done_below: those done */
	for (uint64_t now = 990 * S; now < 1010 * S; now += 7 * MS) {
		uint64_t d = timebase__done_below(&tb, now, 50 * MS);
		int bad = 0;

		for (uint64_t b = 0; b < 12; b++)
			bad += timebase__bucket_done(&tb, b, now, 50 * MS) !=
			       (b < d);
		CHECK_INT(bad, 0);
	}
	CHECK_INT(timebase__slice_of(&tb, 7), 0); /* no slicing */
	CHECK_INT(timebase__nr_slices(&tb, 2000 * S), 1);
}

static void test_slices(void)
{
	struct timebase tb = {
	    .start_ns = 5 * S, .bucket_ns = 500 * MS, .slice_ns = 500 * MS};
	uint64_t s, e, prev_end = tb.start_ns, i, end = 8 * S + 200 * MS;
	bool partial;

	CHECK_INT(timebase__slice_of(&tb, 3), 3);
	CHECK_INT(timebase__nr_slices(&tb, end), 7);
	for (i = 0; i < 7; i++) {
		partial = timebase__slice_bounds(&tb, i, end, &s, &e);
		CHECK_INT(s, prev_end); /* they tile */
		CHECK_INT(partial, i == 6);
		prev_end = e;
	}
	CHECK_INT(prev_end, end);
	/* an exact multiple: no partial slice, none empty at the end */
	CHECK_INT(timebase__nr_slices(&tb, 8 * S), 6);
	CHECK(!timebase__slice_bounds(&tb, 5, 8 * S, &s, &e));
	CHECK_INT(e, 8 * S);
}

static void test_slices_of_buckets(void)
{
	/* 1.5 s slices of 0.5 s buckets: buckets 0-2 in slice 0, 3-5 in 1 */
	struct timebase tb = {
	    .start_ns = 0, .bucket_ns = 500 * MS, .slice_ns = 1500 * MS};
	uint64_t b, s, e;

	for (b = 0; b < 30; b++) {
		uint64_t idx = timebase__slice_of(&tb, b);

		timebase__slice_bounds(&tb, idx, UINT64_MAX, &s, &e);
		CHECK(b * tb.bucket_ns >= s);
		CHECK(timebase__bucket_end(&tb, b) <= e);
	}
	CHECK_INT(timebase__slice_of(&tb, 2), 0);
	CHECK_INT(timebase__slice_of(&tb, 3), 1);
}

static void test_whole_run(void)
{
	struct timebase tb = {.start_ns = 10 * S, .bucket_ns = S};
	uint64_t s, e;

	CHECK(timebase__slice_bounds(&tb, 0, 13 * S, &s, &e) == false);
	CHECK_INT(s, 10 * S);
	CHECK_INT(e, 13 * S);
}

/* Counted by hand: an hour and a bit at 100 kHz on 256 CPUs. */
static void test_samples_in(void)
{
	CHECK_INT(timebase__samples_in(99, 2, 2 * S), 396);
	CHECK_INT(timebase__samples_in(99, 1, S / 2), 49);
	CHECK_INT(timebase__samples_in(100000, 256, 3601 * S + S / 2),
		  3601 * 100000LL * 256 + 50000LL * 256);
	CHECK(timebase__samples_in(100000, 1 << 20, UINT64_MAX / 2) ==
	      UINT64_MAX);
	CHECK_INT(timebase__samples_in(1, 0, 5 * S), 0);
}

int main(void)
{
	test_buckets();
	test_slices();
	test_slices_of_buckets();
	test_whole_run();
	test_samples_in();
	return check_report();
}
