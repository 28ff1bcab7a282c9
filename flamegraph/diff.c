/*
 * diff: delta arithmetic for differential graphs.
 */
#include <math.h>
#include "diff.h"

double diff__delta(const struct fg_diff *d, const struct fg_node *n)
{
	return (double)n->total[FG_SLOT_VALUE] -
	       d->scale * (double)n->total[FG_SLOT_BASE];
}

void diff__init(struct fg_diff *d, const struct fg_tree *t, bool normalize)
{
	const struct fg_node *root = tree__node(t, 0), *n;
	size_t i, nr = tree__nr_nodes(t);
	double v;

	d->scale = 1;
	if (normalize && root->total[FG_SLOT_BASE])
		d->scale = (double)root->total[FG_SLOT_VALUE] /
			   root->total[FG_SLOT_BASE];
	d->max_delta = 0;
	/* The root's delta is the change of the total: not a frame's. */
	for (i = 1; i < nr; i++) {
		n = tree__node(t, i);
		if (!n->total[FG_SLOT_VALUE])
			continue;
		v = fabs(diff__delta(d, n));
		if (v > d->max_delta)
			d->max_delta = v;
	}
}
