/*
 * opts: renderer defaults and the geometry every writer shares.
 */
#include "draw.h"

void opts__init(struct fg_opts *o)
{
	*o = (struct fg_opts){
	    .countname = "samples",
	    .width = 1200,
	    .frame_height = 16,
	    .minwidth = 0.1,
	    .scheme = FG_SCHEME_JAVA,
	};
}

const char *opts__title(const struct fg_opts *o)
{
	if (o->title)
		return o->title;
	if (o->diff)
		return "Differential Flame Graph";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

double opts__plot_width(const struct fg_opts *o)
{
	double w = (double)o->width - 2 * FG_XPAD;

	return w > 1 ? w : 1;
}

double opts__min_samples(const struct fg_opts *o, uint64_t total)
{
	if (o->minwidth_pct)
		return total * o->minwidth / 100.0;
	return total * o->minwidth / opts__plot_width(o);
}

uint32_t opts__frame_color(const struct fg_tree *t, uint32_t id,
			   const struct fg_opts *o, const struct fg_diff *d)
{
	const struct fg_node *n = tree__node(t, id);

	if (o->diff)
		return palette__diff_color(diff__delta(d, n), d->max_delta);
	return palette__color(o->scheme, tree__name(t, n->name));
}
