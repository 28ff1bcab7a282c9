/*
 * unwindcheck.h: MIXPROF_UNWIND=check's differences, named. The BPF
 * walk compares each JVM sample's HotSpot walk with a frame-pointer walk
 * (the oracle, right on a -XX:+PreserveFramePointer JVM) and counts a
 * difference under a code (sampler_abi.h, CHECK_CODE: why they differ,
 * the kind of frame whose step differed, whether it was the leaf); the
 * summary counts them by code, and a folded stack that differs shows it
 * as a frame past its user leaf.
 */
#ifndef MIXPROF_UNWINDCHECK_H
#define MIXPROF_UNWINDCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * "why, after which kind of frame" for code (< CHECK_CODES), e.g. "the
 * oracle skipped a frame after a compiled leaf"; a static string.
 */
const char *unwindcheck__why(uint32_t code);

/*
 * Is code the oracle's own blind spot, not a HotSpot walk that went
 * wrong: the caller of a leaf that keeps no frame record (a frameless
 * stub, a compiled leaf in its prologue or epilogue) skipped, the rest
 * the same; or native code without frame pointers that the HotSpot walk
 * left at the thread's frame anchor?
 */
bool unwindcheck__blind(uint32_t code);

#endif
