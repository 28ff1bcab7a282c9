/*
 * timebase: bucket and slice arithmetic (see timebase.h).
 */
#include "common/nsec.h"
#include "timebase.h"

uint64_t timebase__bucket_end(const struct timebase *tb, uint64_t b)
{
	return tb->start_ns + (b + 1) * tb->bucket_ns;
}

bool timebase__bucket_done(const struct timebase *tb, uint64_t b,
			   uint64_t now_ns, uint64_t guard_ns)
{
	return timebase__bucket_end(tb, b) + guard_ns <= now_ns;
}

uint64_t timebase__done_below(const struct timebase *tb, uint64_t now_ns,
			      uint64_t guard_ns)
{
	/* bucket b is done when start + (b + 1) * bucket_ns + guard <= now */
	if (!tb->bucket_ns || now_ns < tb->start_ns + guard_ns)
		return 0;
	return (now_ns - tb->start_ns - guard_ns) / tb->bucket_ns;
}

uint64_t timebase__slice_of(const struct timebase *tb, uint64_t b)
{
	if (!tb->slice_ns)
		return 0;
	return b * tb->bucket_ns / tb->slice_ns;
}

uint64_t timebase__nr_slices(const struct timebase *tb, uint64_t end_ns)
{
	uint64_t len;

	if (!tb->slice_ns || end_ns <= tb->start_ns)
		return 1;
	len = end_ns - tb->start_ns;
	return (len + tb->slice_ns - 1) / tb->slice_ns;
}

bool timebase__slice_bounds(const struct timebase *tb, uint64_t idx,
			    uint64_t end_ns, uint64_t *s, uint64_t *e)
{
	uint64_t len = tb->slice_ns;

	if (!len) /* one slice: the run */
		len = end_ns > tb->start_ns ? end_ns - tb->start_ns : 0;
	*s = tb->start_ns + idx * len;
	*e = *s + len;
	if (*e > end_ns && end_ns >= *s) {
		*e = end_ns;
		return true;
	}
	return false;
}

uint64_t timebase__samples_in(uint64_t freq, uint32_t nr_cpus, uint64_t ns)
{
	uint64_t per_cpu, all;

	if (__builtin_mul_overflow(freq, ns / NSEC_PER_SEC, &per_cpu) ||
	    __builtin_add_overflow(
		per_cpu, freq * (ns % NSEC_PER_SEC) / NSEC_PER_SEC, &per_cpu) ||
	    __builtin_mul_overflow(per_cpu, (uint64_t)nr_cpus, &all))
		return UINT64_MAX;
	return all;
}
