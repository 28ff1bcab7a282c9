/*
 * namecache: named stack parts kept across buckets, so a stack that comes
 * back in the next bucket (most do) is not named frame by frame again;
 * naming was a third of mixprof's CPU in a steady profile.
 *
 * A part is the folded text of frames of one side of a key: of a (pid,
 * user stack, interp list), or of a kernel stack, with where each frame
 * ends and what it is (as struct fold_line has them, fold.h). It keeps the counts
 * its naming added to the run's statistics, so a part taken from here
 * counts the same, and the versions of the naming state it was named
 * under, for the caller to check (stackfold.c: symbolizer__version and
 * jstacks__stack's version).
 *
 * Memory is bounded: past budget bytes, the parts not asked for since
 * the budget was last reached are dropped (all of them when that is not
 * enough).
 */
#ifndef MIXPROF_NAMECACHE_H
#define MIXPROF_NAMECACHE_H

#include <stddef.h>
#include <stdint.h>
#include "fold.h"

struct part_id {
	uint64_t stack; /* the sampler's stack key (a content hash) */
	uint64_t interp_id; /* 0 for kernel parts */
	uint32_t pid; /* 0 for kernel parts */
};

/* What naming a part added to the statistics (frames, not samples). */
struct part_counts {
	uint32_t frames, unknown; /* symbolizer: named, of which unknown */
	uint32_t interp_named, interp_unnamed; /* interpreted frames */
	uint32_t stubs; /* of the unknown: JVM stubs named by their CodeBlob */
};

#define PART_VERSIONS 3

struct part {
	struct part_id id;
	uint64_t v[PART_VERSIONS]; /* the caller's; it may update them */
	struct part_counts c;
	uint32_t len, n; /* text's bytes, frames */
	char used; /* asked for since the budget was last reached */
	char *text; /* len bytes and a NUL, after types */
	struct fold_type *types; /* n, after ends */
	uint32_t ends[]; /* n: where each frame of text ends */
};

struct namecache;

struct namecache *namecache__new(size_t budget); /* NULL: ENOMEM */
/* Bytes the parts hold now (at most the budget). */
size_t namecache__bytes(const struct namecache *nc);
void namecache__free(struct namecache *nc);

/* The part named id, or NULL; it lives until the next put. */
struct part *namecache__get(struct namecache *nc, const struct part_id *id);
/*
 * Keep text (len bytes, n frames ending at ends, typed types) as the part
 * id named under versions v, replacing any older one. 0 or -ENOMEM
 * (nothing kept).
 */
int namecache__put(struct namecache *nc, const struct part_id *id,
		   const uint64_t v[PART_VERSIONS], const struct part_counts *c,
		   const char *text, size_t len, const uint32_t *ends,
		   const struct fold_type *types, uint32_t n);

#endif
