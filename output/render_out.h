/*
 * render_out: what a profile run renders besides its folded text, with
 * the flamegraph/ writers (render.h):
 *
 *	--svg FILE, --html FILE	the whole run's flame graph, from a frame
 *				tree every drained stack's frames are
 *				added to
 *	--heatmap DIR		DIR/samples.timed as the run drains
 *				(timedout.h), then DIR/heatmap.html from it
 *	--montage DIR		a graph per slice and DIR/index.html, from
 *				the slice files sliceout wrote into DIR
 *
 * Output files are created by renderout__new(), so a bad path fails
 * before profiling; they are filled by renderout__finish(). Both print
 * their own errors naming the file (several files are involved).
 */
#ifndef MIXPROF_RENDER_OUT_H
#define MIXPROF_RENDER_OUT_H

#include <stdint.h>
#include "stacks/fold.h"
#include "timebase.h"

struct render_cfg {
	const char *svg, *html; /* whole-run graph files, or NULL */
	const char *heatmap; /* directory (created), or NULL */
	const char *montage; /* slice directory, or NULL */
	const char *countname; /* what a count is ("us off-CPU"); NULL:
				* samples */
	bool blue; /* off-CPU graphs' palette (flamegraph.pl --color=io) */
	bool red; /* --lock's: contention as heat (flamegraph.pl --color=red) */
	const char *events; /* --events FILE, drawn on the heat map; or NULL */
};

struct renderout;

/*
 * NULL and errno on failure, the problem printed. tb is the run's time
 * base, kept by pointer (start_ns is set later).
 */
struct renderout *renderout__new(const struct render_cfg *cfg,
				 const struct timebase *tb);
void renderout__free(struct renderout *ro); /* accepts NULL */

/* Count stack s (count samples, drained from bucket). 0 or -errno. */
int renderout__add(struct renderout *ro, uint64_t bucket,
		   const struct fold_stack *s, uint64_t count);

/*
 * After each drain: write the timed lines drained so far. 0 or -errno; an
 * error is printed once, naming the file, and returned again after.
 */
int renderout__flush(struct renderout *ro);

/* 0, or samples.timed's write error, already reported (ro may be NULL). */
int renderout__error(const struct renderout *ro);

/*
 * Write everything, after the run's last drain and after sliceout has
 * written the slices. title and subtitle head every page (subtitle may be
 * NULL; a montage's slice graphs get their time range instead). Every
 * output is attempted; 0 or the first -errno.
 */
int renderout__finish(struct renderout *ro, const char *title,
		      const char *subtitle);

#endif
