/*
 * run_lock: --lock's part of a sampling run (run_cpu.c calls it): the
 * JVM's lock view read (locknames.h) and the probes attached, at the
 * start for -p, as soon as the launched JVM's tables are read for a
 * command; j.u.c. locks from when their base class is loaded; the
 * summary's first line.
 */
#ifndef MIXPROF_RUN_LOCK_H
#define MIXPROF_RUN_LOCK_H

#include <stdint.h>

struct run;

/* At the start: 0, or a negative errno (reported). */
int run_lock__start(struct run *r);
/* Every tick: 0, or a negative errno (reported; the run ends). */
int run_lock__tick(struct run *r);
/* The summary's first line. */
void run_lock__summary(struct run *r, const uint64_t *st, double secs);
void run_lock__free(struct run *r);

#endif
