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
 * Each frame carries its type (struct fold_type: kind, where its name
 * ends, a Java frame's class, method, line and, for JFR, bytecode index,
 * a thread's tid), given as
 * it enters the line by whoever named it (the symbolizer's kind, the JVM
 * namer's Java frames with their lines, the head's roles); the writers
 * (pprof, JFR) and the filters read the types, never the text's shape.
 * fold_type__of is the one reader of that shape, for text that comes as
 * text: lines read from files or given as text (tests, fixtures).
 *
 * struct fold maps line -> count; fold__write() prints lines sorted
 * bytewise, so two runs diff cleanly. It keeps each line as the ids of
 * its frames (a run's stacks come with their frames, fold__add_frames;
 * a line read as text is split and typed by fold_line__parse), each
 * frame's text and type once: a line
 * handed out (fold__each) is rebuilt and lives only for that call. Even
 * its const calls use the object's scratch space: one thread at a time.
 */
#ifndef MIXPROF_FOLD_H
#define MIXPROF_FOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "symbolizer/symbolizer.h"

/* What a frame is. */
enum fold_kind {
	FOLD_NATIVE, /* native code; a mark ("[truncated]", "-"); a class */
	FOLD_CPP, /* native code whose name has "::" */
	FOLD_JIT, /* Java, compiled by C2/JVMCI or of tier unknown: "_[j]" */
	FOLD_C1, /* Java, compiled by C1: "_[1]" */
	FOLD_INTERP, /* Java, interpreted: "_[0]" */
	FOLD_INLINED, /* Java, inlined into the frame below: "_[i]" */
	FOLD_KERNEL, /* "_[k]" */
	FOLD_PROCESS, /* the root: the process's name */
	FOLD_CONTAINER, /* "[container ID]" under it (common/cgroup.h) */
	FOLD_THREAD, /* "NAME [TID]" (--per-thread) */
};

static inline bool fold_kind__java(uint32_t k)
{
	return k == FOLD_JIT || k == FOLD_C1 || k == FOLD_INTERP ||
	       k == FOLD_INLINED;
}

/*
 * A frame's type, beside its text: the writers' input. Without
 * annotation a Java frame's text has no suffix, and its kind says
 * FOLD_NATIVE as the text does.
 */
struct fold_type {
	uint32_t kind; /* enum fold_kind */
	/* the name's bytes at the text's start: without the kind's suffix,
	 * a Java frame's ":LINE", a thread's " [TID]" */
	uint32_t name;
	/* a Java frame's method name starts here ("pkg/Cls.m": past the
	 * last '.'; 0: no class); a virtual thread's ("virtual-ID on
	 * CARRIER"): where CARRIER starts; else 0 */
	uint32_t method;
	uint32_t line; /* a Java frame's source line; 0: none */
	uint32_t tid; /* a thread frame's */
	/* 1 + a Java frame's bytecode index, where its namer was asked for
	 * it (JFR's frames: stackfold_cfg.bci); 0: none. Part of the
	 * frame's identity in a struct fold, not of its text */
	uint32_t bci1;
};

/*
 * The type text (len bytes, one frame as folded) shows by its shape: the
 * kind by its suffix (else FOLD_CPP or FOLD_NATIVE), a Java frame's
 * ":LINE" and class. The one reader of a frame's shape; roles (process,
 * container, thread) are the line's (fold_line__parse).
 */
void fold_type__of(const char *text, size_t len, struct fold_type *t);

/*
 * A line under construction; reuse one across samples (fold_line__reset).
 * It knows where its frames are: frame i is buf[start .. ends[i]), start
 * being 0 or ends[i - 1] + 1 (past the ';'), so no reader of the line has
 * to split its text again; and what each is (types[i]).
 */
struct fold_line {
	char *buf;
	size_t len, cap;
	uint32_t *ends;
	struct fold_type *types; /* n, beside ends */
	uint32_t n, ncap; /* frames */
	bool annotate;
};

/*
 * One named stack, as the run's sinks get it (stackfold.h): its typed
 * frames and whose samples they are. Text is made for the writers; the
 * filters and the graph read frames, types and ids.
 */
struct fold_stack {
	const struct fold_line *line;
	uint32_t pid, tid;
	/* the thread's frame ("NAME [TID]", --per-thread), or -1: its type
	 * says NAME's length and a virtual thread's CARRIER */
	int thread;
};

void fold_line__init(struct fold_line *l, bool annotate);
void fold_line__reset(struct fold_line *l);
void fold_line__release(struct fold_line *l);
/*
 * Append one frame (a ';' goes before all but the first), typed by its
 * kind (a Java frame's name "pkg/Cls.m": its class). 0 or -ENOMEM.
 */
int fold_line__push(struct fold_line *l, const struct frame *f);
/*
 * Append a Java frame as the JVM names it (jvm/jstacks.h): name, its kind
 * (FOLD_JIT, FOLD_C1, FOLD_INTERP, FOLD_INLINED), its source line (0:
 * none) and bytecode index (< 0: none), written "name:LINE_[x]" and typed
 * from these, not from the text (the bci is in the type only).
 */
int fold_line__push_java(struct fold_line *l, const char *name, uint32_t kind,
			 uint32_t line, int32_t bci);
/*
 * Append frames already folded (len bytes, "a;b_[j]"; none if 0): text
 * safename__copy(SAFENAME_FOLD) made, not checked again, whose frames
 * are told apart by their ';' and typed by fold_type__of (text read as
 * text: fold_line__parse).
 */
int fold_line__append(struct fold_line *l, const char *text, size_t len);
/*
 * Append the n frames of another line's text (len bytes; ends and types
 * as in struct fold_line, relative to text): a part kept by namecache.h.
 */
int fold_line__append_frames(struct fold_line *l, const char *text, size_t len,
			     const uint32_t *ends,
			     const struct fold_type *types, uint32_t n);
/* Append a plain name (comm, "[truncated]", the "-" delimiter). */
int fold_line__push_name(struct fold_line *l, const char *name);
/*
 * Append a name of a role (FOLD_PROCESS, FOLD_CONTAINER; FOLD_THREAD
 * with its tid, the name's length before " [TID]" and carrier as in
 * struct fold_type): the head of a line.
 */
int fold_line__push_role(struct fold_line *l, const char *name,
			 const struct fold_type *t);
/*
 * The line of text line (len bytes, no count: a line read as text) into
 * l, split at its ';' and typed: its first frame the process, then a
 * "[container ID]" frame, then a "NAME [TID]" frame the thread, the rest
 * by fold_type__of. 0 or -ENOMEM.
 */
int fold_line__parse(struct fold_line *l, const char *line, size_t len);
/* Frame i's text (*len bytes, not NUL-terminated); i < l->n. */
const char *fold_line__frame(const struct fold_line *l, uint32_t i,
			     size_t *len);
/*
 * Does l hold a frame of a tier (C1's, interpreted) with its suffix? Then
 * fold_line__untier writes each such suffix "_[0]", "_[1]" as "_[j]", its
 * kind FOLD_JIT: folded text for flamegraph.pl, whose palette knows only
 * _[j], _[i] and _[k] (jvm/jframe.h). By the types, not the text.
 */
bool fold_line__tiers(const struct fold_line *l);
void fold_line__untier(struct fold_line *l);
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
 * Add count to the line of n (> 0) frames ending at ends in text, typed
 * types (as struct fold_line has them): a run's own stacks, not split
 * again. A frame's type is the one it first came with. 0, -EINVAL (no
 * frame) or -ENOMEM.
 */
