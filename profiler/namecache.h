/*
 * namecache: named stack parts kept across buckets, so a stack that comes
 * back in the next bucket (most do) is not named frame by frame again;
 * naming was a third of mixprof's CPU in a steady profile.
 *
 * A part is the folded text of one side of a key: the user frames of a
 * (pid, user stack, interp list), or the frames of a kernel stack. It
 * keeps the counts its naming added to the run's statistics, so a part
 * taken from here counts the same, and the two versions of the naming
 * state it was named under (symbolizer__version, interp__version): a
 * lookup under other versions misses.
 *
 * Memory is bounded: past budget bytes, the parts not asked for since
 * the budget was last reached are dropped (all of them when that is not
 * enough).
 */
#ifndef MIXPROF_NAMECACHE_H
#define MIXPROF_NAMECACHE_H

#include <stddef.h>
#include <stdint.h>

struct part_id {
	uint64_t stack; /* the sampler's stack key (a content hash) */
	uint64_t interp_id; /* 0 for kernel parts */
	uint32_t pid; /* 0 for kernel parts */
};

/* What naming a part added to the statistics (frames, not samples). */
struct part_counts {
	uint32_t frames, unknown; /* symbolizer: named, of which unknown */
	uint32_t interp_named, interp_unnamed; /* interpreted frames */
};

struct part {
	struct part_id id;
	uint64_t v1, v2;
	struct part_counts c;
	uint32_t len;
	char used; /* asked for since the budget was last reached */
	char text[]; /* len bytes and a NUL */
};

struct namecache;

struct namecache *namecache__new(size_t budget); /* NULL: ENOMEM */
void namecache__free(struct namecache *nc);

/* The part named id under versions v1, v2, or NULL. */
const struct part *namecache__get(struct namecache *nc,
				  const struct part_id *id, uint64_t v1,
				  uint64_t v2);
/*
 * Keep text (len bytes) as the part id under v1, v2, replacing any older
 * one. 0 or -ENOMEM (nothing kept).
 */
int namecache__put(struct namecache *nc, const struct part_id *id, uint64_t v1,
		   uint64_t v2, const struct part_counts *c, const char *text,
		   size_t len);

#endif
