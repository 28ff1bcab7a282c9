/*
 * run_probe: `mixprof -e PATTERN`, as a run_mode (run.h): probes the map
 * agent puts into one JVM (launched, or -p), each call counted by the
 * agent (--count) or its stack taken at the agent's USDT probe. The
 * connection is probes_run.h's.
 *
 * Its start lets a launched command go, connects to its agent (or -p's),
 * attaches to the USDT probe (stacks), then adds the probes (r->pr), so
 * no call goes uncounted: 0 or a negative errno, reported; -EINVAL when
 * the agent refused a pattern. Its ticks poll the counts, its stop takes
 * the last ones and removes the probes, its write is --count's table
 * (text or pprof).
 */
#ifndef MIXPROF_RUN_PROBE_H
#define MIXPROF_RUN_PROBE_H

#include "run.h"

extern const struct run_mode run_probe_mode;

#endif
