/*
 * render: mixprof's flame graph, montage and heat map writers, and the
 * subcommands that drive them. The profiler calls the writers directly
 * (mixprof -p PID --svg out.svg); the subcommands read files.
 *
 * Typical use from C:
 *
 *	struct fg_tree *t = tree__new();		(tree.h)
 *	tree__add(t, "java;main_[j];foo_[i]", 21, 5, FG_SLOT_VALUE, false);
 *	struct fg_opts o;
 *	opts__init(&o);
 *	err = flamegraph__write_svg(t, &o, out);
 *	tree__free(t);
 *
 * From the symbolizer's struct fold: fold__write() it into an
 * open_memstream()/fmemopen() buffer and folded__load() that (folded.h).
 *
 * Writers return 0 or a negative errno (-EIO when out failed) and print
 * nothing; the caller names the output in its message. They sort the
 * tree's siblings by name, which is why they take it non-const.
 */
#ifndef MIXPROF_FG_RENDER_H
#define MIXPROF_FG_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include "palette.h"
#include "timed.h"
#include "tree.h"

struct fg_opts {
	const char *title; /* NULL: "Flame Graph" or "Icicle Graph" */
	const char *subtitle; /* NULL: none */
	const char *countname; /* "samples" */
	unsigned int width; /* image width in pixels, 1200 */
	unsigned int frame_height; /* 16 */
	double minwidth; /* frames narrower are left out: pixels, */
	bool minwidth_pct; /* or percent of all samples; 0.1 px */
	bool inverted; /* icicle: root on top */
	bool diff; /* colour by slot 0 minus slot 1 (BEFORE) */
	bool normalize; /* diff: scale BEFORE to AFTER's total */
	bool thumbnail; /* montage thumbnail: no script, no text */
	enum fg_scheme scheme; /* FG_SCHEME_JAVA */
	/* heat map and montage: lines "start_ns end_ns kind detail"
	 * (mixprof --events, evline.h): gc, safepoint, compile and deopt
	 * drawn over the grid, summed per slice; NULL: none */
	FILE *events;
};

void opts__init(struct fg_opts *o);

/* A standalone interactive SVG (or a bare thumbnail with o->thumbnail). */
int flamegraph__write_svg(struct fg_tree *t, const struct fg_opts *o,
			  FILE *out);
/* A standalone HTML page drawing the graph on a canvas from JSON. */
int flamegraph__write_html(struct fg_tree *t, const struct fg_opts *o,
			   FILE *out);
/*
 * A standalone HTML heat map of timed samples (timed.h): seconds across,
 * 20 ms rows down; selecting a range draws its flame graph below.
 */
int heatmap__write_html(const struct fg_timed *tm, const struct fg_opts *o,
			FILE *out);
/*
 * Render every slice listed in dir/slices.tsv to dir/slice-NNNN.svg (or
 * .html) and write dir/index.html. Prints its own errors naming the file
 * (several files are involved); 0 or -errno.
 */
int montage__write(const char *dir, const struct fg_opts *o, bool html);

/* The subcommands; argv[0] is the subcommand name. Exit status. */
int flamegraph__cmd(int argc, char **argv);
int heatmap__cmd(int argc, char **argv);
int montage__cmd(int argc, char **argv);

#endif
