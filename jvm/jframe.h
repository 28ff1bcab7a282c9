/*
 * jframe: the kinds of a Java frame, as async-profiler marks them in
 * folded stacks, so flame graph tools colour them alike (the suffixes
 * are written by stacks/fold.c from these kinds):
 *
 *   _[0]  interpreted             _[1]  compiled by C1 (tiers 1 to 3)
 *   _[j]  compiled by C2 / JVMCI  _[i]  inlined into the frame below it
 *   _[k]  kernel
 *
 * and "Class.method:LINE" for --lines. Pure; nothing here reads a JVM.
 *
 * The tiers (_[0], _[1]) are kept in our own graphs, pprof and JFR;
 * folded text leaves them out by default (stacks/fold.h's
 * fold_line__untier, by the frames' types): the palette of
 * flamegraph.pl --color=java knows only _[j], _[i] and _[k], and colours
 * any other frame by its package prefix (java/, org/, com/...), so an
 * interpreted or C1 frame of a class in the default package or in de/,
 * app/... came out red like C code.
 */
#ifndef MIXPROF_JFRAME_H
#define MIXPROF_JFRAME_H

#include <stdbool.h>

enum jframe_kind {
	JF_INTERPRETED,
	JF_COMPILED, /* the outermost method of an nmethod */
	JF_INLINED, /* a method inlined into it (any but the outermost) */
	JF_KERNEL,
};

/*
 * Is a frame of this kind C1's? comp_level (the nmethod's tier, 0 to 4)
 * matters for JF_COMPILED only: 1-3 C1 ("_[1]"), 4 C2 or JVMCI ("_[j]"),
 * 0 (a native wrapper, compiled code that is not a compilation of
 * bytecodes) "_[j]" too. The suffixes are written by stacks/fold.c.
 */
bool jframe__c1(enum jframe_kind kind, int comp_level);

/*
 * The kind of each frame of an inline chain of n methods, innermost
 * first (as nmethod__scope_chain gives them): all JF_INLINED but the last.
 */
void jframe__chain_kinds(int n, enum jframe_kind *kinds);

#endif
