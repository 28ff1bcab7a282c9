/*
 * timebase: the time arithmetic of a run. BPF counts samples in buckets of
 * bucket_ns since start_ns (CLOCK_MONOTONIC); a slice is slice_ns long, a
 * whole number of buckets, so every bucket and every sample falls in
 * exactly one slice. Pure functions, no I/O.
 */
#ifndef MIXPROF_OUTPUT_TIMEBASE_H
#define MIXPROF_OUTPUT_TIMEBASE_H

#include <stdbool.h>
#include <stdint.h>

struct timebase {
	uint64_t start_ns; /* CLOCK_MONOTONIC at bucket 0 */
	uint64_t bucket_ns;
	uint64_t slice_ns; /* 0: the whole run is slice 0 */
};

/* Absolute end of bucket b (its samples are all earlier). */
uint64_t timebase__bucket_end(const struct timebase *tb, uint64_t b);

/* Bucket b can be drained at now_ns: it ended at least guard_ns ago. */
bool timebase__bucket_done(const struct timebase *tb, uint64_t b,
			   uint64_t now_ns, uint64_t guard_ns);

/*
 * The first bucket not done at now_ns (timebase__bucket_done): every
 * bucket below it is.
 */
uint64_t timebase__done_below(const struct timebase *tb, uint64_t now_ns,
			      uint64_t guard_ns);

/* The slice holding bucket b. */
uint64_t timebase__slice_of(const struct timebase *tb, uint64_t b);

/* Number of slices for a run that ended at end_ns (at least 1). */
uint64_t timebase__nr_slices(const struct timebase *tb, uint64_t end_ns);

/*
 * Absolute bounds of slice idx for a run that ended at end_ns: the last
 * slice stops at end_ns and is partial when that is before its full
 * length. Returns true when the slice is partial.
 */
bool timebase__slice_bounds(const struct timebase *tb, uint64_t idx,
			    uint64_t end_ns, uint64_t *s, uint64_t *e);

/*
 * Samples freq Hz on nr_cpus CPUs take in ns nanoseconds: whole seconds
 * and the rest apart, then times the CPUs, saturating at UINT64_MAX
 * (freq x CPUs x ns in one product overflows 64 bits with an hour at
 * 100 kHz on 52 CPUs).
 */
uint64_t timebase__samples_in(uint64_t freq, uint32_t nr_cpus, uint64_t ns);

#endif
