/*
 * probes_run: the agent side of a probe run (`mixprof -e`): connect to
 * the JVM's probe control socket (attach/probectl.h), add one probe per
 * -e pattern, poll the call counts, and close, which makes the agent
 * remove every probe. Errors are printed here, once, naming the pid or
 * the pattern; the functions return 0 or -errno.
 */
#ifndef MIXPROF_PROBES_RUN_H
#define MIXPROF_PROBES_RUN_H

#include <stdbool.h>
#include "probe_count.h"

struct probes_run_cfg {
	int pid; /* the JVM, as the host sees it */
	const char *const *patterns; /* -e, as given */
	int nr_patterns;
	bool stacks; /* arm the USDT probe for the sites */
	bool wait; /* keep patterns matching no loaded class yet (launch) */
};

struct probes_run;

/*
 * Connect, trying for up to timeout_ms while the socket is not there yet
 * (a JVM starting with the agent); give_up(arg), asked every 100 ms,
 * ends the wait early (the target died, a signal came). -ENOENT: no agent
 * socket (the message says whether pid is a JVM at all), -EINTR: gave up.
 */
int probes_run__open(const struct probes_run_cfg *cfg, int timeout_ms,
		     bool (*give_up)(void *arg), void *arg,
		     struct probes_run **out);

/*
 * Add every pattern. -EINVAL: the agent refused a pattern as malformed;
 * -ENOENT: one matches no method; else -errno. The first failure stops.
 */
int probes_run__add(struct probes_run *pr);

/* A JVM launched with MIXPROF_JMAP_HOLD waits in VMInit until told to go
 * (agent/control.h): after the adds, let main run. 0 or -errno. */
int probes_run__go(struct probes_run *pr);

/* Methods probed by the adds. */
unsigned probes_run__sites(const struct probes_run *pr);

/* Read the counts into the table (probes_run__table). 0 or -errno; a
 * lost connection (the JVM exited) is -EPIPE and keeps the last counts. */
int probes_run__poll(struct probes_run *pr);
struct probe_count *probes_run__table(struct probes_run *pr);

/* Ask which calls still run replaced method versions (agent/replaced.h).
 * Asked with every counts poll, so calls that return are dropped and
 * those left at the end (reported by probes_run__end) ran all along;
 * without polls (-p in stack mode) only the end asks, and a method
 * entered again at the same depth passes for one that never returned. */
void probes_run__watch(struct probes_run *pr);

/* Name the calls still in replaced method versions (stderr), then close
 * the connection now (the agent removes the instrumentation); the
 * table stays. */
void probes_run__end(struct probes_run *pr);
/* End, and free the table. NULL ok. When the JVM has ended (killed: it
 * could not), its control socket is removed if it is a socket of the
 * JVM's user. */
void probes_run__close(struct probes_run *pr);

#endif
