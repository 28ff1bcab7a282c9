/*
 * nsec: nanosecond units and the monotonic clock every run measures time
 * with (BPF's bpf_ktime_get_ns is CLOCK_MONOTONIC too, so stamps taken on
 * both sides compare).
 */
#ifndef MIXPROF_COMMON_NSEC_H
#define MIXPROF_COMMON_NSEC_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

/* uint64_t, so that a quotient prints with PRIu64 */
#define NSEC_PER_SEC ((uint64_t)1000000000)
#define NSEC_PER_MSEC ((uint64_t)1000000)
#define NSEC_PER_USEC ((uint64_t)1000)

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t nsec__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* A struct timeval (getrusage, wait4) in seconds. */
static inline double nsec__tv_secs(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

#endif
