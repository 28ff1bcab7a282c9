/*
 * slicetab: DIR/slices.tsv, the profiler's list of time slices (-o DIR
 * -i SECS). One line per slice, tab-separated, read by column position:
 *
 *	index  start_ns  end_ns  samples  file  [partial]
 *
 * '#' lines and blank lines are ignored, and so is a first line whose
 * first column is not a number (a header without '#'). Columns past the
 * sixth are ignored, for later versions. partial is 1 for a last slice
 * cut short; missing means 0.
 */
#ifndef MIXPROF_FG_SLICETAB_H
#define MIXPROF_FG_SLICETAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct fg_slice {
	uint64_t index, start_ns, end_ns, samples;
	char *file; /* owned; as written (montage takes plain names only) */
	bool partial;
};

struct fg_slicetab {
	struct fg_slice *v;
	size_t nr, cap;
};

/*
 * One line (len bytes): 0 added, 1 ignored, or negative with *why set
 * (-EINVAL a missing or bad column, -ENOMEM). lineno is 1-based, for the
 * header rule.
 */
int slicetab__parse_line(struct fg_slicetab *st, const char *line, size_t len,
			 unsigned long lineno, const char **why);

/* Every line of in; errors printed naming name and the line. 0 or -errno
 * (-EINVAL at the first bad line: a broken table is not guessed at). */
int slicetab__load(struct fg_slicetab *st, FILE *in, const char *name);

/* Sort slices by start time (then index). */
void slicetab__sort(struct fg_slicetab *st);

void slicetab__release(struct fg_slicetab *st);

#endif
