/*
 * probe_count: the table of `mixprof -e ... --count`: per probed method
 * (one agent site) its call count since it was probed, refreshed from
 * the agent's `counts` reply, printed at the end as
 * "METHOD TOTAL CALLS_PER_S", biggest total first. Pure (no I/O but the
 * FILE given to print), so unit tests drive it.
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
 * ignored. 0 or -ENOMEM. Shaped as a probectl_count_fn's body.
 */
int probe_count__set(struct probe_count *t, unsigned site, uint64_t count,
		     const char *name);

/* Calls of every method together. */
uint64_t probe_count__total(const struct probe_count *t);
/* Methods in the table. */
unsigned probe_count__methods(const struct probe_count *t);

/*
 * The table over secs seconds: a header line, then one line per method,
 * biggest total first (then by name). 0 or -EIO when writing failed.
 */
int probe_count__print(struct probe_count *t, FILE *out, double secs);

#endif
