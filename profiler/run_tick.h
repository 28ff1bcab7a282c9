/*
 * run_tick: the work of one tick of a run, called by profile.c's loop and
 * once more at the end (r->final: every bucket, every process refreshed).
 */
#ifndef MIXPROF_RUN_TICK_H
#define MIXPROF_RUN_TICK_H

struct run;

/*
 * Drain the buckets that ended GUARD_NS ago (all of them when r->final)
 * into the outputs, naming their stacks; flush what the outputs hold.
 * 0, or the first negative errno of the sampler or a writer (r->err).
 */
int run_tick__drain(struct run *r);
/* Tail the JIT maps of the live processes (all of them when r->full). */
void run_tick__refresh(struct run *r);
/* Forget the processes and JIT lines no waiting sample can need. */
void run_tick__expire(struct run *r);
/* Reload the unwind rows of processes with recent samples if changed. */
void run_tick__unwind(struct run *r);

#endif
