/*
 * fold: folded-stack lines ("comm;frame;...;frame count"), the text every
 * flame graph tool reads, and their aggregation.
 *
 * A line is built root first from resolved frames; with annotation on,
 * frame kinds get the suffixes flamegraph.pl --color=java reads:
 * FRAME_JAVA "_[j]" (a perf map does not tell C1 from C2), FRAME_INTERP
 * "_[0]", FRAME_INLINED "_[i]", FRAME_KERNEL "_[k]" (as async-profiler;
 * compiled frames named from the JVM carry "_[1]" for C1, jframe.h);
 * others stay plain (C++ keeps its "::", which the palette colours
 * yellow). Names pushed are made safe (common/safename.h: control
 * characters and invalid UTF-8 as "\xNN") and a ';' inside one becomes
 * ':', so a name can never split a line nor write to a terminal.
 *
 * struct fold maps line -> count; fold__write() prints lines sorted
 * bytewise, so two runs diff cleanly. It keeps each line as the ids of
 * its frames (a run's stacks come with their frames, fold__add_frames;
 * a line read as text is split at its ';'), each frame's text once: a line
 * handed out (fold__each) is rebuilt and lives only for that call. Even
 * its const calls use the object's scratch space: one thread at a time.
 */
#ifndef MIXPROF_FOLD_H
#define MIXPROF_FOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "symbolizer/symbolizer.h"

/*
 * A line under construction; reuse one across samples (fold_line__reset).
 * It knows where its frames are: frame i is buf[start .. ends[i]), start
 * being 0 or ends[i - 1] + 1 (past the ';'), so no reader of the line has
 * to split its text again.
 */
struct fold_line {
	char *buf;
	size_t len, cap;
	uint32_t *ends;
	uint32_t n, ncap; /* frames */
	bool annotate;
};

/*
 * One named stack, as the run's sinks get it (stackfold.h): its frames
 * and whose samples they are. Text is made for the writers; the filters
 * and the graph read frames and ids.
 */
struct fold_stack {
	const struct fold_line *line;
	uint32_t pid, tid;
	int thread; /* the thread's frame ("NAME [TID]", --per-thread), or -1 */
	uint32_t thread_name; /* the length of its NAME */
	uint32_t carrier; /* a virtual thread's ("virtual-ID on CARRIER"):
			   * where CARRIER starts in NAME; 0 otherwise */
};

void fold_line__init(struct fold_line *l, bool annotate);
void fold_line__reset(struct fold_line *l);
void fold_line__release(struct fold_line *l);
/* Append one frame (a ';' goes before all but the first). 0 or -ENOMEM. */
int fold_line__push(struct fold_line *l, const struct frame *f);
/*
 * Append frames already folded (len bytes, "a;b_[j]"; none if 0): text
 * safename__copy(SAFENAME_FOLD) made, not checked again (jvm/jstacks.h's
 * compiled chains), whose frames are told apart by their ';'.
 */
int fold_line__append(struct fold_line *l, const char *text, size_t len);
/*
 * Append the n frames of another line's text (len bytes; ends as in
 * struct fold_line, relative to text): a part kept by namecache.h.
 */
int fold_line__append_frames(struct fold_line *l, const char *text, size_t len,
			     const uint32_t *ends, uint32_t n);
/* Append a plain name (comm, "[truncated]", the "-" delimiter). */
int fold_line__push_name(struct fold_line *l, const char *name);
/* Frame i's text (*len bytes, not NUL-terminated); i < l->n. */
const char *fold_line__frame(const struct fold_line *l, uint32_t i,
			     size_t *len);
/* Keep the first n frames only. */
void fold_line__truncate(struct fold_line *l, uint32_t n);
/* Remove frame i, which is not the last. */
void fold_line__drop(struct fold_line *l, uint32_t i);

struct fold;
struct fold *fold__new(void); /* NULL and errno on failure */
void fold__free(struct fold *f);
/*
 * Add count to line (NUL-terminated, without the count): a line read as
 * text, split at its ';'. 0 or -ENOMEM.
 */
int fold__add(struct fold *f, const char *line, uint64_t count);
/*
 * Add count to the line of n (> 0) frames ending at ends in text (as
 * struct fold_line has them): a run's own stacks, not split again. 0,
 * -EINVAL (no frame) or -ENOMEM.
 */
int fold__add_frames(struct fold *f, const char *text, const uint32_t *ends,
		     uint32_t n, uint64_t count);
/* Merge every line of src into dst. */
int fold__merge(struct fold *dst, const struct fold *src);
/* The count of line (0 when absent). */
uint64_t fold__count(const struct fold *f, const char *line);
uint64_t fold__total(const struct fold *f);
size_t fold__lines(const struct fold *f);
/*
 * fn on each line and its count, sorted as fold__write writes them; stops
 * at fn's non-zero return and returns it. 0 or -ENOMEM. The line is valid
 * only during fn's call.
 */
int fold__each(const struct fold *f,
	       int (*fn)(const char *line, uint64_t count, void *ctx),
	       void *ctx);
/* One frame of a line kept in a struct fold: len bytes of text. */
struct fold_frame {
	const char *text;
	uint32_t len;
};
/*
 * fn on each line's n frames (root first) and its count, in no order:
 * for readers of frames (the top-N table), no text is rebuilt nor split.
 * Stops at fn's non-zero return and returns it; 0 or -ENOMEM. The frames
 * are valid only during fn's call.
 */
int fold__each_frames(const struct fold *f,
		      int (*fn)(const struct fold_frame *fr, uint32_t n,
				uint64_t count, void *ctx),
		      void *ctx);
/* Write "line count\n" for each line, sorted. 0 or -errno. */
int fold__write(const struct fold *f, FILE *out);

#endif
