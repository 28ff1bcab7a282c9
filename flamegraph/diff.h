/*
 * diff: the numbers behind a differential graph's colours. A frame's delta
 * is its AFTER total (slot 0) minus its BEFORE total (slot 1), BEFORE
 * scaled to AFTER's sample total when normalising, so two profiles of
 * different lengths compare by share rather than by count.
 */
#ifndef MIXPROF_FG_DIFF_H
#define MIXPROF_FG_DIFF_H

#include <stdbool.h>
#include "tree.h"

struct fg_diff {
	double scale; /* applied to BEFORE counts */
	double max_delta; /* largest |delta| of any drawn frame */
};

/* Scale and max |delta| over every frame with AFTER samples. */
void diff__init(struct fg_diff *d, const struct fg_tree *t, bool normalize);
double diff__delta(const struct fg_diff *d, const struct fg_node *n);

#endif
