/*
 * procmaps: the executable mappings of /proc/PID/maps text.
 *
 * Pure: takes the text. Keeps only mappings with 'x' permission (samples
 * land only there), sorted by start as the kernel lists them. Paths are
 * copied into the result; anonymous mappings have path "". A line that
 * does not parse is skipped and counted in bad.
 */
#ifndef MIXPROF_PROCMAPS_H
#define MIXPROF_PROCMAPS_H

#include <stddef.h>
#include <stdint.h>

struct vma {
	uint64_t start, end, offset;
	uint64_t dev; /* makedev(major, minor) as the kernel shows */
	uint64_t inode;
	const char *path; /* "", "[vdso]", "/usr/lib/..." (" (deleted)" kept) */
};

struct procmaps {
	struct vma *v;
	size_t n;
	uint64_t bad;
	char *paths; /* storage behind every v[i].path */
};

/* NULL and errno on failure (ENOMEM only: bad lines are not fatal). */
struct procmaps *procmaps__parse(const char *text, size_t len);
void procmaps__free(struct procmaps *m);
/* The mapping holding addr, or NULL: a binary search. */
const struct vma *procmaps__find(const struct procmaps *m, uint64_t addr);

#endif
