/*
 * run_events: --events FILE on a run (events/: HotSpot's USDT probes):
 * attached to the -p JVM or to the launched java before it runs, read
 * every tick, the lines written to FILE as events end, the totals at the
 * end of the summary. Each function does nothing without --events.
 */
#ifndef MIXPROF_RUN_EVENTS_H
#define MIXPROF_RUN_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

struct run;

/* Before the launched command execs: 0 or a negative errno, reported. */
int run_events__start(struct run *r);
/* Every tick: read what came; the first ticks also learn the layout. */
void run_events__tick(struct run *r);
/* After the detach: the last events, the file closed (errors reported):
 * 0 or a negative errno. */
int run_events__stop(struct run *r);
/*
 * --ttsp: whether a bucket [t0, t1) of samples overlaps a time to
 * safepoint (true without --ttsp); the samples left out are counted.
 */
bool run_events__keep(struct run *r, uint64_t t0, uint64_t t1, uint64_t n);
/* The summary's totals. */
void run_events__summary(struct run *r);
void run_events__free(struct run *r);

#endif
