/*
 * draw: what the SVG, HTML and montage writers share (internal to
 * flamegraph/): the page geometry and a frame's colour.
 */
#ifndef MIXPROF_FG_DRAW_H
#define MIXPROF_FG_DRAW_H

#include "diff.h"
#include "render.h"

#define FG_XPAD 10 /* left and right margin, pixels */
#define FG_FONT 12 /* label font size, pixels */

const char *opts__title(const struct fg_opts *o);
double opts__plot_width(const struct fg_opts *o);
/* The fewest samples a frame needs to be drawn, from o->minwidth. */
double opts__min_samples(const struct fg_opts *o, uint64_t total);
/* 0xRRGGBB of node id; d is only read for diff graphs. */
uint32_t opts__frame_color(const struct fg_tree *t, uint32_t id,
			   const struct fg_opts *o, const struct fg_diff *d);

#endif
