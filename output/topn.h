/*
 * topn: a profile as a short text table, for a terminal (perf report
 * --stdio's habit, async-profiler's -o flat): the frames with the most
 * self samples (the leaf), each with its total (samples whose stack holds
 * it, counted once per stack however deep the recursion). The process
 * and thread elements of a line are not frames. Pure: a fold in, text out.
 */
#ifndef MIXPROF_TOPN_H
#define MIXPROF_TOPN_H

#include <stdbool.h>
#include <stdio.h>

struct fold;

/* The top n frames of f to out. 0 or -errno. */
int topn__write(const struct fold *f, bool per_thread, unsigned int n,
		FILE *out);

#endif
