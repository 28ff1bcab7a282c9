/*
 * run_cpu: a sampling run (CPU, --off-cpu, --wall, --alloc).
 */
#ifndef MIXPROF_RUN_CPU_H
#define MIXPROF_RUN_CPU_H

struct run;

/*
 * Start sampling: unwind rows of the running targets first (a bounded
 * wait), r->tb.start_ns stamped, perf events (or --alloc's uprobes)
 * attached, the start line said, a launched command let go. 0 or a
 * negative errno, reported.
 */
int run_cpu__start(struct run *r);
/* On a terminal, about once a second: the live status line. */
void run_cpu__status(struct run *r);

#endif
