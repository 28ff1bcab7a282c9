/*
 * run_setup: the steps before a run starts, in profile.c's order. Each
 * reports its own failure on stderr, naming the input, and returns 0 or a
 * negative errno; what it builds is freed by profile.c's teardown.
 */
#ifndef MIXPROF_RUN_SETUP_H
#define MIXPROF_RUN_SETUP_H

#include <stddef.h>

struct run;

/* Every -p target exists; a thread id is replaced by its process's. */
int run_setup__pids(struct run *r);
/*
 * A --stack-depth deeper than kernel.perf_event_max_stack: say that
 * kernel stacks are cut at the sysctl, which mixprof never changes
 * (sampler/maxstack.h).
 */
void run_setup__depth(const struct run *r);
/* Load the BPF sampler (r->smp) and add the -p targets with their rows. */
int run_setup__bpf(struct run *r);
/* The symbolizer, the targets and stackfold (r->sym, r->pids, r->sf). */
int run_setup__naming(struct run *r);
/*
 * The outputs, created before the run so a bad path fails at once: the
 * folded text or slices (r->out, with pprof or a terminal's top-N
 * table), the status lines, the graphs' files (r->ro), --count's table
 * (r->table). Sets r->tb's bucket and slice lengths.
 */
int run_setup__outputs(struct run *r);

#endif
