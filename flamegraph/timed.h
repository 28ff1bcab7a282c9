/*
 * timed: timed samples for the heat map. Each line is
 *
 *	OFFSET_MS comm;frame;...;frame COUNT
 *
 * OFFSET_MS is the start of the sample's bucket in milliseconds since the
 * profile started; the rest is a folded line (folded.h). '#' lines are
 * comments, except that "# mixprof-timed v1 bucket_ms=10 start_ns=N"
 * (any order, unknown keys ignored) sets the bucket length and start.
 *
 * Stacks go into one frame tree; a sample points at its stack's last
 * node, so the page can rebuild any selection's graph from parent links.
 */
#ifndef MIXPROF_FG_TIMED_H
#define MIXPROF_FG_TIMED_H

#include <stdint.h>
#include <stdio.h>
#include "folded.h"
#include "tree.h"

struct fg_tsample {
	uint64_t ms; /* bucket start, ms since the profile start */
	uint32_t node; /* the stack's leaf in tree */
	uint64_t count;
};

struct fg_timed {
	struct fg_tree *tree; /* owned */
	struct fg_tsample *samples;
	size_t nr, cap;
	uint64_t bucket_ms; /* 10 unless the header says otherwise */
	uint64_t start_ns; /* 0 when unknown */
	uint64_t total; /* samples of all lines */
};

struct fg_timed *timed__new(void); /* NULL and errno on failure */
void timed__free(struct fg_timed *tm);

/*
 * One line (len bytes). 0 when added, 1 when ignored (blank, comment,
 * header), else negative with *why set: -EINVAL/-ERANGE bad offset or
 * count, -ENODATA empty stack; -ENOMEM.
 */
int timed__parse_line(struct fg_timed *tm, const char *line, size_t len,
		      const char **why);

/* Every line of in; bad lines counted in *st. 0, -ENOMEM or -EIO. */
int timed__load(struct fg_timed *tm, FILE *in, struct fg_load_stats *st);

/* Open path ("-" is stdin) and load it; problems printed once naming it.
 * -ENODATA when no line was usable. */
int timed__load_path(struct fg_timed *tm, const char *path);

#endif
