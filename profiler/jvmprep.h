/*
 * jvmprep: what a JVM needs to be profiled well. Java frames are named
 * from the JIT map our agent (libjmap.so, found as agent_path says)
 * writes; callers of compiled code are only walkable with
 * -XX:+PreserveFramePointer.
 */
#ifndef MIXPROF_JVMPREP_H
#define MIXPROF_JVMPREP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * If pid is a JVM: load the agent into it through the attacher unless it
 * has one (or attach is false), and warn once, on stderr, when it runs
 * without frame pointers. Problems are reported, never fatal.
 */
void jvmprep(uint32_t pid, bool attach);

#endif
