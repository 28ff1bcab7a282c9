/*
 * status: what a run says on stderr while it runs. A start line names
 * the target, the rate and how the run ends ("mixprof: profiling java
 * (pid 1234) at 99 Hz for 30 s; Ctrl-C to stop"), so a long run does not
 * look hung; on a terminal a one-line status (elapsed, samples, lost)
 * is redrawn at most once a second and cleared before anything else is
 * printed at the end. -q says none of it. Writes to the FILE given, so
 * tests read it back.
 */
#ifndef MIXPROF_STATUS_H
#define MIXPROF_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct status {
	FILE *out;
	bool quiet, live; /* live: out is a terminal */
	bool shown; /* a status line is on screen */
	uint64_t last_ns; /* when it was drawn */
};

/* live: redraw a status line (out is a terminal). */
void status__init(struct status *s, FILE *out, bool quiet, bool live);
/*
 * The start line: what (e.g. "java (pid 1234)"), Hz (0: not sampling),
 * the duration (0:
 * until the target ends or Ctrl-C; ends_alone: a target that can end).
 */
void status__start(struct status *s, const char *what, uint64_t hz,
		   uint64_t duration_ns, bool ends_alone);
/* Redraw the status line if live and a second passed since the last. */
void status__tick(struct status *s, uint64_t elapsed_ns, uint64_t samples,
		  uint64_t lost);
/* Clear the status line, if one is shown (before other output). */
void status__clear(struct status *s);

#endif
