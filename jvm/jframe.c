// SPDX-License-Identifier: GPL-2.0
/*
 * jframe: Java frames' kinds and tiers (see jframe.h). async-profiler's
 * choice of suffixes (written by stacks/fold.c) is kept so that its
 * collapsed output and ours read alike. flamegraph.pl --color=java
 * colours "_[j]" green, "_[i]" aqua and "_[k]" orange; "_[0]" and "_[1]"
 * it does not know, so those frames get its unannotated rule (green when
 * the name starts with java/, javax/, jdk/, net/, org/, com/, io/ or
 * sun/, else red): hence folded text writes tiers as _[j]
 * (stacks/fold.h: fold_line__untier).
 */
#include "jframe.h"

bool jframe__c1(enum jframe_kind kind, int comp_level)
{
	return kind == JF_COMPILED && comp_level >= 1 && comp_level <= 3;
}

void jframe__chain_kinds(int n, enum jframe_kind *kinds)
{
	for (int i = 0; i < n; i++)
		kinds[i] = i == n - 1 ? JF_COMPILED : JF_INLINED;
}
