/*
 * probe_count: the table of `mixprof -e ... --count`: per probed method
 * (one agent site) its call count since it was probed, refreshed from
 * the agent's `counts` reply, printed at the end as
 * "METHOD TOTAL CALLS_PER_S", biggest total first, the method column as
 * wide as the longest name. CALLS_PER_S is over the time the method was
 * being called: from the poll before its first calls were seen to the
 * poll that saw its last, so a method called for one second of a minute's
 * run shows its real rate. Pure (no I/O but the FILE given to print, no
 * clock but the times given), so unit tests drive it.
 */
#ifndef MIXPROF_PROBE_COUNT_H
#define MIXPROF_PROBE_COUNT_H

#include <stdint.h>
#include <stdio.h>

struct probe_count;

struct probe_count *probe_count__new(void); /* NULL and errno */
void probe_count__free(struct probe_count *t);

/*
 * Site site (method name, the agent's "pkg/Class.method(DESC)") has
 * count calls now. Counts only grow; a smaller one (never expected) is
 * ignored. 0 or -ENOMEM. Shaped as a probectl_count_fn's body. The
 * name (from the JVM) is kept made safe (common/safename.h), as the
 * table prints it, and as it came, for probe_count__each.
 */
int probe_count__set(struct probe_count *t, unsigned site, uint64_t count,
		     const char *name);

/*
 * A poll at now_ns (CLOCK_MONOTONIC) is about to set the counts; the first
 * tick is the start of the probes (before any call was counted).
 */
void probe_count__tick(struct probe_count *t, uint64_t now_ns);

/*
 * fn on each method (its name as the JVM wrote it, not made safe: a
 * writer does, stacks/fold.h) and its calls; stops at fn's non-zero
 * return.
 */
int probe_count__each(const struct probe_count *t,
		      int (*fn)(const char *name, uint64_t count, void *ctx),
		      void *ctx);

/* Calls of every method together. */
uint64_t probe_count__total(const struct probe_count *t);
/* Methods in the table. */
unsigned probe_count__methods(const struct probe_count *t);

/*
 * The table: a header line, then one line per method, biggest total
 * first (then by name); secs is the whole run, the rate's window for a
 * method whose calls were never seen between two ticks. 0 or -EIO.
 */
int probe_count__print(struct probe_count *t, FILE *out, double secs);

#endif
