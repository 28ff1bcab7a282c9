/*
 * evline: one line of a mixprof --events file (events/evlog.h: "start_ns
 * end_ns kind detail", tab-separated), as the heat map and the montage
 * read it. The file is mixprof's, but read back: every field is checked.
 */
#ifndef MIXPROF_FG_EVLINE_H
#define MIXPROF_FG_EVLINE_H

#include <stdbool.h>
#include <stdint.h>

struct fg_evline {
	uint64_t t0, t1; /* CLOCK_MONOTONIC ns, t1 >= t0 */
	const char *kind, *detail; /* into the line */
	int tier; /* a compile's or deopt's "tier=N", else 0 */
};

/*
 * line (its newline removed, tabs cut) into *e: true when it parses and
 * its kind is one the pictures draw (gc, safepoint, compile, deopt).
 */
bool evline__parse(char *line, struct fg_evline *e);

#endif
