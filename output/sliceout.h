/*
 * sliceout: where folded lines go. One struct fold per slice (the whole
 * run is slice 0 without -i); a finished slice is written and freed, so
 * memory holds only the slices still being drained. With -i, slice i goes
 * to DIR/slice-NNNN.folded and DIR/slices.tsv lists them all at the end.
 */
#ifndef MIXPROF_SLICEOUT_H
#define MIXPROF_SLICEOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "stacks/fold.h"
#include "timebase.h"

struct sliceout;

/*
 * tb is the run's time base (kept by pointer: start_ns is set later).
 * path: the output file (NULL: stdout) or, with tb->slice_ns, the
 * directory (created if missing). Opens it now, so a bad path fails
 * before profiling. Files are made as common/safefile.h says (no link
 * followed, nothing written outside the directory); a refused slice file
 * is said on stderr naming it. NULL and errno (safefile__strerror words it).
 */
struct sliceout *sliceout__new(const struct timebase *tb, const char *path);
/*
 * The same without any file (no slices): lines are counted and dropped,
 * for a run whose result is rendered instead (--svg without -o).
 */
struct sliceout *sliceout__new_discard(const struct timebase *tb);
void sliceout__free(struct sliceout *so);

struct pprof_meta;
/*
 * Write gzipped profile.proto (pprof/pprof.h) instead of folded text:
 * slice files are DIR/slice-NNNN.pb.gz; each file's time and duration
 * are its slice's. m is copied; its strings must outlive so.
 */
void sliceout__pprof(struct sliceout *so, const struct pprof_meta *m);
struct jfr_meta;
/* Write JFR recordings (jfr/jfr.h) instead: the same, slice-NNNN.jfr. */
void sliceout__jfr(struct sliceout *so, const struct jfr_meta *m);

/*
 * Write the whole run as a top-N table of frames (topn.h) instead of its
 * folded lines: for a terminal. per_thread: lines carry a thread.
 */
#define SLICEOUT_TOP_N 25
void sliceout__top(struct sliceout *so, bool per_thread);

/*
 * Text (folded lines, the top-N table) without the JIT tiers: every
 * "_[0]" and "_[1]" frame written "_[j]" (jvm/jframe.h: what
 * flamegraph.pl --color=java colours green), lines that become the same
 * merged. pprof and JFR keep them (a JFR frame's type is its tier).
 */
void sliceout__untier(struct sliceout *so);

/*
 * Count the stack whose frames l holds (count samples) in slice idx,
 * kept by its frames (fold__add_frames). 0 or negative errno.
 */
int sliceout__add(struct sliceout *so, uint64_t idx, const struct fold_line *l,
		  uint64_t count);
/*
 * The events behind its count (sample_count.events), kept only for a
 * pprof meta with events_type (its second value); else ignored. 0 or
 * negative errno.
 */
int sliceout__add_events(struct sliceout *so, uint64_t idx,
			 const struct fold_line *l, uint64_t events);

/*
 * Write every slice that ends at or before done_ns. 0 or -errno. A write
 * error is printed here, once, naming the file (not for EPIPE on stdout:
 * its reader left), and sticks: later flushes and finish return it
 * without writing.
 */
int sliceout__flush(struct sliceout *so, uint64_t done_ns);

/* Write the rest for a run that ended at end_ns, and slices.tsv. */
int sliceout__finish(struct sliceout *so, uint64_t end_ns);

/* Samples counted so far. */
uint64_t sliceout__total(const struct sliceout *so);

/*
 * Samples whose slice file was written whole (without a file: counted,
 * as they went to the renderers).
 */
uint64_t sliceout__written(const struct sliceout *so);

/* Distinct lines held in memory, in slices not written yet. */
uint64_t sliceout__lines(const struct sliceout *so);

/* 0, or the first write error (-errno), already reported. */
int sliceout__error(const struct sliceout *so);

#endif
