/*
 * run_child: `mixprof -- COMMAND`: the command is forked held (launch.h),
 * added to the BPF targets, and let go by the run's start once sampling
 * (or the probes' connection) is in place.
 */
#ifndef MIXPROF_RUN_CHILD_H
#define MIXPROF_RUN_CHILD_H

struct run;

/*
 * Fork r->o.cmd held, with the map agent when r->o.attach (and, for -e,
 * MIXPROF_JMAP_HOLD so its agent waits for our probes), and make it a
 * target. Sets r->launched. 0 or a negative errno (fork's is reported).
 */
int run_child__launch(struct run *r);
/* Its unwind rows while its loader maps libraries (~20 ms, after go):
 * its files' rows built before its samples ask (unwind/loader.h). */
void run_child__rows(struct run *r);
/*
 * Read it as a JVM as soon as its tables are there (jvms__launched),
 * every EARLY_MS in its first seconds while r->child_early, so its first
 * Java frames are walked as a JVM's (not "[unwind: not identified yet]"
 * until the drain sees its samples); its unwind table asked for at the
 * same pace, so libjvm.so's mapping (dlopen'ed) is in it at once.
 * Clears r->child_early when done.
 */
void run_child__identify(struct run *r);
/* Collect its exit without waiting: sets r->child_done, r->child_status. */
void run_child__reap(struct run *r);
/* Say on stderr how it ended (or that it still runs). */
void run_child__report(struct run *r);
/* The run's exit status: the command's (128 + N for a signal), else 0. */
int run_child__exit_status(const struct run *r);

#endif