int fold__add_frames(struct fold *f, const char *text, const uint32_t *ends,
		     const struct fold_type *types, uint32_t n, uint64_t count);
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
/*
 * One frame of a line kept in a struct fold: len bytes of text, its type,
 * and its id in the table (each distinct frame's own, for as long as the
 * table lives: a writer's key for it).
 */
struct fold_frame {
	const char *text;
	uint32_t len;
	uint32_t id;
	const struct fold_type *t;
};
/*
 * fn on each line's n frames (root first) and its count, sorted as
 * fold__write writes the lines: for the writers and readers of frames
 * (pprof, JFR, the top-N table), no text is rebuilt nor split. Stops at
 * fn's non-zero return and returns it; 0 or -ENOMEM. The frames are valid
 * only during fn's call.
 */
int fold__each_frames(const struct fold *f,
		      int (*fn)(const struct fold_frame *fr, uint32_t n,
				uint64_t count, void *ctx),
		      void *ctx);
/* The count of the line of frames fr (another table's; 0 when absent). */
uint64_t fold__count_frames(const struct fold *f, const struct fold_frame *fr,
			    uint32_t n);
/*
 * The frames of l into fr (grown to *cap), as fold__each_frames gives
 * them (ids 0), valid while l is unchanged: a line built for a writer.
 * Their number, or -ENOMEM.
 */
int fold_line__as_frames(const struct fold_line *l, struct fold_frame **fr,
			 size_t *cap);
/*
 * The frames of a line (len bytes, a line read as text) into fr, as
 * fold__each_frames gives them (ids 0), typed as fold_line__parse does:
 * for writers fed text (tests, fixtures). Valid until l's next use.
 * Their number, or -ENOMEM.
 */
int fold_line__frames(struct fold_line *l, const char *line, size_t len,
		      struct fold_frame **fr, size_t *cap);
/* Write "line count\n" for each line, sorted. 0 or -errno. */
int fold__write(const struct fold *f, FILE *out);

#endif
