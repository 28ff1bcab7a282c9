// SPDX-License-Identifier: GPL-2.0
/*
 * jframe: frame-kind suffixes and line numbers in frame names (see
 * jframe.h). async-profiler's choice of suffixes is kept so that its
 * collapsed output and ours read alike. flamegraph.pl --color=java
 * colours "_[j]" green, "_[i]" aqua and "_[k]" orange; "_[0]" and "_[1]"
 * it does not know, so those frames get its unannotated rule (green when
 * the name starts with java/, javax/, jdk/, net/, org/, com/, io/ or
 * sun/, else red): hence folded text writes tiers as _[j]
 * (stacks/fold.h: fold_line__untier).
 */
#include <errno.h>
#include <stdio.h>
#include "jframe.h"

const char *jframe__suffix(enum jframe_kind kind, int comp_level)
{
	switch (kind) {
	case JF_INTERPRETED:
		return "_[0]";
	case JF_COMPILED:
		return comp_level >= 1 && comp_level <= 3 ? "_[1]" : "_[j]";
	case JF_INLINED:
		return "_[i]";
	case JF_KERNEL:
		return "_[k]";
	}
	return "";
}

void jframe__chain_kinds(int n, enum jframe_kind *kinds)
{
	for (int i = 0; i < n; i++)
		kinds[i] = i == n - 1 ? JF_COMPILED : JF_INLINED;
}

int jframe__with_line(char *out, size_t cap, const char *name, int line)
{
	int n = line > 0 ? snprintf(out, cap, "%s:%d", name, line)
			 : snprintf(out, cap, "%s", name);

	return n < 0 || (size_t)n >= cap ? -ENOSPC : n;
}
