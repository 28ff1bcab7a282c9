/*
 * timedout: the timed-samples file of a heat map run (--heatmap), in the
 * format flamegraph/timed.h reads:
 *
 *	# mixprof-timed v1 bucket_ms=10 start_ns=N
 *	OFFSET_MS comm;frame;...;frame COUNT
 *
 * OFFSET_MS is the start of the line's time bucket in ms since the
 * profile's start (bucket * bucket_ms). The drain takes a bucket whole, so
 * lines are held per bucket until timedout__flush(), which writes the held
 * buckets in time order, each bucket's lines sorted and merged: one line
 * per (bucket, stack).
 */
#ifndef MIXPROF_TIMEDOUT_H
#define MIXPROF_TIMEDOUT_H

#include <stdint.h>
#include <stdio.h>
#include "timebase.h"

struct timedout;

/*
 * Write into out, created by the caller now (so a bad path fails before
 * profiling); owned from here on, closed by finish or free. tb is the
 * run's time base, kept by pointer: start_ns is set later, and the header
 * is written with the first flush. NULL and errno (out then closed).
 */
struct timedout *timedout__new(const struct timebase *tb, FILE *out);
/* Closes the file if timedout__finish() did not. Accepts NULL. */
void timedout__free(struct timedout *to);

/* Count line (count samples) in bucket. 0 or -ENOMEM. */
int timedout__add(struct timedout *to, uint64_t bucket, const char *line,
		  uint64_t count);

/* Write the held buckets, oldest first. 0 or -errno. */
int timedout__flush(struct timedout *to);

/* Flush and close the file. 0 or -errno (-EIO: a write failed). */
int timedout__finish(struct timedout *to);

#endif
