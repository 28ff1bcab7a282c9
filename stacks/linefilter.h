/*
 * linefilter: which folded stacks a run keeps. -I/--include REGEX keeps
 * stacks with a frame the regex matches, -X/--exclude REGEX drops them
 * (async-profiler's -I/-X, flame graph habits: grep over frames); --tid
 * keeps the listed threads (the stack's tid), --thread REGEX the threads
 * whose name it matches (the thread frame of --per-thread stacks).
 * Regexes are POSIX extended, matched against each frame as folded (with
 * its _[j]/_[k] suffix), unanchored. Pure: stacks in, yes or no out.
 */
#ifndef MIXPROF_LINEFILTER_H
#define MIXPROF_LINEFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fold.h"

#define LINEFILTER_MAX 16 /* -I and -X each, and --thread */

struct linefilter;

/* An empty filter (keeps everything). NULL and errno. */
struct linefilter *linefilter__new(void);
void linefilter__free(struct linefilter *f);

enum linefilter_kind { LF_INCLUDE, LF_EXCLUDE, LF_THREAD };
/*
 * Add a regex of kind. 0, or -EINVAL with the regex library's message
 * in err, or -ENOSPC past LINEFILTER_MAX of a kind.
 */
int linefilter__add_regex(struct linefilter *f, enum linefilter_kind kind,
			  const char *re, char *err, size_t errlen);
/* --tid: "1,2,3". 0 or -EINVAL (err names the bad part). */
int linefilter__add_tids(struct linefilter *f, const char *list, char *err,
			 size_t errlen);
/* Does the filter select threads (so lines must carry "name [tid]")? */
bool linefilter__wants_threads(const struct linefilter *f);
/* Does it filter at all? */
bool linefilter__active(const struct linefilter *f);

/*
 * Keep stack s? Its frames as folded, its tid, its thread frame's name
 * (fold.h); a stack without a thread frame fails a thread filter.
 */
bool linefilter__keep(const struct linefilter *f, const struct fold_stack *s);

#endif
