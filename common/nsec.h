/*
 * nsec: nanosecond units and the monotonic clock every run measures time
 * with (BPF's bpf_ktime_get_ns is CLOCK_MONOTONIC too, so stamps taken on
 * both sides compare).
 */
#ifndef MIXPROF_COMMON_NSEC_H
#define MIXPROF_COMMON_NSEC_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t nsec__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

#endif
