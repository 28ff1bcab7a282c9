/*
 * run_probe: `mixprof -e PATTERN`: probes the map agent puts into one JVM
 * (launched, or -p), each call counted by the agent (--count) or its stack
 * taken at the agent's USDT probe. The connection is probes_run.h's.
 */
#ifndef MIXPROF_RUN_PROBE_H
#define MIXPROF_RUN_PROBE_H

#include <stdbool.h>
#include <stdint.h>

struct run;

/*
 * Let a launched command go, connect to its agent (or -p's), attach to the
 * USDT probe (stacks), add the probes (r->pr). 0 or a negative errno,
 * reported; -EINVAL when the agent refused a pattern.
 */
int run_probe__start(struct run *r);
/*
 * The summary's first line, from the sampler's stats st over secs: true
 * when that is all (--count), false when the sample summary goes on.
 */
bool run_probe__summary(struct run *r, const uint64_t *st, double secs);
/* --count --format pprof: the table as a pprof profile into r->table. */
int run_probe__pprof(struct run *r);

#endif
