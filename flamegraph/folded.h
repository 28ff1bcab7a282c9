/*
 * folded: reading folded-stack text ("frame;...;frame COUNT", root first)
 * into a frame tree. Accepts mixprof's annotated lines, bcc's,
 * async-profiler's collapsed output and stackcollapse-perf.pl's: the count
 * is the token after the last space or tab, so frames may hold spaces.
 *
 * Bad lines are skipped and counted, never fatal; the caller reports them
 * once (folded__report). A differential "stack BEFORE AFTER" line (the
 * output of difffolded.pl) is read when two_counts is set.
 *
 * A gzipped profile.proto (pprof: mixprof's own -o x.pb.gz, or another
 * tool's) is read too, told from folded text by the gzip magic of its
 * first byte: each sample becomes one line (pprof/pprof.h).
 */
#ifndef MIXPROF_FG_FOLDED_H
#define MIXPROF_FG_FOLDED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "tree.h"

/*
 * Split one line (len bytes, no newline needed) into its stack and count.
 * Returns 0 with *stack_len and *count set, 1 for a blank or '#' comment
 * line (ignore it), or a negative errno: -EINVAL no count, -ERANGE a bad
 * or too large count, -ENODATA an empty stack. *why names the problem.
 */
int folded__parse_line(const char *line, size_t len, size_t *stack_len,
		       uint64_t *count, const char **why);

/* Same, for "stack BEFORE AFTER"; falls back to one count as AFTER. */
int folded__parse_line2(const char *line, size_t len, size_t *stack_len,
			uint64_t *before, uint64_t *after, const char **why);

struct fg_load_stats {
	uint64_t lines; /* lines read */
	uint64_t used; /* lines added to the tree */
	uint64_t skipped; /* bad lines */
	uint64_t first_bad; /* line number of the first bad line */
	const char *why; /* what was wrong with it */
};

struct fg_load_opts {
	int slot; /* FG_SLOT_VALUE or FG_SLOT_BASE */
	bool reverse; /* add stacks leaf first */
	bool two_counts; /* "stack BEFORE AFTER" lines */
};

/*
 * Add every line of in to t. 0, or -ENOMEM, or -errno from reading.
 * Skipped lines are counted in *st (zeroed first), not printed.
 */
int folded__load(struct fg_tree *t, FILE *in, const struct fg_load_opts *o,
		 struct fg_load_stats *st);

/*
 * Open path ("-" is stdin), load it, print any problem once on stderr
 * naming path ("mixprof: in.folded: 3 lines skipped (no count, first at
 * line 7)"). 0 or -errno; -ENODATA when nothing usable was read.
 */
int folded__load_path(struct fg_tree *t, const char *path,
		      const struct fg_load_opts *o);

/*
 * Open path for reading ("-" is stdin, shown as "<stdin>"); *shown gets
 * the name to print. NULL and errno on failure, reported on stderr.
 */
FILE *folded__open_input(const char *path, const char **shown);

/*
 * Print the outcome of loading shown once on stderr: the loader's error
 * err, else the lines skipped, else none when no line was used (an empty
 * input passes when empty_ok). Returns err, -ENODATA or 0.
 */
int folded__report(const char *shown, int err, const struct fg_load_stats *st,
		   const char *none, bool empty_ok);

#endif
